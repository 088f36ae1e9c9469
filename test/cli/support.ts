/**
 * Runs `pla` against a fake server that answers every operation of the contract
 * with a plausible body, with a temporary config folder: in this process, or as
 * the built CLI (`node bin/pla.js`) with PLA_TEST_PROCESS=1 (test/support/run-pla.ts).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRecordId } from '../../src/contract/ids.js';
import { OPERATIONS } from '../../src/contract/operations.js';
import { jsonText } from '../../src/json/json-text.js';
import type { Operation } from '../../src/contract/operations.js';
import { type FakeReply, type FakeServer, type LoggedRequest, startFakeServer } from '../support/fake-server.js';
import { BIN, runCli, runCliProcess } from '../support/run-pla.js';

export { BIN };
export const TEST_KEY = 'test-key-abcdef0123456789';

/** A record as the fake service returns it. */
export const RECORD = { id: 7, name: 'alpha', status: 'ACTIVE', updatedAt: '2024-01-10T00:00:00.000Z', tags: { a: 1 } };

function templateRegex(op: Operation): RegExp {
  return new RegExp(`^${op.path.replace(/\{\w+\}/g, '[^/]+')}$`);
}

/** The operation a request is for: literal paths win over templates (`/bulk` over `/{id}`). */
function operationFor(req: Pick<LoggedRequest, 'method' | 'path'>): Operation | undefined {
  return OPERATIONS.filter((op) => op.method === req.method && templateRegex(op).test(req.path)).sort((a, b) => a.pathParams.length - b.pathParams.length)[0];
}

/** A body of the operation's response kind, with its success status. */
function replyFor(op: Operation): FakeReply {
  const envelope = (data: unknown) => ({ success: true, message: 'ok', data });
  const bodies: Record<Operation['response'], unknown> = {
    single: envelope(RECORD),
    list: envelope([RECORD, { ...RECORD, id: 8, name: 'beta' }]),
    void: envelope(null),
    page: { content: [RECORD, { ...RECORD, id: 8, name: 'beta' }], page: { size: 2, number: 0, totalElements: 2, totalPages: 1 } },
    'notification-page': {
      content: [{ id: 101, title: 'Lease renewed', read: false, forUserId: 'ana' }],
      totalPages: 1,
      totalElements: 1,
      numberOfElements: 1,
      size: 10,
      number: 0,
      first: true,
      last: true,
      empty: false,
    },
    'count-map': { count: 3 },
    array: [{ id: 11, title: 'made' }],
    schema: { fields: [{ name: 'name', type: 'string' }] },
    none: undefined,
  };
  const headers = op.id === 'images.upload' ? { location: '/api/images/55' } : undefined;
  return { status: op.status, body: bodies[op.response], headers };
}

/**
 * The answer of a bulk write that answers records: one per item sent, with the
 * item's id (the client matches answers to items by id, and reads back any it
 * cannot match).
 */
function bulkAnswer(op: Operation, req: LoggedRequest): FakeReply | undefined {
  if (op.response !== 'list' || !Array.isArray(req.body)) return undefined;
  const records = (req.body as unknown[]).map((item, i) =>
    typeof item === 'number'
      ? { ...RECORD, id: item, status: 'DECOMMISSIONED' }
      : { ...RECORD, ...(item as object), id: (item as { id?: unknown }).id ?? 100 + i },
  );
  return { status: op.status, body: { success: true, message: 'ok', data: records } };
}

/** A page of the two records, as asked (`page`, `size`): shape B, numbered from 0. */
function pageReply(req: LoggedRequest, fields: Record<string, unknown> = {}): FakeReply {
  const records = [
    { ...RECORD, ...fields },
    { ...RECORD, id: 8, name: 'beta', ...fields },
  ];
  const page = Number(req.query.page ?? 0);
  const size = Number(req.query.size ?? 20);
  const content = records.slice(page * size, page * size + size);
  return { status: 200, body: { content, page: { size, number: page, totalElements: records.length, totalPages: Math.ceil(records.length / size) } } };
}

/** A fake service answering every contract operation (404 problem for anything else). */
export function startContractServer(): Promise<FakeServer> {
  // Ids a remove was sent for read back as gone: what the remove answered, the read confirms.
  const removed = new Set<string>();
  return startFakeServer([
    {
      path: /.*/,
      reply: (req) => {
        const op = operationFor(req);
        if (op?.id === 'determinations.remove') removed.add(req.path.split('/').at(-1) ?? '');
        if (op?.id === 'determinations.removeBulk' && Array.isArray(req.body)) for (const id of req.body as unknown[]) removed.add(String(id));
        const id = req.path.split('/').at(-1) ?? '';
        if (op?.id === 'determinations.get' && removed.has(id)) return { status: 404, body: { title: 'Not Found', status: 404 } };
        // A bulk write by ids names the ids it did (an answer naming none is read back).
        if (op?.body?.kind === 'ids' && op.done !== undefined && op.response !== 'list' && Array.isArray(req.body))
          return { status: op.status, body: { success: true, message: `${op.done} ${(req.body as unknown[]).join(', ')}`, data: null } };
        // The search answers what its filter asks for (pla checks the records answered against it).
        if (op?.id === 'tasks.search') return pageReply(req, { status: 'PENDING' });
        if (op?.response === 'page') return pageReply(req);
        // A read or write by id answers that record (the client refuses another record's answer), its id exact.
        const pathId = op?.response === 'single' && op.pathParams.some((param) => param.name === 'id') ? parseRecordId(id) : undefined;
        if (pathId !== undefined) {
          // A decommission answers the record decommissioned (pla reads the state it shows).
          const state = op?.id.endsWith('.decommission') ? { status: 'DECOMMISSIONED' } : {};
          const data = { ...RECORD, ...state, ...(op?.method === 'PUT' && typeof req.body === 'object' ? (req.body as object) : {}), id: pathId };
          return { status: op?.status, body: jsonText({ success: true, message: 'ok', data }) };
        }
        return op
          ? (bulkAnswer(op, req) ?? replyFor(op))
          : { status: 404, body: { title: 'Not Found', status: 404, detail: `no route ${req.method} ${req.path}` } };
      },
    },
  ]);
}

export interface CliRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  server?: FakeServer;
  configDir: string;
  /** Text fed to stdin (stdin is a pipe, never a terminal). */
  input?: string;
  env?: Record<string, string>;
  /** Run as this user id (and the group of the same number): a test run as root acting as `nobody` (65534). Always a process. */
  uid?: number;
  /** The CLI's launcher to run; default the repository's own (`BIN`). Always a process. */
  bin?: string;
}

/** Runs `pla args…` (in this process unless PLA_TEST_PROCESS=1, or `uid` or `bin` ask for a process); never throws on a non-zero exit. */
export async function pla(args: string[], options: RunOptions): Promise<CliRun> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: options.configDir,
    PLA_CONFIG_DIR: options.configDir,
    NO_COLOR: '1',
    ...(options.server ? { PLA_BASE_URL: options.server.url, PLA_API_KEY: TEST_KEY } : {}),
    ...options.env,
  };
  const run = {
    env,
    input: options.input ?? '',
    // In the (temporary) config folder: files a run writes by default (rejects) stay out of the repository.
    ...(options.uid === undefined && existsSync(options.configDir) ? { cwd: options.configDir } : {}),
  };
  if (options.uid !== undefined || options.bin !== undefined)
    return runCliProcess(args, {
      ...run,
      ...(options.uid !== undefined ? { uid: options.uid } : {}),
      ...(options.bin !== undefined ? { bin: options.bin } : {}),
    });
  return runCli(args, run);
}

/** A temporary folder, removed by the returned function. */
export async function tempDir(prefix = 'pla-cli-test-'): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}
