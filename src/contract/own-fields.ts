/**
 * Field names are data. Records are open JSON objects, csv headers and config
 * keys come from files: `__proto__`, `constructor` and `prototype` are fields like
 * any other. A field is read as the object's own (`ownField`: never one that
 * Object.prototype answers, as `record.constructor` would) and written as its own
 * (`setField`: `record['__proto__'] = x` would replace the object's prototype, so a
 * csv column `__proto__` holding `{"id":2}` would give the row the id 2).
 */

/** The value of the object's own field `name`, or `undefined` when it has none. */
export function ownField<T>(record: Readonly<Record<string, T>>, name: string): T | undefined {
  return Object.hasOwn(record, name) ? record[name] : undefined;
}

/**
 * Sets the object's own field `name`, whatever the name. Only `__proto__` needs
 * more than an assignment (an object literal's other names create own fields);
 * the rest stay assignments, as fast as a csv reader's cell loop needs them.
 */
export function setField<T>(record: Record<string, T>, name: string, value: NoInfer<T>): void {
  if (name === '__proto__') Object.defineProperty(record, name, { value, enumerable: true, writable: true, configurable: true });
  else record[name] = value;
}
