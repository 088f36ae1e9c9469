/**
 * Running the local server in the foreground: turns the flags into server
 * options, starts the server, tells the caller where it listens (and the admin
 * key it minted on a first start) through `onListening`, prints the one ready
 * line on stdout (with `--quiet` the URL alone, as `docker run -d` prints only
 * the id), and on SIGINT/SIGTERM closes in order and returns (the process then
 * exits 0 by itself). What the CLI keeps of it (the `local` environment) is
 * the CLI's business: src/cli/handlers/server.ts.
 */
import { ServerSetupError } from './errors.js';
import { DEFAULT_SERVER_OPTIONS, DEFAULT_TASK_STEP_SECONDS, MAX_STORE_POOL_SIZE, parseByteSize, type ServerOptions } from './options.js';
import { createLocalServer } from './server.js';
import { describeWire, loadWireProfile } from './wire.js';
import { refusedStoreUrl, storeUrlProblem } from '../store/store-url.js';
import { maskUrl } from '../contract/secrets.js';
import { isPlainDigits } from '../contract/ids.js';

/** The flags as commander hands them over (strings, `seed` from `--no-seed`). */
export interface StartFlags {
  port?: string;
  host?: string;
  data?: string;
  seed?: boolean;
  dropJournalFrom?: string;
  lenient?: boolean;
  /** The global `--quiet`: the ready line on stdout is the URL alone, for `URL=$(pla server start -q …)`. */
  quiet?: boolean;
  /** `--no-request-log` (false): no line per request on stderr; the request log (`pla server log`) still keeps them. */
  requestLog?: boolean;
  logFormat?: 'text' | 'json';
  maxPageSize?: string;
  maxBulkItems?: string;
  maxBody?: string;
  maxImage?: string;
  rateLimit?: string;
  latency?: string;
  failRate?: string;
  simulateTasks?: string | boolean;
  smtp?: string;
  store?: string;
  storePoolSize?: string;
  maxConnections?: string;
  maxConnectionsPerAddress?: string;
  headerTimeout?: string;
  requestTimeout?: string;
  writeTimeout?: string;
  wire?: string;
}

function number(flag: string, value: string | undefined, fallback: number, check: (n: number) => boolean, rule: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || !check(n)) throw new ServerSetupError(`--${flag} must be ${rule}, got ${value}`);
  return n;
}

/**
 * A whole-number flag: plain decimal digits only, the contract's one rule for ids
 * too. `Number` alone would take `1e2`, `0x10` or `10.0`, which a "whole number"
 * message does not promise.
 */
function wholeNumber(flag: string, value: string | undefined, fallback: number, check: (n: number) => boolean, rule: string): number {
  if (value !== undefined && !isPlainDigits(value)) throw new ServerSetupError(`--${flag} must be ${rule}, got ${value}`);
  return number(flag, value, fallback, (n) => Number.isSafeInteger(n) && check(n), rule);
}

/** A duration flag in seconds (fractions allowed), as milliseconds. */
function seconds(flag: string, value: string | undefined, fallbackMs: number): number {
  return Math.round(number(flag, value, fallbackMs / 1000, (n) => n > 0, 'seconds (more than 0)') * 1000);
}

function size(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  try {
    const bytes = parseByteSize(value);
    if (bytes < 1) throw new Error('must be at least 1 byte');
    return bytes;
  } catch (error) {
    throw new ServerSetupError(`--${flag}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function toServerOptions(flags: StartFlags, store: StoreChoice): ServerOptions {
  const d = DEFAULT_SERVER_OPTIONS;
  const simulate = flags.simulateTasks === true ? String(DEFAULT_TASK_STEP_SECONDS) : flags.simulateTasks || undefined;
  return {
    port: wholeNumber('port', flags.port, d.port, (n) => n <= 65535, 'a port number (0 = any free port)'),
    host: flags.host ?? d.host,
    dataDir: flags.data ?? d.dataDir,
    seed: flags.seed ?? d.seed,
    ...(flags.dropJournalFrom === undefined
      ? {}
      : { dropJournalFrom: wholeNumber('drop-journal-from', flags.dropJournalFrom, 0, (n) => n >= 1, 'a line number of the journal (1 or more)') }),
    lenient: flags.lenient ?? d.lenient,
    requestLines: flags.requestLog === false ? 'off' : (flags.logFormat ?? d.requestLines),
    maxPageSize: wholeNumber('max-page-size', flags.maxPageSize, d.maxPageSize, (n) => n >= 1, 'a whole number of at least 1'),
    maxBulkItems: wholeNumber('max-bulk-items', flags.maxBulkItems, d.maxBulkItems, (n) => n >= 1, 'a whole number of at least 1'),
    maxBodyBytes: size('max-body', flags.maxBody, d.maxBodyBytes),
    maxImageBytes: size('max-image', flags.maxImage, d.maxImageBytes),
    rateLimit: number('rate-limit', flags.rateLimit, d.rateLimit, (n) => n >= 0, 'requests per second (0 = off)'),
    latencyMs: wholeNumber('latency', flags.latency, d.latencyMs, () => true, 'whole milliseconds'),
    failRate: number('fail-rate', flags.failRate, d.failRate, (n) => n >= 0 && n <= 1, 'a probability from 0 to 1'),
    simulateTasksSeconds: number('simulate-tasks', simulate, d.simulateTasksSeconds, (n) => n > 0, 'seconds per step'),
    ...(flags.smtp ? { smtpUrl: flags.smtp } : {}),
    ...(store.storeUrl ? { storeUrl: store.storeUrl } : {}),
    storePoolSize: wholeNumber(
      'store-pool-size',
      flags.storePoolSize,
      d.storePoolSize,
      (n) => n >= 1 && n <= MAX_STORE_POOL_SIZE,
      `a whole number from 1 to ${MAX_STORE_POOL_SIZE}`,
    ),
    maxConnections: wholeNumber('max-connections', flags.maxConnections, d.maxConnections, (n) => n >= 1, 'a whole number of at least 1'),
    maxConnectionsPerAddress: wholeNumber(
      'max-connections-per-address',
      flags.maxConnectionsPerAddress,
      d.maxConnectionsPerAddress,
      (n) => n >= 1,
      'a whole number of at least 1',
    ),
    headerTimeoutMs: seconds('header-timeout', flags.headerTimeout, d.headerTimeoutMs),
    requestTimeoutMs: seconds('request-timeout', flags.requestTimeout, d.requestTimeoutMs),
    writeTimeoutMs: seconds('write-timeout', flags.writeTimeout, d.writeTimeoutMs),
    wire: loadWireProfile(flags.wire),
  };
}

/** Where the store URL came from, most specific first: `--store`, `PLA_STORE_URL`, the pla config (`pla config set-store`). */
export type StoreSource = 'flag' | 'env-var' | 'config';

const SOURCE_NAMES: Record<StoreSource, string> = { flag: '--store', 'env-var': 'PLA_STORE_URL', config: 'the pla config (pla config set-store)' };

/** The store the server runs on: a PostgreSQL URL and where it came from, or none (the JSON-file store). */
export interface StoreChoice {
  storeUrl?: string;
  storeSource?: StoreSource;
}

/**
 * The PostgreSQL URL: `--store`, else `PLA_STORE_URL`, else the one kept in the pla
 * config (the CLI reads it and hands it over: the server does not read the CLI's
 * config); none = the JSON-file store of the data folder.
 */
export function storeOf(flags: { store?: string }, configuredStore: string | undefined): StoreChoice {
  const candidates: [string | undefined, StoreSource][] = [
    [flags.store, 'flag'],
    [process.env.PLA_STORE_URL || undefined, 'env-var'],
    [configuredStore || undefined, 'config'],
  ];
  const chosen = candidates.find(([url]) => url !== undefined);
  if (!chosen) return {};
  const [url, source] = chosen as [string, StoreSource];
  const problem = storeUrlProblem(url);
  if (problem !== undefined) {
    throw new ServerSetupError(`the store URL from ${SOURCE_NAMES[source]} is refused, ${refusedStoreUrl(url, maskUrl)}: ${problem}`, {
      hint: 'e.g. --store postgres://user:password@host:5432/database; without a store URL the data folder is used',
    });
  }
  return { storeUrl: url, storeSource: source };
}

/** `pla server migrate`: applies pending migrations to the PostgreSQL store and says which. */
export async function runServerMigrate(flags: { store?: string }, output: Pick<StartOutput, 'stderr'>, configuredStore?: string): Promise<void> {
  const note = (line: string): void => void output.stderr.write(`${line}\n`);
  const { storeUrl, storeSource } = storeOf(flags, configuredStore);
  if (storeUrl === undefined || storeSource === undefined) {
    throw new ServerSetupError('pla server migrate needs a store: --store postgres://…, PLA_STORE_URL or `pla config set-store`', {
      hint: 'the JSON-file store needs no migrations',
    });
  }
  const { openPostgresStore } = await import('../store/postgres/postgres-store.js');
  const store = await openPostgresStore({ url: storeUrl, migrate: false });
  try {
    const applied = await store.migrate();
    const where = `${maskUrl(storeUrl)} (from ${SOURCE_NAMES[storeSource]})`;
    note(applied.length ? `pla server: applied migration(s) ${applied.join(', ')} to ${where}` : `pla server: ${where} is up to date`);
  } finally {
    await store.close();
  }
}

/** Where the server's lines go: the ready line on `stdout`, everything else on `stderr`. */
export interface StartOutput {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** Where the server listens, and the admin key it minted when its store had none (shown only now). */
export interface ListeningServer {
  url: string;
  createdAdminKey?: string;
}

/** What the caller does at points of the server's life. */
export interface StartHooks {
  /** Once the server listens, before the ready line: the caller keeps the URL and any new key. */
  onListening(server: ListeningServer): void | Promise<void>;
}

/** Runs the server until SIGINT, SIGTERM or SIGHUP (its terminal closed), then closes it in order. */
export async function runServerStart(flags: StartFlags, output: StartOutput, hooks: StartHooks, configuredStore?: string): Promise<void> {
  const note = (line: string): void => void output.stderr.write(`${line}\n`);
  const store = storeOf(flags, configuredStore);
  const options = toServerOptions(flags, store);
  if (flags.storePoolSize !== undefined && !options.storeUrl)
    note("pla server: --store-pool-size has no effect: the data folder's JSON-file store has no connections");
  const server = await createLocalServer(options, (message) => note(`pla server: ${message}`), note);

  try {
    await hooks.onListening({ url: server.url, ...(server.createdAdminKey ? { createdAdminKey: server.createdAdminKey } : {}) });
  } catch (error) {
    await server.close();
    throw error;
  }

  const where =
    options.storeUrl && store.storeSource ? `PostgreSQL at ${maskUrl(options.storeUrl)} (from ${SOURCE_NAMES[store.storeSource]})` : options.dataDir;
  note(`pla server: data in ${where}${server.seeded ? ' (seeded with demo data)' : ''}`);
  const rehearsal = [
    options.rateLimit ? `rate limit ${options.rateLimit}/s per key` : '',
    options.latencyMs ? `latency ${options.latencyMs} ms` : '',
    options.failRate ? `fail rate ${options.failRate}` : '',
    options.simulateTasksSeconds ? `tasks advance every ${options.simulateTasksSeconds} s` : '',
    options.smtpUrl ? 'e-mail through SMTP' : 'e-mail into the outbox folder',
    options.lenient ? 'record fields of any type accepted (--lenient)' : '',
    flags.wire !== undefined ? `wire form ${describeWire(flags.wire)}` : '',
  ].filter(Boolean);
  note(`pla server: ${rehearsal.join(', ')}; Ctrl-C stops`);
  output.stdout.write(flags.quiet ? `${server.url}\n` : `pla local server listening on ${server.url}\n`);

  // Listeners stay registered until the store is closed: proper-lockfile's
  // signal-exit re-raises a signal that has no other listener, which would kill
  // the process before the store is flushed.
  let onSignal: (signal: NodeJS.Signals) => void = () => undefined;
  const signal = await new Promise<NodeJS.Signals>((resolveSignal) => {
    onSignal = resolveSignal;
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    process.on('SIGHUP', onSignal);
  });
  note(`pla server: ${signal}, finishing requests in flight and closing the store`);
  try {
    await server.close();
    note('pla server: stopped');
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
  }
}
