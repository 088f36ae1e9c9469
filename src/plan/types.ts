/**
 * A plan: what a write command would do, computed from the records' current state
 * before anything is sent (`--plan`), saved with `--plan-out` and sent exactly as
 * reviewed by `pla apply`. Plain data, stable on disk (`version`).
 */
import type { RecordId } from '../contract/ids.js';
import type { OperationId } from '../contract/operations.js';

/** What a plan does with one record (or says it will not). */
export type PlanAction =
  | 'create'
  | 'update'
  | 'unchanged'
  | 'delete'
  | 'remove'
  | 'decommission'
  | 'cancel'
  /** The service would refuse it (unknown id, already decommissioned, task finished), or pla does (an id that is no id, an ambiguous duplicate): not sent. */
  | 'refused'
  /** An input row that could not be read: not sent. */
  | 'unreadable'
  /** An input row repeating an earlier one exactly (same id and values): sent once, as that one. */
  | 'repeat'
  /** An undo that the interface cannot perform (a decommission has no reverse): listed, not sent. */
  | 'irreversible';

/** Actions whose entries are sent by `pla apply`. */
export const SENT_ACTIONS: readonly PlanAction[] = ['create', 'update', 'delete', 'remove', 'decommission', 'cancel'];

/** One changed field of an update: `old` absent when the field is new. */
export interface FieldChange {
  field: string;
  old?: unknown;
  new: unknown;
}

export type StoredRecordLike = Record<string, unknown>;

export interface PlanEntry {
  action: PlanAction;
  /** The record's id, when it has one (every entry but a create). */
  id?: RecordId;
  /** Input line the entry came from, for messages. */
  line?: number;
  /** What is sent: the record for creates and updates (ids are sent for id actions). */
  record?: StoredRecordLike;
  /** The record as the plan saw it; `pla apply` refuses to write it if it changed since. */
  before?: StoredRecordLike;
  /** Of an update: each changed field, old → new. */
  changes?: FieldChange[];
  /** Why an entry is refused or irreversible, or a remark (a remove that decommissions). */
  reason?: string;
  /** Of an unreadable row: its text as read. */
  raw?: string;
  /** Fields whose type the write changes (a stored string sent as a number): shown as warnings. */
  warnings?: string[];
}

/**
 * How `pla apply` knows a record changed since the plan read it: every record
 * modified since `value` of `field` (the newest modification the service knew of
 * when the plan started reading) is listed by the list operation sorted on `field`.
 */
export interface Watermark {
  field: string;
  value: string;
}

export interface Plan {
  kind: 'pla-plan';
  version: 1;
  /**
   * The plan's identity (a random UUID): its receipts record it, and `pla apply`
   * refuses a plan already applied (absent in plans of older versions).
   */
  id?: string;
  createdAt: string;
  /** The environment and base URL the plan was read from; apply refuses any other. */
  env: string;
  baseUrl: string;
  /** Resource group (`determinations`). */
  resource: string;
  /** What the plan was made by, secrets masked (`determinations upsert --file x.csv`). */
  command: string;
  /** Of an undo's plan (`pla runs undo`, also when saved and applied later): the run it undoes, which is undone once. */
  undoOf?: string;
  /** The operation each sent action goes through (bulk operations). */
  operations: Partial<Record<PlanAction, OperationId>>;
  watermark?: Watermark;
  /** Entries per action. */
  counts: Partial<Record<PlanAction, number>>;
  entries: PlanEntry[];
  /** What was reviewed (plan-digest.ts): `pla apply` refuses a plan that no longer matches it (absent only in plans of older versions, which apply refuses). */
  digest?: PlanDigest;
}

/** Digests (sha-256, 32 hex digits) of a plan's parts, as it was made and shown (src/plan/plan-digest.ts). */
export interface PlanDigest {
  algorithm: 'sha256';
  /** Of all the digests below: the plan's fingerprint, named by the prompt and the receipt. */
  plan: string;
  /** Of the readable diff the plan shows (without colour). */
  shown: string;
  /** Of each field but the entries (env, baseUrl, operations, counts, …). */
  fields: Record<string, string>;
  /** Of each entry, in order. */
  entries: string[];
}

/** Counts entries per action. */
export function countActions(entries: readonly PlanEntry[]): Partial<Record<PlanAction, number>> {
  const counts: Partial<Record<PlanAction, number>> = {};
  for (const entry of entries) counts[entry.action] = (counts[entry.action] ?? 0) + 1;
  return counts;
}
