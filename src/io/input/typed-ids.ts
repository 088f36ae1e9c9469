/**
 * Ids typed on the command line (positional arguments, `--ids 1,2,3`). Its own
 * module with no readers behind it: `get 7` parses its id without loading csv or
 * streaming-json code.
 */
import { parseRecordId } from '../../contract/ids.js';
import { UsageError } from '../../errors.js';

/** A positive integer id from a number or its decimal text; `undefined` if it is not one. */
export function parseId(value: unknown): number | undefined {
  if (typeof value === 'string') return parseRecordId(value.trim());
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/** Typed ids in order, blanks left out; a bad one is a `UsageError` (nothing has been sent yet). */
export function typedIds(texts: readonly string[]): number[] {
  return texts
    .map((text) => text.trim())
    .filter((text) => text !== '')
    .map((text) => {
      const id = parseId(text);
      if (id === undefined) throw new UsageError(`'${text}' is not an id: ids are positive integers`);
      return id;
    });
}
