import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createClient } from '../../src/client/index.js';
import type { PlaClient } from '../../src/client/types.js';
import { expandPath, operation, type OperationId } from '../../src/contract/operations.js';
import type { SourceItem } from '../../src/io/input/types.js';
import type { FakeReply, LoggedRequest } from '../support/fake-server.js';
import { startLocalServer, type LocalServer } from '../support/local-server.js';

export const UPSERT: OperationId = 'determinations.upsertBulk';
export const UPSERT_PATH = expandPath(operation(UPSERT));

/** Records `{ ref: 'r0' … }` as input items on lines 1…n. */
export function records(n: number, extra: (i: number) => Record<string, unknown> = () => ({})): Array<SourceItem<Record<string, unknown>>> {
  return Array.from({ length: n }, (_, i) => ({ value: { ref: `r${i}`, ...extra(i) }, line: i + 1 }));
}

export async function* stream<T>(items: Array<SourceItem<T>>): AsyncGenerator<SourceItem<T>> {
  yield* items;
}

function bodyOf(request: LoggedRequest): Array<Record<string, unknown>> {
  return request.body as Array<Record<string, unknown>>;
}

export function refsOf(request: LoggedRequest): string[] {
  return bodyOf(request).map((record) => String(record.ref));
}

/** A bulk upsert the way the local server answers it: all-or-nothing, refusing a batch holding a `bad: true` record. */
export function allOrNothing(request: LoggedRequest): FakeReply {
  const batch = bodyOf(request);
  const bad = batch.findIndex((record) => record.bad === true);
  if (bad === -1) return { status: 200, body: { success: true, message: 'ok', data: batch.map((r, i) => ({ id: i + 1, ...r })) } };
  return {
    status: 400,
    headers: { 'content-type': 'application/problem+json' },
    body: { type: 'about:blank', title: 'Bad Request', status: 400, detail: 'invalid records', errors: [{ path: `/${bad}/bad`, message: 'must not be bad' }] },
  };
}

export function client(url: string): PlaClient {
  return createClient({ baseUrl: url, apiKey: 'test-key-0000-1234', retries: 0 });
}

/** A temporary folder for one test file's input and output files. */
export interface TempDir {
  dir: string;
  path(name: string): string;
  cleanup(): Promise<void>;
}

export async function tempDir(): Promise<TempDir> {
  const dir = await mkdtemp(join(tmpdir(), 'pla-bulk-'));
  return { dir, path: (name) => join(dir, name), cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * For one test file: the real local server (no demo data) and a temporary folder,
 * started before its tests and removed after; `pla` runs the built CLI in that
 * folder (where files a run writes by default land).
 */
export function serverWithFolder(): {
  server(): LocalServer;
  temp(): TempDir;
  pla(args: string[]): ReturnType<LocalServer['pla']>;
  /** Every determination the store holds, read through the CLI, in id order. */
  determinations(): Promise<Array<Record<string, unknown>>>;
} {
  let server: LocalServer | undefined;
  let temp: TempDir | undefined;
  beforeAll(async () => {
    server = await startLocalServer({ seed: false });
    temp = await tempDir();
  });
  afterAll(async () => {
    await server?.stop();
    await temp?.cleanup();
  });
  const started = () => server as LocalServer;
  const folder = () => temp as TempDir;
  const pla = (args: string[]) => started().pla(args, { cwd: folder().dir });
  const determinations = async () => {
    const result = await pla(['determinations', 'list', '--all', '--size', '1000', '-o', 'ndjson']);
    if (result.exitCode !== 0) throw new Error(`list failed (${String(result.exitCode)}): ${String(result.stderr)}`);
    return String(result.stdout)
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .sort((a, b) => Number(a.id) - Number(b.id));
  };
  return { server: started, temp: folder, pla, determinations };
}
