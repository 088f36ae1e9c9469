import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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

/** The next id the fake service gives a created record: never one it gave before, as a real service (pla takes a new id answered twice as no confirmation). */
let nextNewId = 1_000_000;

/** A bulk upsert the way the local server answers it: all-or-nothing, refusing a batch holding a `bad: true` record. */
export function allOrNothing(request: LoggedRequest): FakeReply {
  const batch = bodyOf(request);
  const bad = batch.findIndex((record) => record.bad === true);
  if (bad === -1) return { status: 200, body: { success: true, message: 'ok', data: batch.map((r) => ({ id: nextNewId++, ...r })) } };
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

type Row = Record<string, unknown>;

/**
 * What tests of where rows end share, over `serverWithFolder`'s server and folder:
 * the records whose `ref` starts with a prefix, an input file written in the
 * folder, an ndjson file's rows, and the rejects file a run named on stderr.
 */
export function rowFiles(files: ReturnType<typeof serverWithFolder>) {
  return {
    all: async (prefix: string): Promise<Row[]> => (await files.determinations()).filter((row) => String(row.ref ?? '').startsWith(prefix)),
    file: async (name: string, text: string): Promise<string> => {
      const path = files.temp().path(name);
      await writeFile(path, text);
      return path;
    },
    ndjsonRows: async (path: string): Promise<Row[]> =>
      (await readFile(path, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Row),
    /** The rejects file a run named on stderr (`rejects: F` or `see F`). */
    rejectsNamed: (stderr: string): string => {
      const match = /rejects: (\S+)|see (\S+rejects\S*)/.exec(stderr);
      const name = match?.[1] ?? match?.[2];
      if (!name) throw new Error(`no rejects file named in:\n${stderr}`);
      return name.startsWith('/') ? name : files.temp().path(name);
    },
  };
}
