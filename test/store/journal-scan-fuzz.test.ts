/**
 * The journal fast path against the parser on many generated lines: whatever the fast
 * path reads (journal-scan.ts), the slow path (parseJournalEntry) must read the same
 * way, and each record's kept text must be what `jsonText` writes of the parsed record
 * (that text goes into pages, snapshots and the `where` pre-test as it is); whatever
 * the slow path refuses, the fast path must leave to it. Then end to end: a store whose
 * journal holds such lines answers as the parser would have it.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonText } from '../../src/json/json-text.js';
import { parseJournalEntry } from '../../src/store/journal-entry.js';
import { scanJournalLine } from '../../src/store/journal-scan.js';
import { openJsonStore } from '../../src/store/json-store.js';
import { parseRecordText } from '../../src/store/packed-records.js';
import { openTestStore } from './open-store.js';
import { tempDir } from './temp-dirs.js';

/** A small seeded generator (mulberry32): the same lines on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STRING_PIECES = [
  'a',
  'id',
  'é',
  '✓',
  '😀',
  '\\"',
  '\\\\',
  '\\/',
  '/',
  '\\b',
  '\\f',
  '\\n',
  '\\r',
  '\\t',
  '\\u0000',
  '\\u0007',
  '\\u0008',
  '\\u0009',
  '\\u000a',
  '\\u000b',
  '\\u000c',
  '\\u000d',
  '\\u001f',
  '\\u001F',
  '\\u0020',
  '\\u0041',
  '\\u2028',
  '\u2028',
  '\\ud800',
  '\\udc00',
  '\\ud83d\\ude00',
  '\\uD800',
  '\t',
  ',"id":',
  '{',
  ']',
  '\\',
  '\u00ff',
];
const NUMBERS = [
  '0',
  '-0',
  '7',
  '-12',
  '0.1',
  '-0.25',
  '12.5',
  '1.50',
  '1.0',
  '007',
  '0.000001',
  '0.0000001',
  '-0.0000001',
  '0.00000012345678901234567',
  '1e400',
  '1E5',
  '1e-7',
  '12345678901234567890',
  '9007199254740993',
  '4503599627370495.5',
  '100000000000000000000000.5',
  '.5',
  '1.',
];
const KEYS = ['id', 'a', 'b', 'name', '__proto__', 'constructor', 'prototype', '1', '01', '42', '\\u0069d', 'a\\u0008', 'a\\b', '😀', '\\ud83d\\ude00'];
const COLLECTIONS = ['determinations', 'tasks', 'notifications', 'apiKeys', 'topics', 'images', 'nope'];

function generator(seed: number) {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const space = () => (next() < 0.03 ? pick([' ', '\t', '\r']) : '');
  const string = () => `"${Array.from({ length: Math.floor(next() * 4) }, () => pick(STRING_PIECES)).join('')}"`;
  const value = (depth: number): string => {
    const kind = next();
    if (kind < 0.35) return string();
    if (kind < 0.65) return pick(NUMBERS);
    if (kind < 0.75) return pick(['true', 'false', 'null', 'tru']);
    if (depth > 2) return '1';
    if (kind < 0.87) return object(depth + 1, false);
    return `[${Array.from({ length: Math.floor(next() * 3) }, () => value(depth + 1)).join(`,${space()}`)}]`;
  };
  const object = (depth: number, record: boolean): string => {
    const members: string[] = [];
    if (record && next() < 0.9) members.push(`"id":${next() < 0.9 ? String(1 + Math.floor(next() * 5)) : pick(['0', '"3"', '1.5', '9007199254740993', '12'])}`);
    const count = Math.floor(next() * 5);
    for (let i = 0; i < count; i++) members.push(`"${next() < 0.5 ? pick(KEYS) : pick(['x', 'y', 'z', 'code'])}":${space()}${value(depth)}`);
    if (next() < 0.3) members.reverse();
    return `{${members.join(`,${space()}`)}}`;
  };
  const change = (): string => {
    const collection = next() < 0.97 ? pick(COLLECTIONS.slice(0, 6)) : 'nope';
    if (next() < 0.2) return `{"op":"delete","collection":"${collection}","id":${1 + Math.floor(next() * 5)}}`;
    const parts = [`"op":"put"`, `"collection":"${collection}"`, `"record":${object(0, true)}`];
    if (next() < 0.1) parts.reverse();
    if (next() < 0.02) parts.splice(1, 0, pick(['"op":"put"', '"seq":"collection":"tasks"', '"op":']));
    return `{${parts.join(',')}}`;
  };
  return (seq: number): string => {
    const parts = [`"seq":${seq}`, `"changes":[${Array.from({ length: next() < 0.8 ? 1 : Math.floor(next() * 4) }, change).join(',')}]`];
    if (next() < 0.3) parts.push(`"ids":{"${pick(COLLECTIONS)}":${1 + Math.floor(next() * 9)}}`);
    if (next() < 0.03) parts.push(pick(['"clear":true', '"clear":false', '"seq":"changes":[]', `"seq":${seq}`]));
    if (next() < 0.05) parts.reverse();
    const line = `{${parts.join(',')}}`;
    return next() < 0.02 ? `${line}\r` : line;
  };
}

/** The fast path's reading of a line, puts as their text; undefined when it leaves the line to the slow path. */
function fast(line: string): object | undefined {
  const bytes = Buffer.from(`x${line}\n`);
  const entry = scanJournalLine(bytes, bytes.toString('latin1'), 1, bytes.length - 1, 0);
  if (entry === undefined) return undefined;
  return {
    ...entry,
    changes: entry.changes?.map((c) =>
      c.op === 'put' ? { op: 'put', collection: c.collection, id: c.id, text: bytes.toString('utf8', c.from, c.from + c.length) } : c,
    ),
  };
}

/** The slow path's, puts written again by `jsonText`: what the fast path must give; an Error when it refuses the line. */
function slow(line: string): object | Error {
  let entry;
  try {
    entry = parseJournalEntry(line);
  } catch (error) {
    return error as Error;
  }
  return {
    ...entry,
    changes: entry.changes?.map((c) => (c.op === 'put' ? { op: 'put', collection: c.collection, id: c.record.id, text: jsonText(c.record) } : c)),
  };
}

describe('the journal fast path, against the parser', () => {
  it('reads no generated line otherwise than the parser, and keeps only jsonText’s text of a record', () => {
    const line = generator(21);
    let taken = 0;
    for (let seq = 1; seq <= 30_000; seq++) {
      const text = line(seq);
      const scanned = fast(text);
      if (scanned === undefined) continue;
      taken++;
      expect(scanned, text).toEqual(slow(text));
    }
    // The generator is hostile on purpose, yet many of its lines are of the fast form.
    expect(taken).toBeGreaterThan(1_000);
  });

  it('reads what jsonText writes, and still leaves to the parser the forms jsonText never writes', () => {
    const put = (record: string) => `{"seq":1,"changes":[{"op":"put","collection":"tasks","record":${record}}]}`;
    const canonical = [
      { id: 1, a: '\b\t\n\f\r\u000b\u0000\u001f', e: '😀', lone: '\ud800x\udc00', tiny: 0.000001, n: -0.5 },
      { id: 2, nested: { b: '\t', c: ['😀', { d: '\ud83d' }] } },
    ];
    for (const record of canonical) {
      const text = jsonText({ seq: 1, changes: [{ op: 'put', collection: 'tasks', record }] });
      expect(fast(text), text).toEqual(slow(text));
    }
    const others = [
      // escapes jsonText writes short, or not at all (a pair is the character itself)
      put('{"id":1,"a":"\\u0008"}'),
      put('{"id":1,"a":"\\u0009"}'),
      put('{"id":1,"a":"\\u000a"}'),
      put('{"id":1,"a":"\\u000c"}'),
      put('{"id":1,"a":"\\u000d"}'),
      put('{"id":1,"a":"\\ud83d\\ude00"}'),
      put('{"id":1,"a":{"b":"\\u0009"}}'),
      put('{"id":1,"a":["\\ud83d\\ude00"]}'),
      // a number jsonText writes with an exponent
      put('{"id":1,"a":0.0000001}'),
      put('{"id":1,"a":[-0.0000001]}'),
      // keys a parser reorders (integer indexes come first) or drops (all but the last of equal keys)
      put('{"id":1,"b":1,"2":3}'),
      put('{"id":1,"a":{"b":1,"0":3}}'),
      put('{"id":1,"a":1,"a":2}'),
      put('{"id":1,"a":[1],"a":2}'),
      put('{"id":1,"a":{"x":1,"x":2}}'),
      // not JSON: a key repeated without its value
      '{"seq":1,"seq":"changes":[{"op":"delete","collection":"tasks","id":3}]}',
      '{"seq":1,"changes":[{"op":"put","op":"collection":"tasks","record":{"id":3,"a":[1]}}]}',
      '{"seq":1,"changes":[{"op":"delete","collection":"tasks","id":3,"id":"collection":"tasks"}]}',
    ];
    for (const text of others) expect(fast(text), text).toBeUndefined();
    // Two keys of bytes that are not UTF-8: both read as U+FFFD, so they are equal keys.
    const bytes = Buffer.concat([
      Buffer.from('{"seq":1,"changes":[{"op":"put","collection":"tasks","record":{"id":1,"'),
      Buffer.from([0xff]),
      Buffer.from('":1,"'),
      Buffer.from([0xfe]),
      Buffer.from('":2}}]}'),
    ]);
    expect(scanJournalLine(bytes, bytes.toString('latin1'), 0, bytes.length, 0)).toBeUndefined();
  });
});

/** A data folder whose journal holds these lines. */
async function journalOf(lines: readonly string[]): Promise<string> {
  const dir = await tempDir();
  await writeFile(join(dir, 'journal.ndjson'), `${lines.join('\n')}\n`);
  return dir;
}

describe('a store whose journal holds lines written by hand', () => {
  it('refuses a line that is not JSON in the middle of the journal, as the parser does', async () => {
    const dir = await journalOf([
      '{"seq":1,"changes":[{"op":"put","collection":"tasks","record":{"id":3,"n":"kept"}}]}',
      '{"seq":2,"seq":"changes":[{"op":"delete","collection":"tasks","id":3}]}',
      '{"seq":3,"changes":[{"op":"put","collection":"tasks","record":{"id":4,"n":"after"}}]}',
    ]);
    await expect(openTestStore(dir)).rejects.toThrow(/journal\.ndjson line 2/);
  });

  it('finds a record by a string field however the line escaped it, and serves jsonText’s text of it', async () => {
    const dir = await journalOf([
      '{"seq":1,"changes":[{"op":"put","collection":"tasks","record":{"id":1,"code":"a\\u0009b"}}]}',
      '{"seq":2,"changes":[{"op":"put","collection":"tasks","record":{"id":2,"code":"\\ud83d\\ude00"}}]}',
      '{"seq":3,"changes":[{"op":"put","collection":"tasks","record":{"id":3,"code":"x","code":"y"}}]}',
    ]);
    const store = await openJsonStore({ dir, warn: () => {} });
    try {
      expect(await store.find('tasks', { where: [{ field: 'code', equals: 'a\tb' }] })).toEqual([{ id: 1, code: 'a\tb' }]);
      expect(await store.find('tasks', { where: [{ field: 'code', equals: '😀' }] })).toEqual([{ id: 2, code: '😀' }]);
      expect(await store.find('tasks', { where: [{ field: 'code', anyOf: ['y'] }] })).toEqual([{ id: 3, code: 'y' }]);
      const page = await store.page('tasks', { offset: 0, limit: 10 });
      expect(page.items.map((record) => jsonText(record))).toEqual([
        jsonText({ id: 1, code: 'a\tb' }),
        jsonText({ id: 2, code: '😀' }),
        jsonText({ id: 3, code: 'y' }),
      ]);
    } finally {
      await store.close();
    }
  });

  it('keeps a parsed record’s text for one kept from the journal (parseRecordText of jsonText)', () => {
    expect(jsonText(parseRecordText('{"id":1,"code":"a\\tb"}'))).toBe('{"id":1,"code":"a\\tb"}');
  });
});
