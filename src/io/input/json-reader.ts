import { pipeline, Readable } from 'node:stream';
import Parser from 'stream-json/Parser.js';
import StreamArray from 'stream-json/streamers/StreamArray.js';
import StreamValues from 'stream-json/streamers/StreamValues.js';
import { InputError } from '../../errors.js';
import { inputNumber, mayBeInexact, UnrepresentableNumberError } from '../../json/json-parse.js';
import { jsonSyntaxReason } from '../../json/syntax-reason.js';
import { ValueLineTracker } from './json-lines.js';
import { peek, withoutBom } from './source.js';
import type { SourceItem } from './types.js';

const VALUE_TOKENS = new Set(['stringValue', 'numberValue', 'nullValue', 'trueValue', 'falseValue']);

/**
 * stream-json's assembler reads every number with `parseFloat`, which rounds ids past
 * 2^53 and long amounts. A number token a double might change is passed on as a
 * string carrying this mark (the nonce keeps a file's own strings from looking like
 * one), and the assembler's reviver puts the exact number in its place.
 */
const EXACT_MARK = `\u0000exact:${Math.random().toString(36).slice(2)}:`;

/**
 * stream-json's assembler sets each field with `object[key] = value`, so a field
 * named `__proto__` would become the record's prototype (a row without an id would
 * take the id it holds). The key is passed on under this mark instead, and the
 * reviver names the field `__proto__` again, as the record's own.
 */
const PROTO_KEY = `${EXACT_MARK}__proto__`;

/** The assembler's reviver: a marked string back to the exact number it stands for, a marked key back to `__proto__`. */
function reviveExact(_key: string, value: unknown): unknown {
  if (typeof value === 'string') return value.startsWith(EXACT_MARK) ? inputNumber(value.slice(EXACT_MARK.length)) : value;
  if (typeof value === 'object' && value !== null && Object.hasOwn(value, PROTO_KEY))
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key === PROTO_KEY ? '__proto__' : key, field]));
  return value;
}

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
      const value = 'value' in token ? token.value : undefined;
      if (name === 'numberValue' && typeof value === 'string' && mayBeInexact(value)) token = { name: 'stringValue', value: `${EXACT_MARK}${value}` };
      else if (name === 'keyValue' && value === '__proto__') token = { name: 'keyValue', value: PROTO_KEY };
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
  const valueDepth = peeked.head
    .replace(/^\uFEFF/, '')
    .trimStart()
    .startsWith('[')
    ? 1
    : 0;
  const tracker = new ValueLineTracker(valueDepth);
  const parser = new CountingParser(valueDepth, { jsonStreaming: valueDepth === 0 });
  // Streamers hand their options to their Assembler, whose `reviver` option @types/stream-json leaves out.
  const options = { reviver: reviveExact } as ConstructorParameters<typeof StreamArray>[0];
  const streamer = valueDepth === 1 ? new StreamArray(options) : new StreamValues(options);
  // pipeline() tears the chain down on the first error and hands it to the last stream.
  const values = pipeline(stream, tracker, parser, streamer, () => {});
  try {
    for await (const chunk of values as AsyncIterable<{ value: unknown }>) {
      yield { value: chunk.value, line: tracker.nextLine() };
    }
  } catch (error) {
    const line = tracker.lineAt(parser.completed);
    if (error instanceof UnrepresentableNumberError) throw new InputError(error.message, line, { cause: error });
    throw new InputError(`malformed JSON (${jsonSyntaxReason(error)})`, line, { cause: error });
  } finally {
    values.destroy();
  }
}
