/**
 * Streaming input for commands: records from `--data`/`--file`, ids from
 * arguments, `--ids` and `--ids-file`. See `types.ts` for the options.
 */
export { readRecords, type CountedSource } from './records.js';
export { readIds } from './ids.js';
export type { InputStats } from './bad-rows.js';
export { ERROR_FIELD } from './record.js';
export { formatFromPath } from './format.js';
export { estimateRecordCount } from './count.js';
export type { BadRow, IdReadOptions, InputFormat, ReadOptions, SourceItem } from './types.js';
