/**
 * One JSON document read from chunks of bytes (src/json/: json-parse.ts reads a
 * text, this file chunks) by stream-json's parser, without ever joining the chunks
 * into one text: a list page held as chunks, their join, the string and the parse
 * at once took five times its size (a 60 MB page: 315 MB of peak memory). Each
 * chunk is done with before the next is taken, so memory can hold the bytes not
 * yet read and the values made so far.
 *
 * stream-json's own assembler reads numbers with `parseFloat` (ids past 2^53
 * rounded) and assigns keys (a `__proto__` field would set the object's
 * prototype), so its tokens are assembled here: numbers exact (exact-number.ts),
 * `__proto__` an own field, the last of repeated keys kept — the value `parseJson`
 * gives for the whole text. A text stream-json refuses throws its error.
 */
import { finished } from 'node:stream/promises';
import Parser from 'stream-json/Parser.js';
import { exactNumber } from './exact-number.js';

type Container = Record<string, unknown> | unknown[];

/** A stream-json token (packed values only: keys, strings and numbers whole). */
interface Token {
  name: string;
  value?: unknown;
}

/**
 * `text` in a string of its own: stream-json cuts values out of the text of the
 * chunk they came in, and V8 keeps such a piece as a view of that whole text, so a
 * page's values held every chunk's text too (a 60 MB page peaked at 295 MB, 224 MB
 * with this copy; test/cli/streamed-pages.test.ts).
 */
function own(text: string): string {
  return text.length < 13 ? text : Buffer.from(text, 'utf8').toString('utf8');
}

/** Builds the document's value from its tokens. */
class Assembly {
  /** Open containers, innermost last, each with the key it goes under in its parent. */
  private readonly open: Array<{ container: Container; key: string | undefined }> = [];
  private key: string | undefined;
  value: unknown;

  take(token: Token): void {
    switch (token.name) {
      case 'startObject':
        return this.begin({});
      case 'startArray':
        return this.begin([]);
      case 'endObject':
      case 'endArray':
        return this.end();
      case 'keyValue':
        this.key = String(token.value);
        return;
      case 'stringValue':
        return this.save(own(String(token.value)));
      case 'numberValue':
        return this.save(exactNumber(String(token.value)));
      case 'nullValue':
        return this.save(null);
      case 'trueValue':
        return this.save(true);
      case 'falseValue':
        return this.save(false);
    }
  }

  private begin(container: Container): void {
    this.open.push({ container, key: this.key });
  }

  private end(): void {
    const done = this.open.pop();
    if (done === undefined) return;
    this.key = done.key;
    this.save(done.container);
  }

  /** Puts a finished value where it belongs: the open array, the open object's key, or the document. */
  private save(value: unknown): void {
    const parent = this.open.at(-1)?.container;
    if (parent === undefined) this.value = value;
    else if (Array.isArray(parent)) parent.push(value);
    else if (this.key === '__proto__') Object.defineProperty(parent, this.key, { value, writable: true, enumerable: true, configurable: true });
    else parent[this.key ?? ''] = value;
  }
}

/**
 * The value of the JSON document `chunks` hold, in order. Each chunk is read whole
 * before the next is asked for, so its owner may free or reuse it then
 * (streamed-body.ts gives its memory back). Rejects with stream-json's error when
 * the bytes are not one JSON document.
 */
export async function parseJsonChunks(chunks: Iterable<Uint8Array>): Promise<unknown> {
  const assembly = new Assembly();
  const parser = new Parser({ packKeys: true, packStrings: true, packNumbers: true, streamKeys: false, streamStrings: false, streamNumbers: false });
  parser.on('data', (token: Token) => assembly.take(token));
  const ended = finished(parser);
  // Its error is the write's too; awaited below only once every chunk was taken.
  ended.catch(() => undefined);
  for (const chunk of chunks) {
    // Resolved once the parser has turned the chunk into text: it keeps nothing of it.
    await new Promise<void>((resolve, reject) => parser.write(chunk, (error) => (error ? reject(error) : resolve())));
  }
  parser.end();
  await ended;
  return assembly.value;
}
