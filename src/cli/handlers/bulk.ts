/** Hands a stream of records or ids to the bulk runner with the command's bulk options, and keeps the run's receipt. */
import type { Accepted } from '../../bulk/split.js';
import type { Reject } from '../../bulk/rejects.js';
import type { FieldTypes } from '../../plan/field-types.js';
import type { InputFormat, SourceItem } from '../../io/input/types.js';
import { operation, verbOf, type OperationId } from '../../contract/operations.js';
import type { CommandContext } from '../context.js';
import type { RecordInputOptions } from './records-input.js';
import type { RecordId } from '../../contract/ids.js';
import { UsageError } from '../../errors.js';
import { idToRead, readBefores, receiptId, type RunReceipt, unreadableIdReason, withReceipt } from './receipts.js';
import { sendingHooks } from '../../runs/sending-hooks.js';
import { asRecord } from '../../plan/record-diff.js';

/**
 * A create naming an id: the service assigns ids, and one that took the id given
 * would overwrite that record (a create is never an update in disguise).
 */
export function createWithId(id: unknown): UsageError {
  return new UsageError(`a create takes no id (given ${String(id)}): the service assigns ids`, {
    hint: 'leave "id" out to create a record, or use update / upsert to change the record with that id',
  });
}

/** `--batch-size`, `--concurrency`, `--rejects`, `--unknown-outcome`, `--checkpoint` (commands/options.ts). */
export interface BulkOptions {
  batchSize?: number;
  concurrency?: number;
  rejects?: string;
  unknownOutcome?: string;
  checkpoint?: string;
  /** Run again a run its checkpoint says finished. */
  force?: boolean;
  /** Of delete and remove: an id not found is done, "already gone" (as `kubectl delete --ignore-not-found`). */
  ignoreNotFound?: boolean;
}

/** What a bulk run reads of its command's options: the bulk ones, and the input's file (records or ids) and format for the rejects file. */
export type BulkRunOptions = BulkOptions & Pick<RecordInputOptions, 'file' | 'format'> & { idsFile?: string };

/** The input's format when known without reading it: `--format`, else the file's extension. */
async function inputFormat(opts: Pick<RecordInputOptions, 'file' | 'format'>): Promise<InputFormat | undefined> {
  const { file } = opts;
  if (opts.format) return opts.format;
  if (file === undefined || file === '-') return undefined;
  const { formatFromPath } = await import('../../io/input/index.js');
  return formatFromPath(file);
}

type AnyRecord = Record<string, unknown>;

/** The input file a run reads (not stdin): default rejects go beside it. */
function inputPathOf(opts: BulkRunOptions): { inputPath?: string } {
  const file = opts.file ?? opts.idsFile;
  return file === undefined || file === '-' ? {} : { inputPath: file };
}

/** What an item names as its id: a bare id, or a record's `id` (as written: `"42"`, perhaps `"abc"`). */
function namedId(item: SourceItem): unknown {
  const record = asRecord(item.value);
  return record ? record.id : item.value;
}

/** The id an item names, as the read by id takes it (`"42"` is 42), when it names one. */
function itemId(item: SourceItem): RecordId | undefined {
  const id = idToRead(namedId(item));
  return id === 'none' || id === 'unreadable' ? undefined : id;
}

/** What was done to one acknowledged item: an upsert updated when the record it named existed, else created. */
function actionOf(verb: string, item: SourceItem, before: AnyRecord | undefined, after: AnyRecord | undefined): string {
  if (verb !== 'upsert') return verb;
  const id = itemId(item);
  return before !== undefined || (id !== undefined && after?.id === id) ? 'update' : 'create';
}

/**
 * The bulk runner's hooks that feed the receipt. Before each batch the records it
 * names are read (by pages or a GET each) on a protected environment, so the
 * receipt holds them and the run can be undone, and wherever csv rows name stored
 * records, so their cells take the stored types (a stored string stays a string)
 * as a plan of the same file would send them.
 */
function receiptHooks(ctx: CommandContext, operationId: OperationId, receipt: RunReceipt) {
  const verb = verbOf(operationId) ?? 'done';
  const befores = new WeakMap<SourceItem, AnyRecord>();
  const resource = operation(operationId).resource;
  // The resource's declared field types, read once, when the first sheet row is screened.
  let fieldTypes: Promise<FieldTypes> | undefined;
  // Columns left out or typed by guess: said once each.
  const said = new Set<string>();
  const sayOnce = (fields: readonly string[], words: (field: string) => string) => {
    for (const field of fields) {
      const line = words(field);
      if (said.has(line)) continue;
      said.add(line);
      ctx.warn(line);
    }
  };
  const declaredTypes = async () => {
    const { readFieldTypes } = await import('../../plan/declared-types.js');
    return readFieldTypes(await ctx.client(), resource, ctx.signal);
  };
  return {
    screen: async (items: SourceItem[]) => {
      // Loaded with the bulk runner, which has it already: a list through this module does not pay for it.
      const { rejectOf } = await import('../../bulk/split.js');
      // A create naming an id is refused (to the rejects), never sent: the service assigns ids.
      const namingIds = verb === 'create' ? items.filter((item) => namedId(item) !== undefined && namedId(item) !== null) : [];
      const creatable = namingIds.length > 0 ? items.filter((item) => !namingIds.includes(item)) : items;
      const createRefusals: Array<Reject & { line: number }> = namingIds.map((item) => ({ ...rejectOf(item), error: createWithId(namedId(item)).message }));
      // On a protected environment an item whose id cannot be read is refused (to the rejects), never sent without its record before.
      const unreadable = receipt.protected ? creatable.filter((item) => idToRead(namedId(item)) === 'unreadable') : [];
      let send = unreadable.length > 0 ? creatable.filter((item) => !unreadable.includes(item)) : creatable;
      const toRead = receipt.protected ? send : send.filter((item) => item.cells !== undefined && itemId(item) !== undefined);
      if (toRead.length > 0) {
        const current = await readBefores(
          ctx,
          resource,
          toRead.map(itemId).filter((id): id is RecordId => id !== undefined),
        );
        for (const item of toRead) {
          const id = itemId(item);
          const before = id === undefined ? undefined : current.get(String(id));
          if (before) befores.set(item, before);
        }
      }
      // Sheet rows: each cell as the service declares its field (the stored record's type first); a cell that cannot be is a refused row.
      const typingRefusals: Array<Reject & { line: number }> = [];
      const sheetRows = send.filter((item) => item.cells !== undefined);
      if (sheetRows.length > 0) {
        const [types, { typeSheetRow }] = await Promise.all([(fieldTypes ??= declaredTypes()), import('../../plan/field-types.js')]);
        for (const item of sheetRows) {
          const record = asRecord(item.value);
          if (!record || !item.cells) continue;
          const typing = typeSheetRow(record, item.cells, types, befores.get(item));
          if (typing.refusal) typingRefusals.push({ ...rejectOf(item), error: typing.refusal });
          sayOnce(typing.dropped, (field) => `not sent: ${field} (the service sets it)`);
          sayOnce(typing.guessed, (field) => `type of ${field} guessed from its cells: the service declares none`);
        }
      }
      if (typingRefusals.length > 0) {
        const refusedLines = new Set(typingRefusals.map((reject) => reject.line));
        send = send.filter((item) => !refusedLines.has(item.line));
        createRefusals.push(...typingRefusals);
      }
      if (unreadable.length === 0) return { send, refused: createRefusals };
      const { env } = await ctx.connection();
      return {
        send,
        refused: [...createRefusals, ...unreadable.map((item) => ({ ...rejectOf(item), error: unreadableIdReason(namedId(item), env) }))],
      };
    },
    ...sendingHooks(receipt.writer, { idOf: (item) => receiptId(itemId(item)) }),
    onAcknowledged: async (answers: Accepted[]) => {
      const { answerPerItem, isReplayed } = await import('../../bulk/split.js');
      receipt.writer.records(
        answers.flatMap((answer) => {
          // Carried out by an earlier, stopped run: kept here (undo needs it), counted as replayed.
          const replayed = isReplayed(answer.result);
          return answerPerItem([answer]).map(({ item, result }) => {
            const before = befores.get(item);
            const after = asRecord(result);
            const action = actionOf(verb, item, before, after);
            // A create's id is the one the service gave (an upsert naming an unknown id gets a new one): what undo deletes.
            const id = receiptId(action === 'create' ? (after?.id ?? itemId(item)) : (itemId(item) ?? after?.id));
            return {
              action,
              ...(id !== undefined ? { id } : {}),
              line: item.line,
              ...(before ? { before } : {}),
              ...(after ? { after } : {}),
              ...(replayed ? { replayed: true as const } : {}),
              ...(answer.already ? { already: true as const } : {}),
            };
          });
        }),
      );
    },
  };
}

export interface BulkCommandOptions {
  /** The item count when known: the progress bar's share and ETA. */
  total?: number;
  /** Told what the service answered for each accepted request, in input order. */
  onAnswers?: (answers: Accepted[]) => Promise<void>;
}

/**
 * Runs `items` through the bulk operation, prints the summary line on stderr, and
 * throws the partial failure (exit 9) when some failed. The run leaves a receipt.
 */
export async function runBulkCommand(
  ctx: CommandContext<BulkRunOptions>,
  operationId: OperationId,
  items: AsyncIterable<SourceItem>,
  options: BulkCommandOptions = {},
): Promise<void> {
  const [{ runBulk, formatSummary, partialFailure, summaryOfStoppedRun, unknownOutcomeNote }, { runsDir }, { maskedCommandLine }, { join }] = await Promise.all(
    [import('../../bulk/index.js'), import('../../runs/receipt-store.js'), import('../../runs/command-line.js'), import('node:path')],
  );
  const { opts } = ctx;
  // The command that finishes a stopped run: this one, naming its checkpoint.
  const namesCheckpoint = ctx.argv.some((arg) => arg === '--checkpoint' || arg.startsWith('--checkpoint='));
  const rerun = (checkpoint: string) => `pla ${maskedCommandLine(namesCheckpoint ? ctx.argv : [...ctx.argv, '--checkpoint', checkpoint])}`;
  await withReceipt(ctx, operation(operationId).resource, async (receipt) => {
    const summary = await runBulk({
      client: await ctx.client({ finishInFlight: true }),
      operationId,
      items,
      batchSize: opts.batchSize,
      concurrency: opts.concurrency,
      rejectsPath: opts.rejects,
      runName: receipt.writer.run,
      folder: ctx.cwd,
      ...inputPathOf(opts),
      rejectsFormat: await inputFormat(opts),
      checkpointPath: opts.checkpoint,
      // Without --checkpoint, one beside the receipt: a stopped run can still be finished without sending twice.
      autoCheckpointPath: join(runsDir(ctx.env), `${receipt.writer.run}.checkpoint.json`),
      force: opts.force === true,
      rerun,
      runId: receipt.writer.run,
      unknownPath: opts.unknownOutcome,
      retryUnsafe: opts.retryUnsafe === true,
      goneIsDone: opts.ignoreNotFound === true,
      signal: ctx.signal,
      warn: (line: string) => ctx.warn(line),
      progress: ctx.startProgress,
      ...(options.total === undefined ? {} : { total: options.total }),
      ...(options.onAnswers ? { onAnswers: options.onAnswers } : {}),
      ...receiptHooks(ctx, operationId, receipt),
    }).catch((error: unknown) => {
      // A run stopped by an error still says what it did, and what became of the records in flight.
      const stopped = summaryOfStoppedRun(error);
      if (stopped) {
        ctx.note(formatSummary(stopped));
        if (stopped.unknown > 0) {
          const note = unknownOutcomeNote(stopped);
          ctx.output.warn?.(`warning: ${note.message}; ${note.hint}`);
        }
      }
      throw error;
    });
    receipt.writer.count('failed', summary.failed);
    receipt.writer.count('unknown', summary.unknown);
    if (summary.repeats > 0) receipt.writer.count('repeats', summary.repeats);
    // An interrupted run does not get here: runBulk throws InterruptedError, with
    // the resume hint, once its batches in flight have landed.
    ctx.note(formatSummary(summary));
    const failure = partialFailure(summary);
    if (failure) throw failure;
  });
}

/**
 * Runs a bulk command and prints what the service returned for each record, in
 * input order (see answers.ts); `one` when the input was a single record.
 */
export async function runBulkPrinting(
  ctx: CommandContext<BulkRunOptions>,
  operationId: OperationId,
  items: AsyncIterable<SourceItem>,
  options: { total?: number; one?: boolean } = {},
): Promise<void> {
  const { answeredRecords, createAnswerWriter } = await import('./answers.js');
  const writer = await createAnswerWriter(ctx, { one: options.one });
  try {
    await runBulkCommand(ctx, operationId, items, {
      ...(options.total === undefined ? {} : { total: options.total }),
      onAnswers: (answers) => writer.write(answers.flatMap(answeredRecords)),
    });
  } catch (error) {
    // What was answered before the failure is still shown; the failure is what is reported.
    await writer.end().catch(() => undefined);
    throw error;
  }
  await writer.end();
}
