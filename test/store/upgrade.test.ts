/**
 * A data folder written by an earlier pla (snapshot `pla-store/1`, `snapshot.json`)
 * is upgraded on the first start of this one: the real server started on it serves
 * every record, the index and the id counters as they were, and the folder afterwards
 * holds the new snapshot only; a kill -9 after the upgrade loses nothing.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { collectWarnings } from './collect-warnings.js';
import { openTestStore, closeTestStore } from './open-store.js';
import { tempDir } from './temp-dirs.js';

const DET = '/api/v1/asset-transaction-type-determinations';

const lease = {
  id: 1,
  name: 'Lease A',
  transactionType: 'LEASE',
  amount: 12.5,
  note: 'tab\there, ünïcode ✓',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const doomed = { id: 2, name: 'Sale B', transactionType: 'SALE', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' };
// `__proto__` is the record's own field: records are data.
const odd = JSON.parse(
  '{"id":3,"name":"Odd","__proto__":{"x":1},"nested":{"a":[1,2]},"createdAt":"2026-01-02T00:00:00.000Z","updatedAt":"2026-01-02T00:00:00.000Z"}',
) as Record<string, unknown>;
const later = { id: 4, name: 'Journaled after the snapshot', createdAt: '2026-01-03T00:00:00.000Z', updatedAt: '2026-01-03T00:00:00.000Z' };
const notice = { id: 1, forUserId: 'alice', message: 'hello', createdDate: '2026-01-01T00:00:00Z', read: false };

/** The folder as pla wrote it before pla-store/2: a snapshot at seq 2 (an unused id 9 allocated) and a journal after it. */
async function oldFolder(): Promise<string> {
  const dir = await tempDir('pla-upgrade-');
  const snapshot = [
    '{"format":"pla-store/1","seq":2,"nextIds":{"determinations":10,"notifications":2},"savedAt":"2026-01-04T00:00:00.000Z","collections":{',
    '"determinations":[',
    `${JSON.stringify(lease)},`,
    `${JSON.stringify(doomed)},`,
    JSON.stringify(odd),
    '],',
    '"notifications":[',
    JSON.stringify(notice),
    ']',
    '}}',
    '',
  ].join('\n');
  await writeFile(join(dir, 'snapshot.json'), snapshot);
  const entries = [
    { seq: 1, changes: [{ op: 'put', collection: 'determinations', record: { id: 1, name: 'older, already in the snapshot' } }] },
    {
      seq: 3,
      changes: [
        { op: 'put', collection: 'determinations', record: later },
        { op: 'delete', collection: 'determinations', id: 2 },
      ],
    },
  ];
  // Entry 1 is one the snapshot already holds (a crash between snapshot and journal swap): skipped.
  await writeFile(
    join(dir, 'journal.ndjson'),
    `${entries
      .slice(1)
      .map((e) => JSON.stringify(e))
      .join('\n')}\n`,
  );
  return dir;
}

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.stop('SIGKILL');
  server = undefined;
});

describe('an old data folder (pla-store/1)', () => {
  it('is upgraded on the first start: same records, index and id counters; only the new snapshot remains', async () => {
    const dataDir = await oldFolder();
    server = await startLocalServer({ dataDir, seed: false });
    expect(server.stderr()).toMatch(/upgraded .*snapshot\.json to the faster snapshot format/);

    const list = await server.http('GET', `${DET}?size=100`);
    expect(list.status).toBe(200);
    expect((list.body as { content: unknown[] }).content).toEqual([lease, odd, later]);
    expect(Object.hasOwn((list.body as { content: Record<string, unknown>[] }).content[1] as object, '__proto__')).toBe(true);
    const shown = await server.pla(['det', 'get', '3', '-o', 'json']);
    expect(shown.exitCode).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: 3, name: 'Odd', nested: { a: [1, 2] } });
    expect((await server.http('GET', `${DET}/2`)).status).toBe(404);
    // The notifications index (forUserId) is built from the upgraded records.
    const inbox = await server.http('GET', '/api/notifications/alice');
    expect((inbox.body as { content: unknown[] }).content).toEqual([expect.objectContaining({ id: 1, forUserId: 'alice', read: false })]);
    expect((await server.http('GET', '/api/notifications/bob')).body).toMatchObject({ totalElements: 0 });

    await expect(stat(join(dataDir, 'snapshot.json'))).rejects.toThrow(/ENOENT/);
    const header = JSON.parse((await readFile(join(dataDir, 'snapshot.pla'), 'utf8')).split('\n')[0] as string);
    expect(header).toMatchObject({ format: 'pla-store/2', seq: 3, counts: { determinations: 3, notifications: 1 } });

    // Id 9 was handed out before the upgrade: the next create gets 10.
    const created = await server.http('POST', DET, { body: { name: 'after the upgrade', transactionType: 'LEASE' } });
    expect(created.status).toBe(200);
    expect((created.body as { data: { id: number } }).data.id).toBe(10);

    await server.restart('SIGKILL');
    expect(server.stderr()).not.toMatch(/upgraded/);
    const again = await server.http('GET', `${DET}?size=100`);
    expect((again.body as { content: { id: number }[] }).content.map((r) => r.id)).toEqual([1, 3, 4, 10]);
    expect((again.body as { content: unknown[] }).content.slice(0, 3)).toEqual([lease, odd, later]);
  });

  it('an upgrade interrupted before the old snapshot was removed: the new one is read, the old one removed', async () => {
    const dir = await oldFolder();
    const old = await readFile(join(dir, 'snapshot.json'), 'utf8');
    await closeTestStore(await openTestStore(dir));
    // The crash: snapshot.pla written and renamed into place, snapshot.json still there (here with other content, to show it is not read).
    await writeFile(join(dir, 'snapshot.json'), old.replace('"Lease A"', '"stale"'));
    const { warnings, warn } = collectWarnings();
    const store = await openTestStore(dir, { warn });
    expect(store.get('determinations', 1)).toEqual(lease);
    expect(warnings.join('\n')).toMatch(/removed .*snapshot\.json, which an interrupted upgrade had already replaced/);
    await expect(stat(join(dir, 'snapshot.json'))).rejects.toThrow(/ENOENT/);
  });
});
