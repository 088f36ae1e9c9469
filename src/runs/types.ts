/**
 * Receipts: one append-only ndjson file per run that changes something, under the
 * config folder's `runs/`. The first line says who ran what where; then one line
 * per acknowledged record; the last line, when the run ended at all, its outcome.
 */

import type { RecordId } from '../contract/ids.js';

/** The first line of a receipt. */
export interface RunHeader {
  type: 'run';
  /** Sortable by start time: `20261122-204512-031-3fa9`. */
  run: string;
  env: string;
  baseUrl: string;
  /** `sha256:` and the first 16 hex digits of the key's hash; never the key. */
  keyFingerprint?: string;
  user: string;
  version: string;
  /** The command line, secrets masked. */
  command: string;
  /** Resource group the run changed (`determinations`): what an undo reads and writes. */
  resource: string;
  startedAt: string;
  /** The environment is protected: records-before were read for every change. */
  protected: boolean;
  /** Set on the receipt of an undo: the run it undoes. */
  undoOf?: string;
  /** Set on the receipt of `pla apply`: the identity of the plan applied (a plan is applied once). */
  plan?: string;
  /** Of `pla apply` and `pla runs undo`: the digest of the plan sent (`sha256:` and 16 hex digits), as its confirmation showed it. */
  planDigest?: string;
}

/** What was done to one record, as the service acknowledged it. */
export interface RecordLine {
  type: 'record';
  action: string;
  /** The id, exact past 2^53 (a BigInt once read back); text only for what names no id. Older receipts hold the digits of ids past 2^53 as text. */
  id?: RecordId | string;
  /** The record before the change, where known (always on protected environments). */
  before?: Record<string, unknown>;
  /** The record as the service answered, where it answers one. */
  after?: Record<string, unknown>;
  /** The input line it came from (for `pla apply`, the plan entry's position, from 1). */
  line?: number;
  /** Of `pla apply`: the index of the plan entry it carried out. */
  entry?: number;
  /**
   * Sent, and the service confirmed neither way (a delete retried after a 5xx and
   * then answered 404: probably done by the earlier attempt). Counted as unknown,
   * kept with its `before` so that undo can restore the record if it is gone.
   */
  unconfirmed?: true;
  /**
   * Answered again under its Idempotency-Key: carried out by an earlier, stopped
   * attempt of the same run (its checkpoint's), whose receipt may not hold it.
   * Counted as replayed; undo treats it as the action it names.
   */
  replayed?: true;
  /**
   * Refused, and found already as the action wanted (a task already cancelled, a
   * record already gone under `--ignore-not-found`): this run changed nothing of it.
   */
  already?: true;
}

/**
 * Written before a batch is sent: what is about to be sent. Until its `settled`
 * line follows, the service may or may not have carried it out (the run stopped
 * or crashed in between).
 */
export interface SendingLine {
  type: 'sending';
  /** The batch's number in this receipt, from 1. */
  batch: number;
  items: Array<{ line: number; id?: RecordId | string; entry?: number }>;
}

/** Written once a batch's answer is known and its records are in the receipt; `unknown` lists the lines whose outcome stays unknown. */
export interface SettledLine {
  type: 'settled';
  batch: number;
  unknown?: number[];
}

/** The last line: how the run ended. A receipt without one belongs to a run that crashed or is still running. */
export interface EndLine {
  type: 'end';
  endedAt: string;
  exitCode: number;
  counts: Record<string, number>;
}

export type ReceiptLine = RunHeader | RecordLine | SendingLine | SettledLine | EndLine;
