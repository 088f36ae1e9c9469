/**
 * The receipts kept under `<config folder>/runs/`: listing them (header and end
 * line only, so a receipt of a million records lists as fast as one of ten),
 * reading one line by line, and pruning old ones.
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
}

const EDGE_BYTES = 64 * 1024;

/** The first and last complete lines of a file, reading at most 64 KiB from each end. */
async function edgeLines(path: string): Promise<{ first?: string; last?: string }> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const head = Buffer.alloc(Math.min(EDGE_BYTES, size));
    await file.read(head, 0, head.length, 0);
    const first = head.toString('utf8').split('\n', 1)[0];
    const tailStart = Math.max(0, size - EDGE_BYTES);
    const tail = Buffer.alloc(size - tailStart);
    await file.read(tail, 0, tail.length, tailStart);
    const lines = tail.toString('utf8').split('\n').filter(Boolean);
    return { first, last: lines[lines.length - 1] };
  } finally {
    await file.close();
  }
}

function parseLine(text: string | undefined): ReceiptLine | undefined {
  if (!text) return undefined;
  try {
    return parseJson(text) as ReceiptLine;
  } catch {
    return undefined;
  }
}

/** Every receipt, oldest first; files that are not receipts are passed over. */
export async function listRuns(dir: string): Promise<RunSummary[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.ndjson')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const runs: RunSummary[] = [];
  for (const name of names) {
    const path = join(dir, name);
    const { first, last } = await edgeLines(path);
    const header = parseLine(first);
    if (header?.type !== 'run') continue;
    const end = parseLine(last);
    runs.push({ header, path, ...(end?.type === 'end' ? { end } : {}) });
  }
  return runs;
}

/** The receipt a run id (or a unique prefix of one, or `last`) names. */
export async function findRun(id: string, dir: string): Promise<RunSummary> {
  const runs = await listRuns(dir);
  if (id === 'last' && runs.length > 0) return runs[runs.length - 1] as RunSummary;
  const matches = runs.filter((run) => run.header.run === id || run.header.run.startsWith(id));
  if (matches.length === 1) return matches[0] as RunSummary;
  if (matches.length === 0) throw new UsageError(`no run ${id}`, { hint: 'pla runs list shows the runs kept' });
  throw new UsageError(`${id} names ${matches.length} runs`, { hint: 'give more of the run id' });
}

/** Every line of a receipt, in order; a torn last line (a crash mid-write) is skipped. */
export async function* readReceipt(path: string): AsyncGenerator<ReceiptLine> {
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  for await (const text of lines) {
    const line = parseLine(text);
    if (line) yield line;
  }
}

/** Removes receipts that started before `before` (or all); returns how many. */
export async function pruneRuns(before: Date | undefined, dir: string): Promise<number> {
  let removed = 0;
  for (const run of await listRuns(dir)) {
    if (before && Date.parse(run.header.startedAt) >= before.getTime()) continue;
    await rm(run.path, { force: true });
    // The checkpoint a bulk run got beside its receipt (no --checkpoint given) goes with it.
    await rm(run.path.replace(/\.ndjson$/, '.checkpoint.json'), { force: true });
    removed += 1;
  }
  return removed;
}
