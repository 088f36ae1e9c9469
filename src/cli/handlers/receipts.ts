/**
 * Receipts of the commands that change something: opened when the run starts,
 * fed as the service acknowledges records, closed with the exit code. On a
 * protected environment the records before are read for every change.
 */
import { createHash } from 'node:crypto';
import { userInfo } from 'node:os';
import { recordIdOf, type RecordId } from '../../contract/ids.js';
import { jsonText } from '../../json/json-text.js';
import { exitCodeOf, PlaError, UsageError } from '../../errors.js';
import type { ReceiptWriter } from '../../runs/receipt-writer.js';
import type { CommandContext } from '../context.js';
import { asRecord } from '../../plan/record-diff.js';

declare const __PLA_VERSION__: string;

/** `sha256:` and 16 hex digits of the key's hash: tells keys apart, gives nothing away. */
export function keyFingerprint(key: string): string {
  return `sha256:${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}

function localUser(env: CommandContext['env']): string {
  try {
    return userInfo().username;
  } catch {
    return env.USER ?? env.USERNAME ?? 'unknown';
  }
}

/** The receipt of this run and whether its environment is protected. */
export interface RunReceipt {
  writer: ReceiptWriter;
  protected: boolean;
}

/** Whether the context's environment is protected (records before are always read there). */
export async function environmentIsProtected(ctx: CommandContext): Promise<boolean> {
  const [{ env }, config, { isProtected }] = await Promise.all([ctx.connection(), ctx.config(), import('../../runs/protected-envs.js')]);
  return isProtected(config, env);
}

/**
 * Runs `body` holding the lock of the context's environment on this machine
 * (runs/environment-lock.ts): two runs that change one environment take turns.
 */
export async function withEnvironmentLock<T>(ctx: CommandContext, body: () => Promise<T>): Promise<T> {
  const [{ lockEnvironment }, { configDir }, { env }] = await Promise.all([
    import('../../runs/environment-lock.js'),
    import('../../config/config-dir.js'),
    ctx.connection(),
  ]);
  const release = await lockEnvironment(configDir(ctx.env), env, (line) => ctx.warn(line));
  try {
    return await body();
  } finally {
    await release().catch(() => undefined);
  }
}

/** What a receipt's header says beside the run: the run it undoes, the plan it applies. */
export interface ReceiptExtra {
  undoOf?: string;
  plan?: string;
  planDigest?: string;
}

/**
 * Runs `body` with a receipt: created first, closed with the exit code the run
 * ends with (a thrown error's), so every run that changes something leaves one.
 * The environment's lock is held throughout, unless the caller holds it (`locked`).
 */
export async function withReceipt<T>(
  ctx: CommandContext,
  resource: string,
  body: (receipt: RunReceipt) => Promise<T>,
  extra: ReceiptExtra = {},
  locked = false,
): Promise<T> {
  if (!locked) return withEnvironmentLock(ctx, () => withReceipt(ctx, resource, body, extra, true));
  const [{ ReceiptWriter }, { runsDir }, { maskedCommandLine }, connection, isProtected] = await Promise.all([
    import('../../runs/receipt-writer.js'),
    import('../../runs/receipt-store.js'),
    import('../../runs/command-line.js'),
    ctx.connection(),
    environmentIsProtected(ctx),
  ]);
  const writer = ReceiptWriter.create(runsDir(ctx.env), {
    env: connection.env,
    baseUrl: connection.baseUrl,
    ...(connection.apiKey ? { keyFingerprint: keyFingerprint(connection.apiKey) } : {}),
    user: localUser(ctx.env),
    version: __PLA_VERSION__,
    command: maskedCommandLine(ctx.argv),
    resource,
    startedAt: new Date().toISOString(),
    protected: isProtected,
    ...extra,
  });
  try {
    const result = await body({ writer, protected: isProtected });
    writer.finish(0);
    return result;
  } catch (error) {
    writer.finish(exitCodeOf(error));
    throw error;
  }
}

/**
 * The id a record or an argument names, as the resource's read by id takes it: a
 * number, a BigInt past 2^53, the digits of `"42"` read as 42 (the contract's one
 * id rule). `none` when nothing is named (a create); `unreadable` when what is named
 * is no id the read accepts ("abc", 4.5, -1), so the record before cannot be read.
 */
export function idToRead(id: unknown): RecordId | 'none' | 'unreadable' {
  return recordIdOf(id);
}

/** Why a protected environment's run refuses a record whose id cannot be read before it changes. */
export function unreadableIdReason(id: unknown, env: string): string {
  return `${(jsonText(id) as string | undefined) ?? String(id)} is not a record id, so the record before cannot be read, and ${env} is protected: its runs keep every record before, so they can be undone`;
}

/** The stored records `ids` name before they change (a protected environment's receipt), keyed by decimal text. */
export async function readBefores(ctx: CommandContext, resource: string, ids: readonly RecordId[]): Promise<Map<string, Record<string, unknown>>> {
  const { readCurrentByText, stateOf } = await import('../../plan/current-state.js');
  return readCurrentByText(await ctx.client(), stateOf(resource), ids, { signal: ctx.signal });
}

type AnyRecord = Record<string, unknown>;

/** An id as a receipt keeps it: a number, exact past 2^53 (`"42"` is kept as 42); other text as it is. */
export function receiptId(id: unknown): RecordId | string | undefined {
  const readable = idToRead(id);
  if (typeof readable !== 'string') return readable;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** The record `id` names before it changes; a protected run refuses (nothing sent) when the id cannot be read. */
async function readOneBefore(ctx: CommandContext, resource: string, id: unknown): Promise<AnyRecord | undefined> {
  const readable = idToRead(id);
  if (readable === 'none') return undefined;
  if (readable === 'unreadable') {
    const { env } = await ctx.connection();
    throw new UsageError(`refused: ${unreadableIdReason(id, env)}`, { hint: 'give the id as plain digits (42 or "42")' });
  }
  return (await readBefores(ctx, resource, [readable])).get(String(readable));
}

/**
 * One call that changes one record, with its receipt: on a protected environment
 * the record before is read first. `actionOf` names what was done, once the
 * answer (the record after, where the service gives one) is known.
 */
export async function callWithReceipt<T extends { data: unknown; already?: unknown }>(
  ctx: CommandContext,
  resource: string,
  id: unknown,
  actionOf: (before: AnyRecord | undefined, after: AnyRecord | undefined) => string,
  call: () => Promise<T>,
): Promise<T> {
  return withReceipt(ctx, resource, async (receipt) => {
    const before = receipt.protected ? await readOneBefore(ctx, resource, id) : undefined;
    const answer = await call().catch((error: unknown) => {
      // Neither done nor refused: the receipt counts it apart (the record is in the unknown-outcome file),
      // keeping the record before where it was read, so that undo can restore it if it is gone.
      if (error instanceof PlaError && error.outcomeUnknown) {
        const shownId = receiptId(id);
        if (before)
          receipt.writer.records([{ action: actionOf(before, undefined), ...(shownId !== undefined ? { id: shownId } : {}), before, unconfirmed: true }]);
        else receipt.writer.count('unknown', 1);
      }
      throw error;
    });
    const after = asRecord(answer.data);
    const shownId = receiptId(after?.id) ?? receiptId(id);
    receipt.writer.records([
      {
        action: actionOf(before, after),
        ...(shownId !== undefined ? { id: shownId } : {}),
        ...(before ? { before } : {}),
        ...(after ? { after } : {}),
        // Refused, and already as asked (read back): this run changed nothing of it.
        ...(answer.already ? { already: true as const } : {}),
      },
    ]);
    return answer;
  });
}
