import { pipeline, Readable } from 'node:stream';
import Parser from 'stream-json/Parser.js';
import StreamArray from 'stream-json/streamers/StreamArray.js';
import StreamValues from 'stream-json/streamers/StreamValues.js';
import { InputError } from '../../errors.js';
import { ValueLineTracker } from './json-lines.js';
import { peek, withoutBom } from './source.js';
import type { SourceItem } from './types.js';

const VALUE_TOKENS = new Set(['stringValue', 'numberValue', 'nullValue', 'trueValue', 'falseValue']);

/**
 * stream-json's parser, counting the values it has finished at one depth. When it
 * meets a syntax error, that count says which value the error is in, even though
 * the values before it may not have reached the reader yet.
 */
class CountingParser extends Parser {
  completed = 0;
  private depth = 0;

  constructor(
    private readonly valueDepth: number,
    options: Parser.ParserOptions,
  ) {
    super(options);
  }

  override push(token: unknown, encoding?: BufferEncoding): boolean {
    if (token !== null && typeof token === 'object' && 'name' in token) {
      const name = String(token.name);
      if (name === 'startObject' || name === 'startArray') this.depth += 1;
      else if (name === 'endObject' || name === 'endArray') {
        this.depth -= 1;
        if (this.depth === this.valueDepth) this.completed += 1;
      } else if (VALUE_TOKENS.has(name) && this.depth === this.valueDepth) this.completed += 1;
    }
    return super.push(token, encoding);
  }
}

/**
 * Streams the values of json input: the elements of a top-level array, or each
 * top-level value of a file holding one object (or several, one after another).
 * Memory stays flat: stream-json assembles one element at a time.
 *
 * A syntax error cannot be skipped (the parser cannot find its footing again), so
 * it throws `InputError` with the line of the value it broke in.
 */
export async function* readJsonValues(input: Readable): AsyncGenerator<SourceItem<unknown>> {
  const peeked = await peek(input);
  const stream = peeked.head.startsWith('\uFEFF') ? Readable.from(withoutBom(peeked.stream), { objectMode: false }) : peeked.stream;
  const valueDepth = peeked.head.replace(/^\uFEFF/, '').trimStart().startsWith('[') ? 1 : 0;
  const tracker = new ValueLineTracker(valueDepth);
  const parser = new CountingParser(valueDepth, { jsonStreaming: valueDepth === 0 });
  const streamer = valueDepth === 1 ? new StreamArray() : new StreamValues();
  // pipeline() tears the chain down on the first error and hands it to the last stream.
  const values = pipeline(stream, tracker, parser, streamer, () => {});
  try {
    for await (const chunk of values as AsyncIterable<{ value: unknown }>) {
      yield { value: chunk.value, line: tracker.nextLine() };
    }
  } catch (error) {
    throw new InputError(`malformed JSON (${(error as Error).message})`, tracker.lineAt(parser.completed), { cause: error });
  } finally {
    values.destroy();
  }
}
