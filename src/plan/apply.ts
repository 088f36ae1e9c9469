/**
 * Sending a plan exactly as it was reviewed, through the bulk runner (batches,
 * rejects, checkpoint, Ctrl-C): only the entries that change something are sent,
 * each through the operation the plan names for its action; before each batch the
 * records it touches are checked against what the plan saw (conflicts are not
 * written); what the service acknowledges goes to the receipt as it comes.
 */
import { toRecordId } from '../contract/ids.js';
import type { PlaClient } from '../client/types.js';
import type { OperationId } from '../contract/operations.js';
import { answerPerItem, rejectOf } from '../bulk/split.js';
import type { BulkOptions, BulkSummary } from '../bulk/types.js';
import type { SourceItem } from '../io/input/types.js';
import type { ReceiptWriter } from '../runs/receipt-writer.js';
import { sendingHooks } from '../runs/sending-hooks.js';
import { ConflictChecker } from './conflicts.js';
import { stateOf } from './current-state.js';
import { SENT_ACTIONS, type Plan, type PlanEntry } from './types.js';
import { asRecord } from './record-diff.js';

/** The bulk runner's settings an apply passes through. */
export type ApplyBulkSettings = Pick<
  BulkOptions,
  'batchSize' | 'concurrency' | 'rejectsPath' | 'rejectsFormat' | 'checkpointPath' | 'force' | 'runId' | 'signal' | 'progress' | 'runName' | 'folder'
>;

export interface ApplyOptions {
  client: PlaClient;
  plan: Plan;
  bulk: ApplyBulkSettings;
  receipt?: ReceiptWriter;
  /** Check records against the plan before each batch (default true). */
  checkConflicts?: boolean;
  /** Entries (by index in the plan) not to send: done by an earlier apply of the same plan. */
  skip?: ReadonlySet<number>;
}

export interface ApplyResult {
  summaries: BulkSummary[];
  /** Records not written because they changed since the plan. */
  conflicts: number;
}

/** The entries to send, grouped by the operation that sends them, in plan order. */
export function sendGroups(plan: Plan, skip: ReadonlySet<number> = new Set()): Array<{ operationId: OperationId; entries: PlanEntry[] }> {
  const groups = new Map<OperationId, PlanEntry[]>();
  for (const [index, entry] of plan.entries.entries()) {
    if (!SENT_ACTIONS.includes(entry.action) || skip.has(index)) continue;
    const operationId = plan.operations[entry.action];
    if (!operationId) throw new Error(`plan names no operation for ${entry.action}`);
    const group = groups.get(operationId) ?? [];
    group.push(entry);
    groups.set(operationId, group);
  }
  return [...groups].map(([operationId, entries]) => ({ operationId, entries }));
}

/** `rejects.ndjson` → `rejects.2.ndjson` for the second operation of a plan, so groups do not overwrite each other. */
function numbered(path: string | undefined, group: number): string | undefined {
  if (path === undefined || group === 0) return path;
  const dot = path.lastIndexOf('.');
  return dot > path.lastIndexOf('/') ? `${path.slice(0, dot)}.${group + 1}${path.slice(dot)}` : `${path}.${group + 1}`;
}

/** What is sent for an entry: its record, or its id. */
function payloadOf(entry: PlanEntry): unknown {
  return entry.record ?? entry.id;
}

/** Applies the plan; partial failure (rejects, conflicts) is in the result, errors that stop the run are thrown. */
export async function applyPlan(options: ApplyOptions): Promise<ApplyResult> {
  const { runBulk } = await import('../bulk/run-bulk.js');
  const { plan, client } = options;
  const source = stateOf(plan.resource);
  const checker = options.checkConflicts === false ? undefined : new ConflictChecker(client, source, plan.watermark, options.bulk.signal);
  const result: ApplyResult = { summaries: [], conflicts: 0 };
  const indexOf = new Map(plan.entries.map((entry, index) => [entry, index]));

  for (const [index, group] of sendGroups(plan, options.skip).entries()) {
    // Items carry their entry's file line (so rejects name the line the plan showed), or,
    // where entries have none or share one, their position in the group: the way back to the entry.
    const lines = group.entries.map((entry) => entry.line);
    const byFileLine = lines.every((line) => line !== undefined) && new Set(lines).size === lines.length;
    const lineOf = (entry: PlanEntry, i: number) => (byFileLine ? (entry.line as number) : i + 1);
    const entryByLine = new Map(group.entries.map((entry, i) => [lineOf(entry, i), entry]));
    const entryOf = (item: SourceItem) => entryByLine.get(item.line) as PlanEntry;
    const entryIndex = (item: SourceItem) => indexOf.get(entryOf(item)) as number;
    const generate = async function* () {
      for (const [i, entry] of group.entries.entries()) yield { value: payloadOf(entry), line: lineOf(entry, i), ...(entry.row ? { row: entry.row } : {}) };
    };
    // A sheet's rejects are written in its form (its header, separator), as a run of the sheet writes them.
    const form = plan.input;
    const items = Object.assign(generate(), { sheetForm: () => form, csvDelimiter: () => (form?.format === 'csv' ? form.delimiter : undefined) });
    const summary = await runBulk({
      ...options.bulk,
      rejectsPath: numbered(options.bulk.rejectsPath, index),
      checkpointPath: numbered(options.bulk.checkpointPath, index),
      client,
      operationId: group.operationId,
      items,
      total: group.entries.length,
      ...(checker
        ? {
            screen: async (batch: SourceItem[]) => {
              const conflicts = await checker.check(batch.map(entryOf));
              if (conflicts.length === 0) return { send: batch, refused: [] };
              result.conflicts += conflicts.length;
              const held = new Map(conflicts.map((conflict) => [conflict.entry, conflict.reason]));
              return {
                send: batch.filter((item) => !held.has(entryOf(item))),
                refused: batch.filter((item) => held.has(entryOf(item))).map((item) => ({ ...rejectOf(item), error: held.get(entryOf(item)) as string })),
              };
            },
          }
        : {}),
      ...(options.receipt
        ? sendingHooks(options.receipt, { idOf: (item) => entryOf(item).id, entryOf: entryIndex, lineOf: (item) => entryOf(item).line ?? item.line })
        : {}),
      onAcknowledged: (answers) => {
        const lines = answerPerItem(answers).map(({ item, result }) => {
          const entry = entryOf(item);
          const after = asRecord(result);
          checker?.wrote(after);
          // A create's id is the one the service gave (an upsert naming an unknown id gets a new one).
          const answered = toRecordId(after?.id);
          const id = entry.action === 'create' ? (answered ?? entry.id) : (entry.id ?? answered);
          return {
            action: entry.action,
            ...(id !== undefined ? { id } : {}),
            entry: entryIndex(item),
            ...(entry.line !== undefined ? { line: entry.line } : {}),
            ...(entry.before ? { before: entry.before } : {}),
            ...(after ? { after } : {}),
          };
        });
        options.receipt?.records(lines);
      },
    });
    result.summaries.push(summary);
  }
  return result;
}
