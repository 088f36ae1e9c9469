/**
 * Journal replay's fast path (journal-scan.ts) keeps records as their text: it must
 * accept only lines the slow path (parseJournalEntry) reads the same way, each kept
 * text exactly what writing the parsed record gives, and leave everything else to the
 * slow path. Then a store replayed from such a journal answers as one that parsed it.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonText } from '../../src/json/json-text.js';
import { parseJournalEntry } from '../../src/store/journal-entry.js';
import { scanJournalLine } from '../../src/store/journal-scan.js';
import { parseRecordText } from '../../src/store/packed-records.js';
import type { Change, StoredRecord } from '../../src/store/index.js';
import { openTestStore } from './open-store.js';
import { tempDir } from './temp-dirs.js';

/** What the fast path reads of a line, with each put's record as its text (from the bytes the scanner points at). */
const scan = (line: string) => {
  const bytes = Buffer.from(`x${line}\n`);
  const entry = scanJournalLine(bytes, bytes.toString('latin1'), 1, bytes.length - 1, 100);
  if (entry?.changes === undefined) return entry;
  return {
    ...entry,
    changes: entry.changes.map((change) => {
      if (change.op === 'delete') return change;
      expect(change.position).toBe(100 + change.from);
      return { op: 'put', collection: change.collection, id: change.id, text: bytes.toString('utf8', change.from, change.from + change.length) };
    }),
  };
};

/** What the slow path reads, with puts as their text written again: what the fast path must give when it reads a line. */
function slowly(line: string): object {
  const entry = parseJournalEntry(line);
  if (entry.changes === undefined) return entry;
  return {
    ...entry,
    changes: entry.changes.map((change) =>
      change.op === 'put' ? { op: 'put', collection: change.collection, id: change.record.id, text: jsonText(change.record) } : change,
    ),
  };
}

const RECORDS: StoredRecord[] = [
  { id: 1 },
  { id: 2, name: 'plain', amount: 12.5, negative: -0.25, zero: 0, big: 1e20, yes: true, no: false, none: null },
  { id: 3, text: 'quote " backslash \\ slash / tab \t newline \n nul \u0000 esc \u001b del \u007f', unicode: 'é ✓ 😀 \u2028', lone: '\ud800x' },
  { id: 4, nested: { a: [1, [2, { b: [] }], {}], 'key with "quote"': { '': '' } }, list: [] },
  { id: 5, ...(JSON.parse('{"__proto__":{"polluted":true}}') as object) },
  { name: 'id last', id: 900_000_000_000_001 },
  { id: 6, exact: 12345678901234567890n, small: 1e-7, huge: 1e21 },
  { id: 7, brackets: '["x"]{"id":1}', 'a"b': 'ends in a backslash \\', ',"id":': 'a key that looks like one' },
];

describe('the journal fast path', () => {
  it("reads the lines this store writes as the slow path does, each record's text exactly as written", () => {
    const lines = [
      ...RECORDS.map((record, i) => jsonText({ seq: i + 1, changes: [{ op: 'put', collection: 'determinations', record }], ids: { determinations: 7 } })),
      jsonText({ seq: 9, clear: true, changes: [{ op: 'put', collection: 'apiKeys', record: { id: 1, hash: 'x' } }] }),
      jsonText({ seq: 10, clear: true }),
      jsonText({ seq: 11, changes: [] }),
      jsonText({
        seq: 12,
        changes: [
          { op: 'delete', collection: 'tasks', id: 4 },
          { op: 'put', collection: 'tasks', record: { id: 4, status: 'DONE' } },
          { collection: 'tasks', record: { id: 5 }, op: 'put' },
        ],
      }),
    ];
    for (const line of lines) {
      const scanned = scan(line);
      if (line.includes('12345678901234567890') || line.includes('1e-7')) {
        expect(scanned, line).toBeUndefined();
        continue;
      }
      expect(scanned, line).toEqual(slowly(line));
      for (const change of scanned?.changes ?? []) {
        if ('text' in change) expect(jsonText(parseRecordText(change.text as string))).toBe(change.text);
      }
    }
  });

  it('leaves everything else to the slow path', () => {
    const put = (record: string, rest = '') => `{"seq":1,"changes":[{"op":"put","collection":"tasks","record":${record}}]${rest}}`;
    const others = [
      // not what jsonText writes: whitespace, escapes it does not use, exponents, trailing zeros, -0
      '{ "seq":1,"changes":[]}',
      put('{"id":1, "a":2}'),
      put('{"id":1,"a":"\\/"}'),
      put('{"id":1,"a":"\\u0041"}'),
      put('{"id":1,"a":"\\U0001"}'),
      put('{"id":1,"a":"\\u001B"}'),
      put('{"id":1,"a":1E5}'),
      put('{"id":1,"a":1e5}'),
      put('{"id":1,"a":1.50}'),
      put('{"id":1,"a":-0}'),
      put('{"id":1,"a":01}'),
      put('{"id":1,"a":.5}'),
      put('{"id":1,"a":1.}'),
      // not JSON at all
      put('{"id":1,"a":"tab\there"}'),
      put('{"id":1,"a":tru}'),
      put('{"id":1,"a":[1,]}'),
      put('{"id":1,"a":{"b"}}'),
      put('{"id":1,}'),
      put('{"id":1'),
      '{"seq":1,"changes":[{"op":"put","collection":"tasks","rec',
      '',
      '   ',
      // records the slow path refuses or reads differently: no id, a bad id, a repeated id, a long one
      put('{}'),
      put('{"a":1}'),
      put('{"id":0}'),
      put('{"id":"1"}'),
      put('{"id":1.5}'),
      put('{"id":1,"id":2}'),
      put('{"id":9007199254740993}'),
      put('{"\\"id":5,"x":1}'),
      put('{"a":"x,\\"id\\":5"}'),
      put('{"x":1,"id":2,"id":3}'),
      put('[]'),
      // entries the slow path refuses or reads differently
      '{"changes":[]}',
      '{"seq":0,"changes":[]}',
      '{"seq":1,"seq":2,"changes":[]}',
      '{"seq":1,"other":2}',
      '{"seq":1,"clear":false}',
      '{"seq":1,"ids":{"nope":3}}',
      '{"seq":1,"ids":{"tasks":12345678901234567890}}',
      '{"seq":1,"changes":[{"op":"put","collection":"nope","record":{"id":1}}]}',
      '{"seq":1,"changes":[{"op":"move","collection":"tasks","record":{"id":1}}]}',
      '{"seq":1,"changes":[{"op":"delete","collection":"tasks"}]}',
      '{"seq":1,"changes":[{"op":"delete","collection":"tasks","id":1,"record":{"id":1}}]}',
      '{"seq":1,"changes":[{"op":"put","collection":"tasks","record":{"id":1}}]}trailing',
      '{"seq":1,"changes":[{"op":"put","collection":"ta\\u0073ks","record":{"id":1}}]}',
    ];
    for (const line of others) expect(scan(line), line).toBeUndefined();
  });

  it('reads a line within its own bounds, whatever the lines after it hold', () => {
    const next = jsonText({ seq: 2, changes: [{ op: 'put', collection: 'tasks', record: { x: 1, id: 9 } }] });
    for (const record of ['{"a":1}', '{"a":1,"b":"x"}']) {
      const line = `{"seq":1,"changes":[{"op":"put","collection":"tasks","record":${record}}]}`;
      const text = `${line}\n${next}\n`;
      expect(scanJournalLine(Buffer.from(text), text, 0, line.length, 0), record).toBeUndefined();
    }
  });

  it('reads a journal in time linear in its length (each line read within its own bounds)', async () => {
    const dir = await tempDir();
    const lines = Array.from({ length: 40_000 }, (_, i) =>
      jsonText({ seq: i + 1, changes: [{ op: 'put', collection: 'tasks', record: { id: i + 1, n: i } }] }),
    );
    await writeFile(join(dir, 'journal.ndjson'), `${lines.join('\n')}\n`);
    const started = performance.now();
    const store = await openTestStore(dir);
    // About a second even on a busy machine; a search running on to the end of each megabyte read took minutes.
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(store.get('tasks', 40_000)).toEqual({ id: 40_000, n: 39_999 });
  });

  it('never reads a cut line: each of its prefixes goes to the slow path (a torn tail)', () => {
    const line = jsonText({ seq: 3, changes: [{ op: 'put', collection: 'tasks', record: RECORDS[3] }], ids: { tasks: 9 } });
    expect(scan(line)).toBeDefined();
    for (let cut = 0; cut < line.length; cut++) expect(scan(line.slice(0, cut)), line.slice(0, cut)).toBeUndefined();
  });

  it('gives a store that answers as one whose journal was parsed, lines of both paths mixed', async () => {
    const dir = await tempDir();
    const records = RECORDS.map((record, i) => ({ ...record, id: i + 1 }));
    const lines = records.map((record, i) => jsonText({ seq: i + 1, changes: [{ op: 'put', collection: 'determinations', record } as Change] }));
    // Written by hand, in forms the fast path leaves to the slow one.
    lines.push(`{ "seq": ${lines.length + 1}, "changes": [{"op":"put","collection":"determinations","record":{"id": 2, "v": 1.50}}] }`);
    lines.push(jsonText({ seq: lines.length + 1, changes: [{ op: 'delete', collection: 'determinations', id: 3 }] }));
    lines.push(jsonText({ seq: lines.length + 1, changes: [{ op: 'put', collection: 'notifications', record: { id: 1, forUserId: 'u1' } }] }));
    await writeFile(join(dir, 'journal.ndjson'), `${lines.join('\n')}\n`);
    const store = await openTestStore(dir, { indexes: { notifications: ['forUserId'] } });
    const expected = records.filter((record) => record.id !== 3).map((record) => (record.id === 2 ? { id: 2, v: 1.5 } : parseRecordText(jsonText(record))));
    expect([...store.all('determinations')]).toEqual(expected);
    expect(store.get('determinations', 5)).toEqual(expected[3]);
    expect(Object.hasOwn(store.get('determinations', 5) as object, '__proto__')).toBe(true);
    expect(store.page('determinations', { offset: 1, limit: 3, sort: [{ field: 'id', direction: 'desc' }] }).items.map((r) => r.id)).toEqual([7, 6, 5]);
    expect(store.findBy('notifications', 'forUserId', 'u1')).toEqual([{ id: 1, forUserId: 'u1' }]);
    expect(store.allocateId('determinations')).toBe(9);
  });
});
