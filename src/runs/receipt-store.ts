/**
 * The receipts kept under `<config folder>/runs/`: listing them (header and end
 * line only, so a receipt of a million records lists as fast as one of ten),
 * reading one line by line, and pruning old ones. A receipt that cannot be read
 * is never passed over: it is listed as damaged, and what depends on it (applying
 * its plan again, undoing its run) is refused, since what it did is not known.
 */
import { createReadStream } from 'node:fs';
import { open, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { configDir } from '../config/config-dir.js';
import { UsageError } from '../errors.js';
import type { EndLine, ReceiptLine, RunHeader } from './types.js';
import { parseJson } from '../json/json-parse.js';

/** Where receipts live: `runs/` beside `config.json`. */
export function runsDir(env: Readonly<Record<string, string | undefined>>): string {
  return join(configDir(env), 'runs');
}

/** A receipt as `pla runs list` shows it. */
export interface RunSummary {
  header: RunHeader;
  /** Absent when the run crashed (or is still running). */
  end?: EndLine;
  path: string;
  /** Why a line after its first cannot be read (edited or damaged): what depends on the receipt is refused. */
  damaged?: string;
}

/** A receipt whose first line cannot be read: which run, plan or environment it was for is not known. */
export interface DamagedReceipt {
  path: string;
  /** Its run id, from the file's name. */
  run: string;
  reason: string;
}

/** What the receipts folder holds: receipts that can be read, oldest first, and receipts that cannot. */
export interface ReceiptFolder {
  runs: RunSummary[];
  damaged: DamagedReceipt[];
}

const EDGE_BYTES = 64 * 1024;

/** A receipt's file name: its run id (run-id.ts) and `.ndjson`. Other files in the folder are not pla's receipts. */
const RECEIPT_NAME = /^(\d{8}-\d{6}-\d{3}-[0-9a-f]{4})\.ndjson$/;

const LINE_TYPES: ReadonlySet<unknown> = new Set(['run', 'record', 'sending', 'settled', 'end']);

/** A receipt line, or `undefined` when the text is not one (not JSON, not an object, no known type). */
function parseLine(text: string | undefined): ReceiptLine | undefined {
  if (!text) return undefined;
  let line: unknown;
  try {
    line = parseJson(text);
  } catch {
    return undefined;
  }
  if (typeof line !== 'object' || line === null || Array.isArray(line)) return undefined;
  return 'type' in line && Object.hasOwn(line, 'type') && LINE_TYPES.has(line.type) ? (line as ReceiptLine) : undefined;
}

/**
 * Reads a receipt's ends, at most 64 KiB from each: its header, and its last whole
 * line. A last line without its newline was being written when the run was stopped
 * (a crash, kill -9): it is passed over, as by `readReceipt`; any other line that is
 * not a receipt line is damage.
 */
async function readEdges(path: string): Promise<{ header?: RunHeader; end?: EndLine; damage?: string }> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    if (size === 0) return { damage: 'it is empty' };
    const head = Buffer.alloc(Math.min(EDGE_BYTES, size));
    await file.read(head, 0, head.length, 0);
    const newline = head.indexOf(0x0a);
    const header = newline < 0 ? undefined : parseLine(head.subarray(0, newline).toString('utf8'));
    if (header?.type !== 'run') return { damage: newline < 0 ? 'its first line is cut short' : 'its first line is not the header pla writes' };
    const tailStart = Math.max(0, size - EDGE_BYTES);
    const tail = Buffer.alloc(size - tailStart);
    await file.read(tail, 0, tail.length, tailStart);
    const lines = tail.toString('utf8').split('\n');
    lines.pop(); // what follows the last newline: '' or a line torn by a crash
    const last = lines.filter(Boolean).at(-1);
    const lastLine = parseLine(last);
    if (last !== undefined && lastLine === undefined && size > newline + 1) return { header, damage: 'its last line is not a receipt line' };
    return { header, ...(lastLine?.type === 'end' ? { end: lastLine } : {}) };
  } finally {
    await file.close();
  }
}

/** Every receipt, oldest first, and the receipts whose header cannot be read; files not named as receipts are passed over. */
export async function readRunsFolder(dir: string): Promise<ReceiptFolder> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => RECEIPT_NAME.test(name)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { runs: [], damaged: [] };
    throw error;
  }
  const folder: ReceiptFolder = { runs: [], damaged: [] };
  for (const name of names) {
    const path = join(dir, name);
    const { header, end, damage } = await readEdges(path);
    if (!header) folder.damaged.push({ path, run: name.replace(/\.ndjson$/, ''), reason: damage ?? 'unreadable' });
    else folder.runs.push({ header, path, ...(end ? { end } : {}), ...(damage ? { damaged: damage } : {}) });
  }
  return folder;
}

/** Every receipt whose header can be read, oldest first. */
export async function listRuns(dir: string): Promise<RunSummary[]> {
  return (await readRunsFolder(dir)).runs;
}

/** The refusal of what depends on a damaged receipt (exit 2): it is not guessed at. */
export function damagedReceiptError(path: string, reason: string, refused: string): UsageError {
  return new UsageError(`the receipt ${path} is damaged (${reason}), so ${refused}; nothing was sent`, {
    hint: 'a receipt is what pla knows of a run: restore it from a backup, or, once you have checked by hand what that run did, move it out of the runs folder',
  });
}

/**
 * Refuses what cannot be known while a receipt's header cannot be read: that
 * receipt could be of the same plan, or an undo of the same run.
 */
export function refuseIfAnyUnreadable(folder: ReceiptFolder, refused: string): void {
  const [first] = folder.damaged;
  if (first) throw damagedReceiptError(first.path, first.reason, `pla cannot tell which run it was, and ${refused}`);
}

/** The receipt a run id (or a unique prefix of one, or `last`) names; a damaged one is refused by name. */
export async function findRun(id: string, dir: string): Promise<RunSummary> {
  const { runs, damaged } = await readRunsFolder(dir);
  if (id === 'last' && runs.length > 0) return runs[runs.length - 1] as RunSummary;
  const matches = runs.filter((run) => run.header.run === id || run.header.run.startsWith(id));
  if (matches.length === 1) return matches[0] as RunSummary;
  const unreadable = damaged.find((receipt) => receipt.run === id || receipt.run.startsWith(id));
  if (matches.length === 0 && unreadable) throw damagedReceiptError(unreadable.path, unreadable.reason, `run ${unreadable.run} cannot be shown or undone`);
  if (matches.length === 0) throw new UsageError(`no run ${id}`, { hint: 'pla runs list shows the runs kept' });
  throw new UsageError(`${id} names ${matches.length} runs`, { hint: 'give more of the run id' });
}

/** Thrown by `readReceipt` at a line that is not a receipt line (edited or damaged), unless it is the torn last line of a crash. */
export class DamagedLineError extends Error {
  constructor(
    readonly path: string,
    readonly line: number,
  ) {
    super(`line ${line} is not a receipt line`);
  }
}

/**
 * Every line of a receipt, in order. A torn last line (a crash mid-write: no
 * newline after it) is skipped; any other line that cannot be read throws
 * `DamagedLineError`: what the receipt holds past it is not known.
 */
export async function* readReceipt(path: string): AsyncGenerator<ReceiptLine> {
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  let number = 0;
  let bad: number | undefined;
  for await (const text of lines) {
    number += 1;
    if (bad !== undefined) throw new DamagedLineError(path, bad);
    const line = parseLine(text);
    if (line) yield line;
    else if (text !== '') bad = number;
  }
  if (bad !== undefined && (await endsWithNewline(path))) throw new DamagedLineError(path, bad);
}

async function endsWithNewline(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const last = Buffer.alloc(1);
    await file.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    await file.close();
  }
}

/** Every line of a receipt, as `readReceipt`; a damaged line refuses (exit 2) what is `refused`. */
export async function* receiptLines(path: string, refused: string): AsyncGenerator<ReceiptLine> {
  try {
    yield* readReceipt(path);
  } catch (error) {
    if (error instanceof DamagedLineError) throw damagedReceiptError(path, error.message, refused);
    throw error;
  }
}

/** Removes receipts that started before `before`, or all (damaged ones included, whose start is not known); returns how many. */
export async function pruneRuns(before: Date | undefined, dir: string): Promise<number> {
  const { runs, damaged } = await readRunsFolder(dir);
  const doomed = [
    ...runs.filter((run) => !before || Date.parse(run.header.startedAt) < before.getTime()).map((run) => run.path),
    ...(before ? [] : damaged.map((receipt) => receipt.path)),
  ];
  for (const path of doomed) {
    await rm(path, { force: true });
    // The checkpoint a bulk run got beside its receipt (no --checkpoint given) goes with it.
    await rm(path.replace(/\.ndjson$/, '.checkpoint.json'), { force: true });
  }
  return doomed.length;
}
