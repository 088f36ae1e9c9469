/**
 * `JSON.stringify` that writes a BigInt as the integer literal it is. Ids are the
 * spec's integer(int64): past 2^53 the CLI holds them as BigInts (see
 * `io/input/typed-ids.ts`), and a bulk body, a rejects line or a checkpoint must
 * carry 9223372036854775807 exactly, where plain `JSON.stringify` throws.
 */
/**
 * Stands in for a BigInt while stringifying; the nonce keeps a client's own string
 * from looking like one (Math.random: node:crypto stays out of a `get`'s start-up).
 */
const MARK = `\u0000int64:${Math.random().toString(36).slice(2)}:`;
const MARKED = new RegExp(`"${JSON.stringify(MARK).slice(1, -1).replace(/\\/g, '\\\\')}(-?\\d+)"`, 'g');

/** `JSON.stringify(value, null, indent)`, with BigInts as bare integers. */
export function jsonText(value: unknown, indent?: number): string {
  let sawBigInt = false;
  const text = JSON.stringify(
    value,
    (_key, v: unknown) => {
      if (typeof v !== 'bigint') return v;
      sawBigInt = true;
      return `${MARK}${v}`;
    },
    indent,
  );
  return sawBigInt ? text.replace(MARKED, '$1') : text;
}
