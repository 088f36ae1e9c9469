/**
 * What a handler works with: its options, the IO object (streams, terminal flags),
 * the output settings, the connection and a client made on first use (and closed
 * when the handler ends). Loaded by handlers only, so it may import what they need.
 */
import { Writable } from 'node:stream';
import type { PlaClient } from '../client/types.js';
import type { ConfigStore, Connection } from '../config/types.js';
import type { OutputFormat, OutputOptions } from '../io/output/index.js';
import { type IOStreams, writeLine } from '../io/streams.js';
import { terminalSafe, terminalShield } from '../contract/terminal-text.js';
import type { Progress, StartProgress } from '../bulk/progress.js';
import type { GlobalOptions } from '../../commands/global-options.js';
import type { Environment, Invocation } from './invocation.js';

/**
 * What every handler is given (see the module comment): `Opts` are the options
 * of its command it reads, `Args` its positional arguments.
 */
export interface CommandContext<Opts extends object = {}, Args extends readonly unknown[] = readonly unknown[]> {
  /** The command's options merged with the global ones. */
  readonly opts: Readonly<Opts & GlobalOptions>;
  /** Declared positional arguments, as commander processed them. */
  readonly args: Args;
  /** Aborted on Ctrl-C. */
  readonly signal: AbortSignal;
  /** The run's streams and terminal flags: nothing else reads `process.std*`. */
  readonly io: IOStreams;
  /** The run's environment variables: nothing else reads `process.env`. */
  readonly env: Environment;
  /** The folder files the run writes without being told where land in (`.` for the process). */
  readonly cwd: string;
  /** The command line after `pla` (mask keys before showing it). */
  readonly argv: readonly string[];
  readonly output: OutputOptions;
  /** True when stderr is a terminal: spinners, progress and footers only then. */
  readonly interactive: boolean;
  /** A human-only line on stderr (confirmations, summaries); silent with -q. */
  note(line: string): void;
  /** A warning on stderr; printed above the progress bar while one is shown. */
  warn(line: string): void;
  /**
   * Shows a progress bar on stderr when it is a terminal with a width (else gives
   * none): until `finish`, every line for a person (notes, warnings, the --verbose
   * trace, and stdout's lines on the same terminal) prints above it, never on its line.
   */
  readonly startProgress: StartProgress;
  /**
   * The stored configuration. Reading does not load conf (it costs more to import
   * than node takes to start); `'write'` loads it for the setters.
   */
  config(mode?: 'read' | 'write'): Promise<ConfigStore>;
  connection(): Promise<Connection>;
  /**
   * The client, made on first use. By default Ctrl-C aborts its requests in flight;
   * `finishInFlight` leaves them to finish (bulk runs stop starting batches instead,
   * so a batch the service may already have applied is never left out of the
   * checkpoint and sent twice on resume).
   */
  client(options?: { finishInFlight?: boolean }): Promise<PlaClient>;
}

function defaultFormat(opts: GlobalOptions, io: IOStreams): OutputFormat {
  return opts.output ?? (io.stdoutIsTTY ? 'table' : 'json');
}

const notWritable = (): Promise<void> => Promise.reject(new Error('no configuration was read'));

/** A config stand-in with nothing stored, for when flags and PLA_* variables decide everything. */
const NOTHING_STORED: ConfigStore = {
  path: '',
  currentEnv: () => 'local',
  get: () => ({}),
  list: () => ({}),
  isKnown: () => true,
  use: notWritable,
  setKey: notWritable,
  setUrl: notWritable,
  feedFromServer: notWritable,
  setProxy: notWritable,
  setCaFile: notWritable,
  setWire: notWritable,
  setProtected: notWritable,
  server: () => ({}),
  setStore: notWritable,
  remove: notWritable,
  rename: notWritable,
  importAll: notWritable,
};

/**
 * The client needs only the base URL and key. When flags or PLA_* variables give
 * both, the config file cannot change them (they outrank it), so it is not read:
 * loading conf would cost a fifth of a `get`'s start-up.
 */
async function connectionForClient(opts: GlobalOptions, ctx: Pick<CommandContext, 'connection' | 'env'>): Promise<Connection> {
  const { env } = ctx;
  if (!(opts.baseUrl || env.PLA_BASE_URL) || !(opts.apiKey || env.PLA_API_KEY)) return ctx.connection();
  const { resolveConnection } = await import('../config/resolve-connection.js');
  return resolveConnection({ env: opts.env, baseUrl: opts.baseUrl, apiKey: opts.apiKey }, NOTHING_STORED, env);
}

/**
 * Runs `body` with a context for `invocation`, closing the client afterwards so no
 * keep-alive socket holds the process open.
 */
export async function withContext<Args extends readonly unknown[], Opts extends object>(
  invocation: Invocation<Args, Opts>,
  body: (ctx: CommandContext<Opts, Args>) => Promise<void>,
): Promise<void> {
  const { io, opts } = invocation;
  const configStores: Partial<Record<'read' | 'write', Promise<ConfigStore>>> = {};
  let connection: Promise<Connection> | undefined;
  const clients: Partial<Record<'abortable' | 'finishing', Promise<PlaClient>>> = {};

  // The progress bar on stderr, while one is shown: lines for a person go above it.
  let bar: Progress | undefined;
  const human = (line: string) => (bar ? bar.above(terminalSafe(line)) : writeLine(io, line));
  // stdout on the same terminal as the bar: its output goes above the bar too, a
  // whole line at a time (a part line would end up beside the bar). On a terminal
  // its text is made safe for it first (src/contract/terminal-text.ts).
  let partLine = '';
  const format = defaultFormat(opts, io);
  const shield = terminalShield(format, opts.quiet === true) ?? ((text: string) => text);
  const stdout = io.stdoutIsTTY
    ? new Writable({
        decodeStrings: false,
        write(chunk: Buffer | string, _encoding, done) {
          const shown = shield(chunk.toString());
          // Handed on at once, so stdout and the notes on stderr reach the terminal in the order written
          // (waiting for the write's callback let a footer overtake the table's last line).
          if (!bar) return void (io.stdout.write(shown) ? done() : io.stdout.once('drain', () => done()));
          const text = partLine + shown;
          const end = text.lastIndexOf('\n') + 1;
          partLine = text.slice(end);
          if (end > 0) bar.aboveOn(io.stdout, text.slice(0, end));
          done();
        },
      })
    : io.stdout;

  const ctx: CommandContext<Opts, Args> = {
    opts,
    args: invocation.args,
    signal: invocation.signal,
    io,
    env: invocation.env,
    cwd: invocation.cwd,
    argv: invocation.argv,
    output: {
      format,
      fields: opts.fields,
      quiet: opts.quiet === true,
      color: opts.color !== false && io.colorEnabled,
      stdout,
      // Tables fit the terminal stdout is on (not stderr's when only that is one).
      ...(io.stdoutIsTTY && io.terminalColumns !== undefined ? { width: io.terminalColumns } : {}),
      wide: opts.wide === true,
      csvRaw: opts.csvRaw === true,
      ...(opts.out !== undefined ? { out: opts.out } : {}),
      warn: human,
      ...(opts.query ? { query: opts.query } : {}),
    },
    interactive: io.stderrIsTTY,
    note(line) {
      if (!opts.quiet) human(line);
    },
    warn: human,
    startProgress: async (total) => {
      // A pty opened without a size reports 0 columns: nothing to draw on.
      if (!io.stderrIsTTY || (io.terminalColumns ?? 0) === 0) return undefined;
      const shown = await (await import('../bulk/progress.js')).startProgress(io.stderr, total);
      bar = {
        update: (done) => shown.update(done),
        above: (line) => shown.above(line),
        aboveOn: (stream, text) => shown.aboveOn(stream, text),
        finish() {
          shown.finish();
          bar = undefined;
          if (partLine) io.stdout.write(partLine);
          partLine = '';
        },
      };
      return bar;
    },
    config(mode = 'read') {
      configStores[mode] ??= import('../config/index.js').then((m) => m.openConfig({ env: invocation.env, readOnly: mode === 'read', warn: human }));
      return configStores[mode];
    },
    connection() {
      connection ??= (async () => {
        const { resolveConnection } = await import('../config/index.js');
        return resolveConnection({ env: opts.env, baseUrl: opts.baseUrl, apiKey: opts.apiKey }, await ctx.config(), ctx.env);
      })();
      return connection;
    },
    client(options = {}) {
      const mode = options.finishInFlight ? 'finishing' : 'abortable';
      clients[mode] ??= (async () => {
        const [{ createClient }, conn] = await Promise.all([import('../client/index.js'), connectionForClient(opts, ctx)]);
        const ca = conn.caFile ? await (await import('../config/ca-file.js')).readCaFile(conn.caFile, conn.env) : undefined;
        return createClient({
          baseUrl: conn.baseUrl,
          apiKey: conn.apiKey,
          env: conn.env,
          ...(conn.proxy ? { proxy: conn.proxy } : {}),
          variables: ctx.env,
          ...(ca !== undefined && conn.caFile ? { ca, caFile: conn.caFile } : {}),
          ...(conn.wire ? { wire: conn.wire } : {}),
          retries: opts.retries,
          retryUnsafe: opts.retryUnsafe === true,
          timeoutMs: opts.timeout === undefined ? undefined : opts.timeout * 1000,
          maxAnswerBytes: opts.maxAnswerSize,
          trace: opts.verbose ? human : undefined,
          signal: mode === 'abortable' ? invocation.signal : undefined,
        });
      })();
      return clients[mode];
    },
  };
  try {
    // A bad expression is refused before anything is sent.
    if (opts.query) await (await import('../io/output/query.js')).checkQuery(opts.query);
    await body(ctx);
  } catch (error) {
    // Refused on this machine: name the local servers the config knows (src/cli/local-servers-hint.ts).
    const hints = await import('./local-servers-hint.js');
    if (hints.refusedLocally(error))
      await ctx.config().then(
        (config) => hints.nameLocalServers(error, config),
        () => undefined,
      );
    throw error;
  } finally {
    // A client that failed to be made has nothing to close; its error already surfaced.
    await Promise.all(
      Object.values(clients).map((client) =>
        client.then(
          (c) => c.close(),
          () => undefined,
        ),
      ),
    );
  }
}
