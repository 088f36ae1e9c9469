/**
 * A journal line as `frameEntry` writes it must be read by replay's frame reader as
 * the parser reads the same line, each put's record found at the bytes `jsonText`
 * wrote for it (that text goes into pages and snapshots as it is), and any change to
 * one of its bytes must be caught: by the checksum, or as a line cut short.
 */
import { describe, expect, it } from 'vitest';
import { jsonText } from '../../src/json/json-text.js';
import { parseJson } from '../../src/json/json-parse.js';
import { parseJournalEntry } from '../../src/store/journal-entry.js';
import type { JournalEntry } from '../../src/store/journal-entry.js';
import { frameEntry, lineKind, readFramedLine } from '../../src/store/journal-frame.js';
import type { Change } from '../../src/store/index.js';

const record = (text: string) => parseJson(text) as Extract<Change, { op: 'put' }>['record'];

const ENTRIES: JournalEntry[] = [
  { seq: 1, changes: [{ op: 'put', collection: 'determinations', record: record('{"id":1,"name":"bravo","amount":12.5}') }] },
  {
    seq: 2,
    ids: { determinations: 12 },
    changes: [
      { op: 'put', collection: 'determinations', record: record('{"id":2,"note":"Reclassé \\"Q3\\"\\ttab ✓ 😀 \\u0000","nested":{"a":[1,{"b":null}]}}') },
      { op: 'put', collection: 'tasks', record: record('{"id":3,"__proto__":{"x":1},"big":123456789012345678901234567890,"exact":0.1000000000000000055511}') },
      { op: 'delete', collection: 'determinations', id: 1 },
    ],
  },
  { seq: 3, clear: true, changes: [{ op: 'put', collection: 'apiKeys', record: record('{"id":1,"hash":"ab"}') }] },
  { seq: 4, clear: true },
  { seq: 5, ids: { tasks: 7 } },
];

/** What replay keeps of an entry: puts as their record's text, deletes as they are. */
function readBack(line: string) {
  const bytes = Buffer.from(line);
  const framed = readFramedLine(bytes, 0, bytes.length, 0);
  if (framed === undefined) return undefined;
  return {
    ...framed.entry,
    changes: framed.entry.changes?.map((change) =>
      change.op === 'put' ? { collection: change.collection, id: change.id, text: bytes.toString('utf8', change.from, change.from + change.length) } : change,
    ),
  };
}

describe('a framed journal line', () => {
  it('is read by the frame reader as the parser reads it, each record at the bytes jsonText wrote', () => {
    for (const entry of ENTRIES) {
      const line = frameEntry(entry);
      expect(lineKind(Buffer.from(line), 0, Buffer.byteLength(line))).toBe('framed');
      const parsed = parseJournalEntry(line);
      expect(parsed.seq).toBe(entry.seq);
      const read = readBack(line);
      expect(read, line).toBeDefined();
      expect(read?.seq).toBe(entry.seq);
      expect(read?.clear).toBe(entry.clear);
      expect(read?.ids).toEqual(parsed.ids);
      expect(read?.changes).toEqual(
        parsed.changes?.map((change) =>
          change.op === 'put' ? { collection: change.collection, id: change.record.id, text: jsonText(change.record) } : change,
        ),
      );
    }
  });

  it('with an id past 2^53 is left to the parser, its checksum still checked', () => {
    const line = frameEntry({ seq: 9, changes: [{ op: 'put', collection: 'tasks', record: record('{"id":90071992547409930}') }] });
    const bytes = Buffer.from(line);
    expect(readFramedLine(bytes, 0, bytes.length, 0)).toBeUndefined();
    expect(lineKind(bytes, 0, bytes.length)).toBe('framed');
    expect(parseJournalEntry(line).changes?.[0]).toMatchObject({ op: 'put', record: { id: 90071992547409930n } });
  });

  it('changed in any one byte, is never read as written', () => {
    const line = Buffer.from(frameEntry(ENTRIES[1] as JournalEntry));
    for (let at = 0; at < line.length; at++) {
      const changed = Buffer.from(line);
      changed[at] = changed[at] === 0x30 ? 0x31 : 0x30;
      expect(readFramedLine(changed, 0, changed.length, 0), `byte ${at}`).toBeUndefined();
      expect(lineKind(changed, 0, changed.length), `byte ${at}`).not.toBe('framed');
    }
  });

  it('cut short anywhere, is never read as written', () => {
    const line = Buffer.from(frameEntry(ENTRIES[1] as JournalEntry));
    for (let end = 0; end < line.length; end++) {
      expect(readFramedLine(line.subarray(0, end), 0, end, 0), `cut at ${end}`).toBeUndefined();
      expect(lineKind(line, 0, end), `cut at ${end}`).not.toBe('framed');
    }
  });
});
