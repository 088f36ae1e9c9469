import { describe, expect, it } from 'vitest';
import { ExactDecimal } from '../../src/json/exact-number.js';
import { parseJsonChunks } from '../../src/json/json-stream.js';
import { parseJson } from '../../src/json/json-parse.js';

/** Parses `text` cut into pieces of `size` bytes (1: every byte its own chunk, so every split is tried). */
function parseIn(text: string, size: number): Promise<unknown> {
  const bytes = Buffer.from(text, 'utf8');
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return parseJsonChunks(chunks);
}

const DOCUMENTS = [
  '[]',
  ' [ ] ',
  '[1]',
  '{}',
  '"text"',
  '42',
  'null',
  '[[1,[2]],{"a":[3]}]',
  '{"success":true,"message":"ok","data":{"content":[{"id":1,"code":"A","tags":["x","y"]},{"id":2,"note":"comma, ] and } and \\" inside"}],"page":{"number":0,"size":2,"totalElements":2,"totalPages":1}}}',
  '{"content":[{"id":9007199254740993,"amount":12345678901234567.89,"small":1.5}],"last":true}',
  '{"data":[{"id":18446744073709551617,"name":"é 😀 中文"}],"success":true}',
  '{"result":{"data":{"content":[1,2,3]}},"code":0}',
  '{"a":[1],"a":[2,9007199254740993],"__proto__":{"x":[1]}}',
  '{"__proto__":[1,2]}',
  '{"errors":[{"path":"code","message":"required"}],"data":[],"success":false}',
  '{"deep":{"er":{"still":{"array":[1,{"b":[2]}]}}}}',
  '["\\u0000pla-array:nonce:0","\\\\",""]',
  `{"content":[{"note":"${'x'.repeat(80)}"},1,2,{"note":"${'y'.repeat(90)}","id":9007199254740993},[],{},{"note":"${'z'.repeat(70)}"}],"last":true}`,
  JSON.stringify([{ note: 'é'.repeat(100) }, { note: '"\\'.repeat(50) }, 3]),
];

describe('parseJsonChunks (stream-json)', () => {
  it('gives what parseJson gives for the whole text, however the text is cut into chunks', async () => {
    for (const text of DOCUMENTS) {
      const expected = parseJson(text);
      for (const size of [1, 2, 3, 7, 64, 1 << 20]) expect(await parseIn(text, size), `${text} in pieces of ${size}`).toEqual(expected);
    }
  });

  it('is done with each chunk before it asks for the next: a chunk wiped then changes nothing', async () => {
    const text = `{"a":[1,2],"note":"${'n'.repeat(40)}","id":9007199254740993}`;
    // Each chunk is overwritten the moment the next is asked for, as its owner may free it then.
    function* wipedOnceRead(): Generator<Uint8Array> {
      const bytes = Buffer.from(text, 'utf8');
      for (let at = 0; at < bytes.length; at += 5) {
        const chunk = Buffer.from(bytes.subarray(at, at + 5));
        yield chunk;
        chunk.fill('x');
      }
    }
    expect(await parseJsonChunks(wipedOnceRead())).toEqual(parseJson(text));
  });

  it('keeps numbers exact and a __proto__ field a field', async () => {
    const page = (await parseIn(DOCUMENTS[9] as string, 5)) as { content: Array<Record<string, unknown>> };
    expect(page.content[0]?.id).toBe(9007199254740993n);
    expect(page.content[0]?.amount).toBeInstanceOf(ExactDecimal);
    expect(String(page.content[0]?.amount)).toBe('12345678901234567.89');
    const proto = (await parseIn('{"__proto__":[1,2],"a":1}', 3)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(proto, '__proto__')?.value).toEqual([1, 2]);
  });

  it('refuses what is not one JSON document', async () => {
    for (const text of [
      '',
      '[',
      '[1,]',
      '[,]',
      '[1,,2]',
      '[ ,1]',
      '{"a":[1}',
      '[1]]',
      '{"a":1',
      '[1] [2]',
      '{"a":[01]}',
      '"open',
      '{"a":[{"b":}]}',
      '<html>',
    ]) {
      await expect(parseIn(text, 2), text).rejects.toThrow();
    }
  });
});
