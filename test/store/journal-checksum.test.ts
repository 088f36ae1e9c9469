/**
 * Every journal entry carries a checksum of its line (journal-frame.ts). Damage inside
 * an entry that still reads as JSON (a letter of a value, a digit of a number) must
 * stop the real server at start, naming the file, the line and what to do, and leave
 * the folder as it was; `--drop-journal-from` starts from the entries before it, the
 * rest kept aside. A torn last entry is still dropped, and a journal of a pla before
 * checksums (test/store/fixtures/journal-before-checksums.ndjson, written by that
 * pla's server through the API) is upgraded on the first start.
 */
import { copyFile, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnServer, startLocalServer, type LocalServer } from '../support/local-server.js';
import { collectWarnings } from './collect-warnings.js';
import type { Change } from '../../src/store/index.js';
import { closeTestStore, openTestStore } from './open-store.js';
import { tempDir } from './temp-dirs.js';

const DET = '/api/v1/asset-transaction-type-determinations';
const FIXTURE = join(import.meta.dirname, 'fixtures', 'journal-before-checksums.ndjson');

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.stop('SIGKILL');
  server = undefined;
});

/** Every file of a folder and its bytes, to show a refused start changed nothing. */
async function folderBytes(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isFile() && entry.name !== 'lock-owner.json') files.set(entry.name, (await readFile(join(dir, entry.name))).toString('base64'));
  }
  return files;
}

/** A data folder of the real server holding two determinations, the server killed (the entries left in the journal). */
async function folderWithEntries(): Promise<{ dataDir: string; configDir: string; journal: string }> {
  const dataDir = await tempDir('pla-checksum-');
  const configDir = await tempDir('pla-config-');
  server = await startLocalServer({ dataDir, configDir, seed: false });
  for (const body of [
    { name: 'bravo', transactionType: 'LEASE', amount: 12.5 },
    { name: 'charlie', transactionType: 'SALE', amount: 7 },
  ]) {
    expect((await server.http('POST', DET, { body })).status).toBe(200);
  }
  await server.stop('SIGKILL');
  server = undefined;
  return { dataDir, configDir, journal: join(dataDir, 'journal.ndjson') };
}

/** Starts the built server on `dataDir` and expects it to refuse; its stderr. */
async function refusedStart(dataDir: string, configDir: string, args: string[] = []): Promise<string> {
  const error = await spawnServer(['--env-name', 'local', '--data', dataDir, '--no-seed', ...args], configDir).then(
    ({ child }) => {
      child.kill('SIGKILL');
      return undefined;
    },
    (failure: Error) => failure,
  );
  expect(error, 'the server started on a damaged journal').toBeDefined();
  return error?.message ?? '';
}

describe('a journal entry changed after it was written', () => {
  for (const [what, from, to] of [
    ['one letter of a value', '"name":"bravo"', '"name":"bravx"'],
    ['one digit of a number', '"amount":12.5', '"amount":13.5'],
  ] as const) {
    it(`is refused at start (${what}), naming the file, line and the way on, and the folder is left as found`, async () => {
      const { dataDir, configDir, journal } = await folderWithEntries();
      const text = await readFile(journal, 'utf8');
      expect(text).toContain(from);
      const line = text.split('\n').findIndex((l) => l.includes(from)) + 1;
      // Still valid JSON: only the checksum tells.
      const damaged = text.replace(from, to);
      JSON.parse(damaged.split('\n')[line - 1] as string);
      await writeFile(journal, damaged);
      const before = await folderBytes(dataDir);

      const stderr = await refusedStart(dataDir, configDir);
      expect(stderr).toContain(`${journal} line ${line}: the entry at byte`);
      expect(stderr).toMatch(/does not match its checksum/);
      expect(stderr).toContain(`--drop-journal-from ${line}`);
      expect(await folderBytes(dataDir)).toEqual(before);
      expect(await readFile(journal, 'utf8')).toBe(damaged);
    }, 60_000);
  }

  it('with --drop-journal-from that line, starts from the entries before it and keeps the rest in a file beside the journal', async () => {
    const { dataDir, configDir, journal } = await folderWithEntries();
    const text = await readFile(journal, 'utf8');
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes('"name":"bravo"')) + 1;
    await writeFile(journal, text.replace('"name":"bravo"', '"name":"bravx"'));
    const damagedTail = lines
      .slice(line - 1)
      .join('\n')
      .replace('"name":"bravo"', '"name":"bravx"');

    // Another line than the damaged one drops nothing, and the start is still refused.
    expect(await refusedStart(dataDir, configDir, ['--drop-journal-from', String(line + 1)])).toMatch(/does not match its checksum/);

    server = await startLocalServer({ dataDir, configDir, seed: false, args: ['--drop-journal-from', String(line)] });
    expect(server.stderr()).toMatch(new RegExp(`started from the journal's first ${line - 1} lines, as --drop-journal-from ${line} asked`));
    const list = await server.http('GET', DET);
    expect((list.body as { content: unknown[] }).content).toEqual([]);
    const kept = (await readdir(dataDir)).filter((name) => name.startsWith('journal-dropped-'));
    expect(kept).toHaveLength(1);
    expect(await readFile(join(dataDir, kept[0] as string), 'utf8')).toBe(damagedTail);
    // The journal takes writes again, and they survive a kill -9.
    expect((await server.http('POST', DET, { body: { name: 'delta', transactionType: 'LEASE' } })).status).toBe(200);
    await server.restart('SIGKILL');
    const again = await server.http('GET', DET);
    expect((again.body as { content: { name: string }[] }).content.map((r) => r.name)).toEqual(['delta']);
  }, 60_000);
});

/** The journal of a store with these commits, read while it is open (a clean close would compact it). */
async function journalOf(commits: Change[][]): Promise<string> {
  const dir = await tempDir();
  const store = await openTestStore(dir);
  for (const changes of commits) await store.commit(changes);
  return readFile(join(dir, 'journal.ndjson'), 'utf8');
}

describe('the end of the journal', () => {
  it('drops a framed last entry cut short (a torn append), keeps the others, and appends cleanly after it', async () => {
    const text = await journalOf([
      [{ op: 'put', collection: 'tasks', record: { id: 1, name: 'kept' } }],
      [{ op: 'put', collection: 'tasks', record: { id: 2, name: 'torn' } }],
    ]);
    const dir = await tempDir();
    await writeFile(join(dir, 'journal.ndjson'), text.slice(0, text.length - 20));
    const { warnings, warn } = collectWarnings();
    const store = await openTestStore(dir, { warn });
    expect(warnings.join('\n')).toMatch(/dropped a torn last entry at .*journal\.ndjson line 2 \(cut short\)/);
    expect(store.get('tasks', 1)).toEqual({ id: 1, name: 'kept' });
    expect(store.get('tasks', 2)).toBeUndefined();
    await store.commit([{ op: 'put', collection: 'tasks', record: { id: 3, name: 'after' } }]);
    await closeTestStore(store);
    const reopened = await openTestStore(dir);
    expect([...reopened.all('tasks')]).toEqual([
      { id: 1, name: 'kept' },
      { id: 3, name: 'after' },
    ]);
  });

  it('refuses a whole last entry whose checksum does not match: it was written whole, so it was changed', async () => {
    const text = await journalOf([
      [{ op: 'put', collection: 'tasks', record: { id: 1, name: 'kept' } }],
      [{ op: 'put', collection: 'tasks', record: { id: 2, amount: 10 } }],
    ]);
    const dir = await tempDir();
    await writeFile(join(dir, 'journal.ndjson'), text.replace('"amount":10', '"amount":19'));
    await expect(openTestStore(dir)).rejects.toThrow(/journal\.ndjson line 2: the entry at byte \d+ does not match its checksum/);
  });
});

describe('a data folder of a pla before checksums', () => {
  it('is upgraded on the first start: its records served as they were, its journal checksummed from then on', async () => {
    const dataDir = await tempDir('pla-unframed-');
    await copyFile(FIXTURE, join(dataDir, 'journal.ndjson'));
    const old = (await readFile(FIXTURE, 'utf8')).trim().split('\n');
    expect(old.every((line) => line.startsWith('{"seq":'))).toBe(true);
    server = await startLocalServer({ dataDir, seed: false });
    expect(server.stderr()).toMatch(/upgraded .*journal\.ndjson to checksummed entries/);

    const expected = [
      expect.objectContaining({ id: 1, name: 'bravo', amount: 12.5, note: 'Reclassé "Q3"\ttab ✓', status: 'ACTIVE' }),
      expect.objectContaining({ id: 2, name: 'charlie (renamed)', inUse: false, status: 'ACTIVE' }),
    ];
    const list = await server.http('GET', `${DET}?size=10`);
    expect((list.body as { content: unknown[] }).content).toEqual(expected);
    const header = JSON.parse((await readFile(join(dataDir, 'snapshot.pla'), 'utf8')).split('\n')[0] as string);
    expect(header).toMatchObject({ format: 'pla-store/2', counts: { determinations: 2 } });

    // Id 3 was used (then deleted): the next create gets 4, and its entry is checksummed.
    const created = await server.http('POST', DET, { body: { name: 'after the upgrade', transactionType: 'LEASE' } });
    expect((created.body as { data: { id: number } }).data.id).toBe(4);
    const journal = (await readFile(join(dataDir, 'journal.ndjson'), 'utf8')).trim().split('\n');
    expect(journal.length).toBeGreaterThan(0);
    expect(journal.every((line) => line.startsWith('{"crc32":"'))).toBe(true);

    await server.restart('SIGKILL');
    expect(server.stderr()).not.toMatch(/upgraded/);
    const again = await server.http('GET', `${DET}?size=10`);
    expect((again.body as { content: unknown[] }).content).toEqual([...expected, expect.objectContaining({ id: 4, name: 'after the upgrade' })]);
  }, 60_000);
});
