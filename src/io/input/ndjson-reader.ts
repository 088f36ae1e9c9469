import type { Readable } from 'node:stream';
import type { BadRowHandler } from './bad-rows.js';
import { readLines } from './lines.js';
import type { SourceItem } from './types.js';

/** Streams ndjson: one JSON value a line, blank lines skipped, a malformed line is a bad row. */
export async function* readNdjsonValues(input: Readable, badRow: BadRowHandler): AsyncGenerator<SourceItem<unknown>> {
  for await (const { text, line } of readLines(input)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      badRow({ line, message: `malformed JSON (${(error as Error).message})`, raw: text });
      continue;
    }
    yield { value, line };
  }
}
