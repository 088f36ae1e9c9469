/**
 * Starts the real local server (`node bin/pla.js server start --port 0 --env-name local`) on a
 * temporary data folder and config folder, and runs `pla` against it with the
 * same config (environment `local`, which the server points at itself): in this
 * process, or as the built CLI with PLA_TEST_PROCESS=1 (run-pla.ts). The server
 * is always a process of its own. Shared by the end-to-end tests of every room.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { openConfig } from '../../src/config/index.js';
import { runCli, withoutFinalNewline } from './run-pla.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'pla.js');
const READY = /^pla local server listening on (http:\/\/\S+)$/m;

export interface LocalServerOptions {
  /** Load demo data into the fresh folder (default true). */
  seed?: boolean;
  /** Extra `pla server start` flags, e.g. `['--rate-limit', '2']`. */
  args?: string[];
  /** Reuse a data folder (default: a new temporary one, removed on stop). */
  dataDir?: string;
  /** Reuse a config folder (default: a new temporary one, removed on stop). */
  configDir?: string;
  /** `postgres://…` to run on (default: the file's default store, see `setDefaultStore`, else the data folder). */
  storeUrl?: string;
}

/** Gives each server started without `storeUrl` a new PostgreSQL database (test/support/postgres.ts). */
let defaultStore: (() => Promise<string>) | undefined;

/** Makes `startLocalServer` run every server of this test file on a database from `create` (undefined: the data folder). */
export function setDefaultStore(create: (() => Promise<string>) | undefined): void {
  defaultStore = create;
}

/** What `pla` returned: text stdout/stderr (final newline removed) and the exit code (never throws on failure unless `reject`). */
export interface PlaResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** The exit code is not 0. */
  failed: boolean;
}

export interface HttpResult {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON when the body is JSON, else the text ('' when none). */
  body: unknown;
  text: string;
}

export interface HttpOptions {
  /** JSON-encoded unless a string or Buffer (then sent as is). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Key to send; default the admin key, `null` for none. */
  key?: string | null;
}

export interface LocalServer {
  url: string;
  dataDir: string;
  configDir: string;
  /** The PostgreSQL database it runs on, if any. */
  storeUrl?: string;
  adminKey: string;
  /** Runs `pla` with the server's config folder (env local): in this process, or the built CLI with PLA_TEST_PROCESS=1. */
  pla(args: string[], opts?: { input?: string; env?: Record<string, string>; reject?: boolean; cwd?: string }): Promise<PlaResult>;
  http(method: string, path: string, options?: HttpOptions): Promise<HttpResult>;
  /** Stops the server (SIGTERM by default) and waits for it to exit; removes temporary folders it made. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /**
   * Stops (SIGTERM, or e.g. SIGKILL for a crash) and starts again on the same folders
   * and the same port, so clients in the middle of a run find it again; `whileDown`
   * runs between the two (the server stays down until it resolves).
   */
  restart(signal?: NodeJS.Signals, whileDown?: () => Promise<unknown>): Promise<void>;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Exit code of the server process once `stop` returned. */
  exitCode?: number;
  /** Process id of the running server (changes on `restart`). */
  pid(): number;
}

/** Reads the admin key `pla server start` saved for env `local`. */
async function savedKey(configDir: string): Promise<string> {
  const key = (await openConfig({ env: { PLA_CONFIG_DIR: configDir }, readOnly: true })).get('local').apiKey;
  if (!key) throw new Error(`no key for env local in ${configDir}`);
  return key;
}

/** Spawns `pla server start --port PORT ARGS` and resolves with its URL once the ready line is printed. */
export async function spawnServer(args: string[], configDir: string, port = 0): Promise<{ child: ResultPromise; url: string; stderr: () => string }> {
  const child = execa('node', [BIN, 'server', 'start', '--port', String(port), ...args], {
    cwd: ROOT,
    env: { PLA_CONFIG_DIR: configDir, NO_COLOR: '1' },
    reject: false,
    buffer: false,
  });
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = READY.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    void child.then((result) => reject(new Error(`server exited (${String(result.exitCode)}) before it was ready:\n${err}`)));
  });
  return { child, url, stderr: () => err };
}

export async function startLocalServer(options: LocalServerOptions = {}): Promise<LocalServer> {
  const ownData = options.dataDir === undefined;
  const ownConfig = options.configDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'pla-data-')));
  const configDir = options.configDir ?? (await mkdtemp(join(tmpdir(), 'pla-config-')));
  const storeUrl = options.storeUrl ?? (await defaultStore?.());
  const args = [
    '--env-name',
    'local',
    '--data',
    dataDir,
    ...(storeUrl ? ['--store', storeUrl] : []),
    ...(options.seed === false ? ['--no-seed'] : []),
    ...(options.args ?? []),
  ];

  let running = await spawnServer(args, configDir);
  const server: LocalServer = {
    url: running.url,
    dataDir,
    configDir,
    ...(storeUrl ? { storeUrl } : {}),
    adminKey: await savedKey(configDir),

    async pla(cliArgs, opts = {}) {
      const run = await runCli(cliArgs, {
        // The config folder (temporary): files a run writes by default (rejects) do not land in the repository.
        cwd: opts.cwd ?? configDir,
        env: { ...process.env, PLA_CONFIG_DIR: configDir, NO_COLOR: '1', ...opts.env },
        ...(opts.input !== undefined ? { input: opts.input } : {}),
      });
      const result = { exitCode: run.exitCode, stdout: withoutFinalNewline(run.stdout), stderr: withoutFinalNewline(run.stderr), failed: run.exitCode !== 0 };
      if (opts.reject && result.failed) throw new Error(`pla ${cliArgs.join(' ')} failed (${String(result.exitCode)}):\n${result.stderr}`);
      return result;
    },

    async http(method, path, { body, headers = {}, key } = {}) {
      const sent: Record<string, string> = { ...headers };
      const apiKey = key === undefined ? server.adminKey : key;
      if (apiKey !== null) sent['x-api-key'] = apiKey;
      let payload: string | Buffer | undefined;
      if (body !== undefined) {
        payload = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
        if (!Object.keys(sent).some((h) => h.toLowerCase() === 'content-type')) sent['content-type'] = 'application/json';
      }
      const response = await fetch(server.url + path, { method, headers: sent, ...(payload !== undefined ? { body: payload } : {}) });
      const text = await response.text();
      let parsed: unknown = text;
      if (/json/.test(response.headers.get('content-type') ?? '') && text) parsed = JSON.parse(text) as unknown;
      return { status: response.status, headers: Object.fromEntries(response.headers), body: parsed, text };
    },

    async stop(signal = 'SIGTERM') {
      running.child.kill(signal);
      server.exitCode = (await running.child).exitCode;
      if (ownData) await rm(dataDir, { recursive: true, force: true });
      if (ownConfig) await rm(configDir, { recursive: true, force: true });
    },

    async restart(signal = 'SIGTERM', whileDown) {
      running.child.kill(signal);
      await running.child;
      await whileDown?.();
      running = await spawnServer(args, configDir, Number(new URL(server.url).port));
      server.url = running.url;
    },

    stderr: () => running.stderr(),
    pid: () => running.child.pid as number,
  };
  return server;
}
