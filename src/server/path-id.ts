/**
 * Record ids in paths whose contract type is a string (notification ids, key ids):
 * decimal digits only. `Number` alone would also read ' 1', '1e0' and '0x1' as 1, so
 * a typo could act on another record.
 */

/** The id `raw` names, or undefined when it is not plain decimal digits of a safe integer. */
export function idFromPath(raw: unknown): number | undefined {
  if (typeof raw !== 'string' || !/^\d{1,16}$/.test(raw)) return undefined;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : undefined;
}
