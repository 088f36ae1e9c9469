/**
 * One local server: the store opened on the data folder, demo data and the first
 * admin key on a fresh folder, the request pipeline (fastify, app.ts) on node:http, and an orderly
 * close (stop accepting, finish requests in flight, close the store).
 */
import { createServer } from 'node:http';
import { mkdir, rm } from 'node:fs/promises';
import type { AddressInfo, Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { ServerSetupError } from './errors.js';
import { openStore } from '../store/open.js';
import { COLLECTIONS, type Store } from '../store/types.js';
import { KeyRing, newKey } from './auth.js';
import { guardConnections, refuseConnect, timeoutCheckInterval } from './connection-guard.js';
import { buildApp } from './app.js';
import type { Runtime } from './runtime.js';
import { IDEMPOTENCY_COLLECTION, IdempotencyKeys, SCOPE_FIELD } from './idempotency.js';
import { createImageFiles, createStoredImageFiles } from './image-files.js';
import { createMailer } from './mailer.js';
import type { ServerOptions } from './options.js';
import { RateLimiter } from './rate-limit.js';
import { ConsoleLines, RequestLog } from './request-log.js';
import { resetStore } from './reset.js';
import { seed } from './seed.js';
import { startTaskSimulator } from './task-simulator.js';

/** Equality indexes the handlers look records up by. */
const INDEXES = {
  notifications: ['forUserId'],
  apiKeys: ['hash'],
  topics: ['service'],
  images: ['sha256'],
  [IDEMPOTENCY_COLLECTION]: [SCOPE_FIELD],
} as const;

/** What the first transaction of a start did. */
interface FirstStart {
  seeded: boolean;
  createdAdminKey?: string;
}

/**
 * Seeds an empty store (unless `--no-seed`) and creates the first admin key when
 * there is none, in one transaction. Several processes starting on one database at
 * once: one of them takes the lock and does it, the others find it done.
 */
function firstStart(store: Store, withSeed: boolean): Promise<FirstStart> {
  return store.transaction(async (tx) => {
    await tx.lock('pla:first-start');
    const counts = await Promise.all(COLLECTIONS.map((c) => tx.count(c)));
    const fresh = counts.every((n) => n === 0);
    if (fresh && withSeed) await seed(tx);
    if ((await tx.count('apiKeys')) > 0) return { seeded: fresh && withSeed };
    const admin = await newKey(tx, { name: 'local-admin', env: 'local', permissions: ['*'] });
    return { seeded: fresh && withSeed, createdAdminKey: admin.secret };
  });
}

/** A started local server. */
export interface RunningServer {
  /** Base URL clients use, e.g. `http://127.0.0.1:4010`. */
  url: string;
  /** The admin key created on this start (first start only); shown once, then only its hash exists. */
  createdAdminKey?: string;
  /** True when this start loaded the demo data. */
  seeded: boolean;
  close(): Promise<void>;
}

function baseUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}

/** Why the server cannot listen where it was asked to, as the user's mistake (exit 2) when it is one. */
function listenProblem(error: unknown, port: number, host: string): unknown {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return new ServerSetupError(`port ${port} on ${host} is in use`, {
        hint: 'stop what uses it, or pick another with --port (0 = any free port)',
        inUse: true,
      });
    case 'EACCES':
      return new ServerSetupError(`no permission to listen on port ${port} on ${host}`, { hint: 'ports below 1024 need privileges; pick another with --port' });
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ServerSetupError(`cannot listen on ${host}: not an address of this machine`, {
        hint: 'use --host 127.0.0.1 (this machine only) or 0.0.0.0 (every interface)',
      });
    default:
      return error;
  }
}

/**
 * Opens the data folder, listens, and only then commits the demo data and first admin
 * key. Throws `ServerSetupError` for a data folder or address the user got wrong,
 * `StoreLockedError` when another server holds the folder. `show` gets the console
 * lines of requests (unless `requestLines` is `off`), those of one turn of the event
 * loop in one call, joined by newlines.
 */
export async function createLocalServer(options: ServerOptions, warn: (message: string) => void, show?: (lines: string) => void): Promise<RunningServer> {
  const dataDir = resolve(options.dataDir);
  // Records and (hashed) keys: the data folder is its owner's only.
  await mkdir(dataDir, { recursive: true, mode: 0o700 }).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR')
      throw new ServerSetupError(`--data ${dataDir} is not a folder`, { hint: 'name a folder (it is created when missing)' });
    throw error;
  });
  let lostLock: string | undefined;
  const store: Store = await openStore({
    dir: dataDir,
    indexes: INDEXES,
    warn,
    onLockLost: (problem) => (lostLock = problem),
    maxConnections: options.storePoolSize,
    ...(options.dropJournalFrom ? { dropJournalFrom: options.dropJournalFrom } : {}),
    ...(options.storeUrl ? { url: options.storeUrl } : {}),
  });

  const images = store.blobs ? createStoredImageFiles(store.blobs) : createImageFiles(dataDir);
  // Only this process writes the folder now (the store holds its lock): any upload in progress was cut short.
  const swept = await images.sweep(async (sha256) => (await store.count('images', [{ field: 'sha256', equals: sha256 }])) > 0);
  if (swept.partial > 0) warn(`removed ${swept.partial} partial upload(s) an earlier run left in ${images.dir}`);
  if (swept.orphans > 0)
    warn(`removed ${swept.orphans} image file(s) no image refers to any more (an earlier run stopped between a delete and its clean-up) in ${images.dir}`);
  const mailer = createMailer({ dataDir, ...(options.smtpUrl ? { smtpUrl: options.smtpUrl } : {}) });
  const idempotency = await IdempotencyKeys.open(store);
  const lines = show && options.requestLines !== 'off' ? new ConsoleLines(options.requestLines, show) : undefined;
  const runtime: Runtime = {
    store,
    options: { ...options, dataDir },
    mailer,
    images,
    limiter: new RateLimiter(options.rateLimit, store.buckets),
    keys: new KeyRing(store),
    idempotency,
    log: new RequestLog(lines?.add),
    startedAt: Date.now(),
    storeLost: () => lostLock,
    warn,
    async reset() {
      await resetStore(store, images, options.seed ? seed : undefined);
      await rm(join(dataDir, 'outbox'), { recursive: true, force: true });
      await idempotency.reload();
      runtime.keys.forget();
    },
    baseUrl: () => url,
    async openapi() {
      const { createOpenApiDocument } = await import('../contract/openapi.js');
      return createOpenApiDocument({ serverUrl: url, maxBulkItems: options.maxBulkItems });
    },
  };

  // Seed data and the first key are committed only once the port is ours: a
  // failed start must not leave a folder whose admin key nobody ever saw.
  let firstCommit: Promise<FirstStart> | undefined;
  let refused: (socket: Socket) => boolean = () => false;
  const app = await buildApp(runtime, (handler) =>
    createServer({ connectionsCheckingInterval: timeoutCheckInterval(options) }, (req, res) => {
      if (refused(req.socket)) {
        res.destroy(); // over a connection cap: already answered 503 on the socket
        return;
      }
      if (firstCommit) void firstCommit.then(() => handler(req, res));
      else handler(req, res);
    }),
  );
  const { server } = app;
  refused = guardConnections(server, options);
  refuseConnect(server);
  let url = '';
  try {
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => resolveListen());
    });
  } catch (error) {
    await store.close();
    throw listenProblem(error, options.port, options.host);
  }
  url = baseUrl(options.host, (server.address() as AddressInfo).port);
  firstCommit = firstStart(store, options.seed);
  let first: FirstStart;
  try {
    first = await firstCommit;
  } catch (error) {
    await new Promise<void>((done) => server.close(() => done()));
    await store.close();
    throw error;
  }
  firstCommit = undefined; // committed: requests need not wait a turn for it any more
  const simulator = options.simulateTasksSeconds > 0 ? startTaskSimulator(store, options.simulateTasksSeconds, warn) : undefined;

  let closing: Promise<void> | undefined;
  return {
    url,
    seeded: first.seeded,
    ...(first.createdAdminKey ? { createdAdminKey: first.createdAdminKey } : {}),
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((done) => server.close(() => done()));
        // Keep-alive connections go as soon as they are idle; requests in flight finish first.
        const idle = setInterval(() => server.closeIdleConnections(), 50);
        server.closeIdleConnections();
        await stopped;
        clearInterval(idle);
        lines?.flush();
        await simulator?.stop();
        mailer.close();
        await store.close();
      })();
      return closing;
    },
  };
}
