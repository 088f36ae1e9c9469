/** The one test for "a JSON object" the client's readers share, and reading its fields whatever their case. */

/** True for a non-null, non-array object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The name under which `object` holds the field `name`, whatever its letters' case
 * (`Id`, `IsSuccess` and `Status` from ASP.NET, `id` from Spring): the exact name
 * first, else the first field of the same letters.
 */
export function keyOf(object: Record<string, unknown>, name: string): string | undefined {
  if (Object.hasOwn(object, name)) return name;
  const lower = name.toLowerCase();
  return Object.keys(object).find((key) => key.toLowerCase() === lower);
}

/** The field `name` of `object`, whatever its letters' case (see `keyOf`). */
export function fieldOf(object: Record<string, unknown>, name: string): unknown {
  const key = keyOf(object, name);
  return key === undefined ? undefined : object[key];
}

/** A record's id, under `id` in any case (`Id`, `ID`): the record's own value, unchanged. */
export function idOf(record: unknown): unknown {
  return isObject(record) ? fieldOf(record, 'id') : undefined;
}
