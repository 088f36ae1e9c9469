import { appendFile, copyFile, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StoreCorruptError } from '../../src/store/index.js';
import type { FileTables as Store } from '../../src/store/index.js';
import { collectWarnings } from './collect-warnings.js';
import { closeTestStore, openTestStore } from './open-store.js';
import { tempDir } from './temp-dirs.js';

/** A folder whose journal holds `count` single-record entries (and no snapshot). */
async function journalOnly(count: number): Promise<string> {
  const dir = await tempDir();
  const store = await openTestStore(dir, { compactAfterEntries: 1_000_000 });
  for (let i = 1; i <= count; i++) await store.commit([{ op: 'put', collection: 'tasks', record: { id: i, n: i } }]);
  // Closing compacts the journal away, so keep a copy of it as a crash would leave it.
  const journal = await readFile(join(dir, 'journal.ndjson'), 'utf8');
  await closeTestStore(store);
  const copy = await tempDir();
  await writeFile(join(copy, 'journal.ndjson'), journal);
  return copy;
}

const journalLines = async (dir: string) => (await readFile(join(dir, 'journal.ndjson'), 'utf8')).split('\n');

describe('recovery at start-up', () => {
  it('replays the journal without a snapshot', async () => {
    const dir = await journalOnly(5);
    const store = await openTestStore(dir);
    expect(store.count('tasks')).toBe(5);
    expect(store.allocateId('tasks')).toBe(6);
  });

  it('drops a torn last line with a warning, and appends cleanly after it', async () => {
    const dir = await journalOnly(3);
    await appendFile(join(dir, 'journal.ndjson'), '{"seq":4,"changes":[{"op":"put","collection":"tasks","rec');
    const { warnings, warn } = collectWarnings();
    const store = await openTestStore(dir, { warn, compactAfterEntries: 1_000_000 });
    expect(warnings.join('\n')).toMatch(/torn last entry .*line 4/);
    expect(store.count('tasks')).toBe(3);
    await store.commit([{ op: 'put', collection: 'tasks', record: { id: 4, n: 'after' } }]);
    const lines = await journalLines(dir);
    expect(lines).toHaveLength(5);
    expect(JSON.parse(lines[3] ?? '')).toMatchObject({ seq: 4, changes: [{ record: { n: 'after' } }] });
    await closeTestStore(store);
    expect((await openTestStore(dir)).get('tasks', 4)).toEqual({ id: 4, n: 'after' });
  });

  it('keeps a whole last entry that lacks only its newline', async () => {
    const dir = await journalOnly(2);
    const path = join(dir, 'journal.ndjson');
    await writeFile(path, (await readFile(path, 'utf8')).trimEnd());
    const store = await openTestStore(dir, { compactAfterEntries: 1_000_000 });
    expect(store.count('tasks')).toBe(2);
    await store.commit([{ op: 'put', collection: 'tasks', record: { id: 3 } }]);
    expect((await journalLines(dir)).filter(Boolean).map((line) => JSON.parse(line).seq)).toEqual([1, 2, 3]);
  });

  it('refuses a corrupt line in the middle, naming the line', async () => {
    const dir = await journalOnly(4);
    const lines = await journalLines(dir);
    lines[1] = '{"seq":2,"changes":[{"op":"put"';
    await writeFile(join(dir, 'journal.ndjson'), lines.join('\n'));
    const opening = openTestStore(dir);
    await expect(opening).rejects.toBeInstanceOf(StoreCorruptError);
    await expect(opening).rejects.toThrow(/journal\.ndjson line 2/);
    // The refusal released the lock: once repaired, the folder opens.
    lines[1] = '{"seq":2,"changes":[]}';
    await writeFile(join(dir, 'journal.ndjson'), lines.join('\n'));
    expect((await openTestStore(dir)).count('tasks')).toBe(3);
  });

  it('refuses a gap in the sequence', async () => {
    const dir = await journalOnly(4);
    const lines = await journalLines(dir);
    lines.splice(1, 1);
    await writeFile(join(dir, 'journal.ndjson'), lines.join('\n'));
    await expect(openTestStore(dir)).rejects.toThrow(/line 2: entry 3 follows entry 1/);
  });

  it('removes a leftover temporary snapshot and journal with a warning', async () => {
    const dir = await journalOnly(2);
    await writeFile(join(dir, 'snapshot.pla.tmp'), '{"format":"pla-store/2","seq":2,"nextIds":{},"coun');
    // One an earlier pla's compaction left.
    await writeFile(join(dir, 'snapshot.json.tmp'), '{"format":"pla-store/1","seq":2,"nextIds":{},"coll');
    await writeFile(join(dir, 'journal.ndjson.tmp'), '');
    const { warnings, warn } = collectWarnings();
    const store = await openTestStore(dir, { warn });
    expect(store.count('tasks')).toBe(2);
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/snapshot\.pla\.tmp.*interrupted compaction/);
    expect(warnings[1]).toMatch(/snapshot\.json\.tmp.*interrupted compaction/);
  });

  it('skips journal entries the snapshot already holds (a crash between snapshot and journal swap)', async () => {
    const dir = await tempDir();
    let store: Store = await openTestStore(dir, { compactAfterEntries: 1_000_000 });
    await store.commit([{ op: 'put', collection: 'tasks', record: { id: 1, v: 'old' } }]);
    await store.commit([{ op: 'put', collection: 'tasks', record: { id: 1, v: 'new' } }]);
    const fullJournal = await readFile(join(dir, 'journal.ndjson'), 'utf8');
    await closeTestStore(store); // compacts: snapshot at seq 2, journal emptied
    // The crash: the snapshot is renamed but the journal still holds everything, plus a later entry.
    const later = '{"seq":3,"changes":[{"op":"put","collection":"tasks","record":{"id":2,"v":"later"}}]}\n';
    await writeFile(join(dir, 'journal.ndjson'), fullJournal + later);
    store = await openTestStore(dir);
    expect(store.get('tasks', 1)).toEqual({ id: 1, v: 'new' });
    expect(store.get('tasks', 2)).toEqual({ id: 2, v: 'later' });
    // An old entry that disagrees with the snapshot shows it is skipped, not replayed over it.
    await closeTestStore(store);
    await writeFile(join(dir, 'journal.ndjson'), '{"seq":1,"changes":[{"op":"delete","collection":"tasks","id":2}]}\n');
    expect((await openTestStore(dir)).get('tasks', 2)).toEqual({ id: 2, v: 'later' });
  });

  it('refuses a damaged snapshot: its checksum does not match', async () => {
    const dir = await journalOnly(3);
    await closeTestStore(await openTestStore(dir));
    const path = join(dir, 'snapshot.pla');
    const text = await readFile(path, 'utf8');
    // One digit of one record changed: still a well-formed line, so only the checksum can tell.
    await writeFile(path, text.replace('2\t{"id":2,"n":2}', '2\t{"id":2,"n":7}'));
    await expect(openTestStore(dir)).rejects.toThrow(/snapshot\.pla: damaged: its checksum does not match/);
    await writeFile(path, text.slice(0, text.lastIndexOf('#end')));
    await expect(openTestStore(dir)).rejects.toThrow(/snapshot\.pla: truncated/);
    await writeFile(path, text);
    expect((await openTestStore(dir)).get('tasks', 2)).toEqual({ id: 2, n: 2 });
  });

  it('compacts in the background past the threshold while commits go on', async () => {
    const dir = await tempDir();
    const store = await openTestStore(dir, { compactAfterEntries: 20 });
    const commits = Array.from({ length: 200 }, (_, i) => store.commit([{ op: 'put', collection: 'tasks', record: { id: i + 1 } }]));
    await Promise.all(commits);
    for (let round = 0; round < 3; round++) {
      // Later commits after the first compaction started, so the journal swap has entries to carry.
      await Promise.all(Array.from({ length: 50 }, (_, i) => store.commit([{ op: 'put', collection: 'tasks', record: { id: 201 + round * 50 + i } }])));
    }
    // A compaction ends by swapping in a shorter journal (after renaming its snapshot into place).
    await expect.poll(async () => (await journalLines(dir)).filter(Boolean).length).toBeLessThan(350);
    expect((await stat(join(dir, 'snapshot.pla'))).size).toBeGreaterThan(0);
    // The files as they are now, with the store still open, as a crash would leave them. The
    // journal is copied first: a compaction renames the snapshot before the journal, so this
    // order never pairs an old snapshot with a newer, shorter journal.
    const crashed = await tempDir();
    for (const file of ['journal.ndjson', 'snapshot.pla']) await copyFile(join(dir, file), join(crashed, file));
    const recovered = await openTestStore(crashed);
    expect(recovered.count('tasks')).toBe(350);
  });

  it('writes a snapshot of one record per line after its id, with a header and a checksum', async () => {
    const dir = await journalOnly(3);
    const store = await openTestStore(dir);
    await store.commit([{ op: 'put', collection: 'topics', record: { id: 7, service: 'lease', note: 'tab\there, newline\nthere' } }]);
    await closeTestStore(store);
    const lines = (await readFile(join(dir, 'snapshot.pla'), 'utf8')).split('\n');
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      format: 'pla-store/2',
      seq: 4,
      nextIds: { tasks: 4, topics: 8 },
      counts: { tasks: 3, topics: 1, images: 0 },
    });
    const at = lines.indexOf('@tasks');
    expect(lines.slice(at + 1, at + 4)).toEqual(['1\t{"id":1,"n":1}', '2\t{"id":2,"n":2}', '3\t{"id":3,"n":3}']);
    const topic = lines[lines.indexOf('@topics') + 1] as string;
    expect(JSON.parse(topic.slice(topic.indexOf('\t') + 1))).toEqual({ id: 7, service: 'lease', note: 'tab\there, newline\nthere' });
    expect(lines.at(-2)).toMatch(/^#end [0-9a-f]{8}$/);
    expect(await readFile(join(dir, 'journal.ndjson'), 'utf8')).toBe('');
    // And it reads back: the records, their counters, and what was journaled after it.
    const reopened = await openTestStore(dir);
    expect([...reopened.all('tasks')]).toEqual([
      { id: 1, n: 1 },
      { id: 2, n: 2 },
      { id: 3, n: 3 },
    ]);
    expect(reopened.findBy('topics', 'service', 'lease')).toEqual([{ id: 7, service: 'lease', note: 'tab\there, newline\nthere' }]);
    expect(reopened.allocateId('topics')).toBe(8);
  });
});
