import { Readable } from 'node:stream';
import { InputError } from '../../errors.js';
import type { BadRowHandler } from './bad-rows.js';
import { readCsvRecords } from './csv-reader.js';
import { formatFromPath, sniffFormat } from './format.js';
import { readJsonValues } from './json-reader.js';
import { readLines } from './lines.js';
import { readNdjsonValues } from './ndjson-reader.js';
import { openInput, peek } from './source.js';
import type { InputFormat, ReadOptions, SourceItem } from './types.js';

/** The formats a file can be read as; `lines` is plain text, one value a line (id files). */
export type ValueFormat = InputFormat | 'lines';

/**
 * Decides a file's format from its first bytes and the format its name gives
 * (`undefined` for stdin or an extension naming none).
 */
export type Sniff = (head: string, byName: InputFormat | undefined) => ValueFormat;

/** Records: the extension decides, else the first bytes (format.ts). */
const sniffRecords: Sniff = (head, byName) => byName ?? sniffFormat(head);

/**
 * Streams the values of `--file F` (`-` = stdin) in the format named by
 * `options.format`, else as `sniff` decides from the extension and the first
 * bytes. Plain text (`lines`) yields every line, blank ones as ''.
 */
export async function* readFileValues(
  file: string,
  options: ReadOptions,
  badRow: BadRowHandler,
  sniff: Sniff = sniffRecords,
): AsyncGenerator<SourceItem<unknown>> {
  const source = await openInput(file, options.stdin);
  let stream = source;
  let format: ValueFormat | undefined = options.format;
  if (format === undefined) {
    const byName = file === '-' ? undefined : formatFromPath(file);
    if (sniff === sniffRecords && byName !== undefined) format = byName;
    else {
      const peeked = await peek(stream);
      stream = peeked.stream;
      format = sniff(peeked.head, byName);
    }
  }
  try {
    switch (format) {
      case 'json':
        yield* readJsonValues(stream);
        break;
      case 'ndjson':
        yield* readNdjsonValues(stream, badRow);
        break;
      case 'csv':
        yield* readCsvRecords(stream, options, badRow);
        break;
      case 'lines':
        for await (const { text, line } of readLines(stream, { blanks: true })) yield { value: text, line };
        break;
    }
  } finally {
    // Stop reading a file (or stdin) the consumer walked away from. The file's own
    // stream too, not only a peeking wrapper around it: a wrapper whose generator
    // never started does not pass its destruction on, and a FileHandle left to the
    // garbage collector warns (DEP0137) and, on Node 26, throws ERR_INVALID_STATE.
    if (stream !== source) stream.destroy();
    if (source !== options.stdin) source.destroy();
  }
}

/** Where in `--data` JSON.parse gave up, as a 1-based line, when its message says. */
function lineOfPosition(data: string, message: string): number | undefined {
  const match = /position (\d+)/.exec(message);
  if (!match) return undefined;
  return data.slice(0, Number(match[1])).split('\n').length;
}

/** Streams the values of `--data JSON` (an object, or an array of them). */
export async function* readDataValues(data: string): AsyncGenerator<SourceItem<unknown>> {
  try {
    JSON.parse(data);
  } catch (error) {
    const message = (error as Error).message;
    throw new InputError(`--data is not valid JSON: ${message}`, lineOfPosition(data, message), { cause: error });
  }
  yield* readJsonValues(Readable.from([Buffer.from(data)]));
}
