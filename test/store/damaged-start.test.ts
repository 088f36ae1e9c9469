/**
 * A damaged snapshot whose index is whole is found only by its checksum, computed on
 * a worker thread while the journal replays (snapshot-check.ts): the real server,
 * started as a process on it, must refuse to start without ever answering a request.
 */
import { createServer } from 'node:net';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Change } from '../../src/store/index.js';
import { spawnServer } from '../support/local-server.js';
import { closeTestStore, openTestStore } from './open-store.js';
import { tempDir } from './temp-dirs.js';

/** A port free a moment ago: the server is started on it so that requests can be sent before it says it listens. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Sends requests to `port` until `done` settles; the statuses of those answered. */
async function answersUntil(port: number, done: Promise<unknown>): Promise<number[]> {
  let over = false;
  void done.finally(() => (over = true));
  const answered: number[] = [];
  while (!over) {
    try {
      answered.push((await fetch(`http://127.0.0.1:${port}/api/v1/asset-transaction-type-determinations`)).status);
    } catch {
      // refused: nothing listens
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return answered;
}

describe('pla server start on a damaged snapshot with a whole index', () => {
  it('refuses to start and answers no request, from the first moment to its exit', async () => {
    const dir = await tempDir();
    const store = await openTestStore(dir);
    const pad = 'p'.repeat(200);
    await store.commit(Array.from({ length: 80_000 }, (_, i) => ({ op: 'put', collection: 'tasks', record: { id: i + 1, n: i, pad } }) as Change));
    await closeTestStore(store);
    const path = join(dir, 'snapshot.pla');
    const text = await readFile(path, 'utf8');
    // Large enough for the worker thread, and an index beside it.
    expect(text.length).toBeGreaterThan(16 << 20);
    expect((await stat(join(dir, 'snapshot.idx'))).size).toBeGreaterThan(0);
    // A journal to replay meanwhile.
    await writeFile(join(dir, 'journal.ndjson'), '');
    await writeFile(path, text.replace('\t{"id":150,"n":149,', '\t{"id":150,"n":148,'));

    const configDir = await mkdtemp(join(tmpdir(), 'pla-config-'));
    const port = await freePort();
    const started = spawnServer(['--env-name', 'local', '--data', dir, '--no-seed'], configDir, port);
    const failure = started.then(
      () => undefined,
      (error: Error) => error,
    );
    const answered = await answersUntil(port, failure);
    const error = await failure;
    expect(error?.message).toMatch(/snapshot\.pla: damaged: its checksum does not match/);
    expect(answered).toEqual([]);

    // The same folder with the snapshot whole starts, and answers: the requests above could have seen it.
    await writeFile(path, text);
    const { child } = await spawnServer(['--env-name', 'local', '--data', dir, '--no-seed'], configDir, port);
    try {
      expect((await fetch(`http://127.0.0.1:${port}/api/v1/asset-transaction-type-determinations`)).status).toBeGreaterThan(0);
    } finally {
      child.kill('SIGKILL');
      await child;
    }
  }, 120_000);
});
