/**
 * Record ids as text (a path segment, a command-line argument, a cell of an ids
 * file): plain decimal digits of a positive safe integer, and nothing else.
 * `Number` alone would also read ' 1', '1e0' and '0x1' as 1, so a typo could act
 * on another record. The one reading of an id for the CLI and the server alike.
 */

const DIGITS = /^\d{1,16}$/;

/** The id `text` names, or `undefined` when it is not plain digits of a positive safe integer. */
export function parseRecordId(text: string): number | undefined {
  if (!DIGITS.test(text)) return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}
