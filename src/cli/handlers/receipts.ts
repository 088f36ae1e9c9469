/**
 * Receipts of the commands that change something: opened when the run starts,
 * fed as the service acknowledges records, closed with the exit code. On a
 * protected environment the records before are read for every change.
 */
import { createHash } from 'node:crypto';
import { userInfo } from 'node:os';
import { exitCodeOf } from '../../errors.js';
import type { ReceiptWriter } from '../../runs/receipt-writer.js';
import type { CommandContext } from '../context.js';
import { asRecord } from '../../plan/record-diff.js';

declare const __PLA_VERSION__: string;

/** `sha256:` and 16 hex digits of the key's hash: tells keys apart, gives nothing away. */
export function keyFingerprint(key: string): string {
  return `sha256:${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}

function localUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? 'unknown';
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
 * Runs `body` with a receipt: created first, closed with the exit code the run
 * ends with (a thrown error's), so every run that changes something leaves one.
 */
export async function withReceipt<T>(ctx: CommandContext, resource: string, body: (receipt: RunReceipt) => Promise<T>, extra: { undoOf?: string } = {}): Promise<T> {
  const [{ ReceiptWriter }, { runsDir }, { maskedCommandLine }, connection, isProtected] = await Promise.all([
    import('../../runs/receipt-writer.js'),
    import('../../runs/receipt-store.js'),
    import('../../runs/command-line.js'),
    ctx.connection(),
    environmentIsProtected(ctx),
  ]);
  const writer = ReceiptWriter.create(runsDir(), {
    env: connection.env,
    baseUrl: connection.baseUrl,
    ...(connection.apiKey ? { keyFingerprint: keyFingerprint(connection.apiKey) } : {}),
    user: localUser(),
    version: __PLA_VERSION__,
    command: maskedCommandLine(process.argv.slice(2)),
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

/** The stored record `id` of `resource` names before it changes (a protected environment's receipt), or `undefined`. */
export async function readBefore(ctx: CommandContext, resource: string, id: number): Promise<Record<string, unknown> | undefined> {
  const { readCurrentState, stateOf } = await import('../../plan/current-state.js');
  return (await readCurrentState(await ctx.client(), stateOf(resource), [id], { signal: ctx.signal })).get(id);
}

type AnyRecord = Record<string, unknown>;


/** An id as a receipt keeps it: a number, or the digits of one past 2^53. */
function receiptId(id: unknown): number | string | undefined {
  if (typeof id === 'number') return id;
  if (typeof id === 'bigint') return String(id);
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * One call that changes one record, with its receipt: on a protected environment
 * the record before is read first. `actionOf` names what was done, once the
 * answer (the record after, where the service gives one) is known.
 */
export async function callWithReceipt<T extends { data: unknown }>(
  ctx: CommandContext,
  resource: string,
  id: unknown,
  actionOf: (before: AnyRecord | undefined, after: AnyRecord | undefined) => string,
  call: () => Promise<T>,
): Promise<T> {
  return withReceipt(ctx, resource, async (receipt) => {
    const before = receipt.protected && typeof id === 'number' ? await readBefore(ctx, resource, id) : undefined;
    const answer = await call();
    const after = asRecord(answer.data);
    const shownId = receiptId(after?.id) ?? receiptId(id);
    receipt.writer.records([{ action: actionOf(before, after), ...(shownId !== undefined ? { id: shownId } : {}), ...(before ? { before } : {}), ...(after ? { after } : {}) }]);
    return answer;
  });
}
