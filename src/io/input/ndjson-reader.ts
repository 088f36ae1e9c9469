import type { Readable } from 'node:stream';
import { InputError } from '../../errors.js';
import { parseJson, UnrepresentableNumberError } from '../../json/json-parse.js';
import { jsonSyntaxReason } from '../../json/syntax-reason.js';
import type { BadRowHandler } from './bad-rows.js';
import { readLines } from './lines.js';
import type { SourceItem } from './types.js';

/**
 * Streams ndjson: one JSON value a line, blank lines skipped, a malformed line is a
 * bad row. Numbers are exact; one no double can hold (1e400) stops the read
 * (`InputError`): the row is not malformed, it cannot be sent as written.
 */
export async function* readNdjsonValues(input: Readable, badRow: BadRowHandler): AsyncGenerator<SourceItem<unknown>> {
  for await (const { text, line } of readLines(input)) {
    let value: unknown;
    try {
      value = parseJson(text, { input: true });
    } catch (error) {
      if (error instanceof UnrepresentableNumberError) throw new InputError(error.message, line, { cause: error });
      badRow({ line, message: `malformed JSON (${jsonSyntaxReason(error)})`, raw: text });
      continue;
    }
    yield { value, line };
  }
}
