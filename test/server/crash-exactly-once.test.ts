/**
 * Exactly once across a crash of the service: the local server is killed (kill -9)
 * in the middle of a bulk upsert or create of 200,000 records without ids, then
 * started again at once, or later with the run resumed from its checkpoint. Every
 * record ends up in the store exactly once, and the CLI's counts (acknowledged, and
 * of unknown outcome) match what the store holds.
 *
 * The kill waits for a condition (enough records committed), never for a time;
 * what is asserted holds wherever the kill lands. Each run moves 200,000 records
 * through the built CLI and a real server, hence the long timeouts.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../store/temp-dirs.js';
import { startLocalServer, type LocalServer, type PlaResult } from '../support/local-server.js';

const TOTAL = 200_000;
/** Records committed before the kill: well into the run, far from its end. */
const KILL_AFTER = 30_000;
const TIMEOUT_MS = 600_000;
const DET = '/api/v1/asset-transaction-type-determinations';

let input = '';
beforeAll(async () => {
  input = join(await tempDir('pla-crash-'), 'records.ndjson');
  const lines: string[] = [];
  for (let i = 0; i < TOTAL; i++) lines.push(`{"ref":"r${i}","amount":${i}}`);
  await writeFile(input, `${lines.join('\n')}\n`);
});

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.stop('SIGKILL');
  server = undefined;
});

/** Polls `condition` until it holds, failing after `timeoutMs`. */
async function waitFor(condition: () => Promise<boolean>, what: string, timeoutMs = TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function committed(local: LocalServer): Promise<number> {
  const health = await local.http('GET', '/_admin/health', { key: null });
  return (health.body as { records: { determinations: number } }).records.determinations;
}

/** How many records of each `ref` the store holds, read back through the CLI's export. */
async function refsInStore(local: LocalServer): Promise<Map<string, number>> {
  const exported = await local.pla(['determinations', 'list', '--all', '--size', '1000', '-o', 'ndjson'], { reject: true });
  const counts = new Map<string, number>();
  for (const line of exported.stdout.split('\n')) {
    if (!line) continue;
    const { ref } = JSON.parse(line) as { ref: string };
    counts.set(ref, (counts.get(ref) ?? 0) + 1);
  }
  return counts;
}

/** The refs in the unknown-outcome file (none when it was not written). */
async function refsIn(path: string): Promise<string[]> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { ref: string }).ref);
}

/** The counts of the CLI's summary line: records acknowledged (done by this run, or replayed), and of unknown outcome. */
function counts(result: PlaResult): { succeeded: number; unknown: number } {
  const line = /^(?:upserted|created) ([\d,]+).*$/m.exec(result.stderr);
  if (!line?.[1]) throw new Error(`no summary line (exit ${String(result.exitCode)}):\n${result.stderr.slice(-2000)}`);
  const number = (text: string | undefined) => Number((text ?? '0').replace(/,/g, ''));
  const replayed = number(/, replayed ([\d,]+)/.exec(line[0])?.[1]);
  return { succeeded: number(line[1]) + replayed, unknown: number(/outcome unknown ([\d,]+)/.exec(line[0])?.[1]) };
}

/** Every record is in the store exactly once. */
function expectExactlyOnce(store: Map<string, number>): void {
  const twice = [...store].filter(([, n]) => n > 1).map(([ref]) => ref);
  expect(twice).toEqual([]);
  expect(store.size).toBe(TOTAL);
}

/**
 * Starts a server and `pla determinations <verb>` of the 200,000 records against it,
 * and resolves once enough of them are committed for a kill to land mid-run.
 */
async function runUntilKillPoint(verb: 'upsert' | 'create', extra: string[]) {
  const local = await startLocalServer({ seed: false });
  server = local;
  const dir = await tempDir('pla-crash-run-');
  const unknownFile = join(dir, 'unknown.ndjson');
  const args = [
    'determinations',
    verb,
    '--file',
    input,
    '--checkpoint',
    join(dir, 'run.ckpt'),
    '--unknown-outcome',
    unknownFile,
    '-o',
    'ndjson',
    '--fields',
    'id',
    ...extra,
  ];
  const run = local.pla(args);
  await waitFor(async () => (await committed(local)) >= KILL_AFTER, `${KILL_AFTER} records committed`);
  return { local, args, run, unknownFile };
}

describe('kill -9 of the local server during a bulk run of 200,000 records without ids', () => {
  it(
    'upsert, server restarted at once: batches in flight go to the unknown-outcome file, the rest goes through; a resume with --retry-unsafe completes exactly once',
    { timeout: TIMEOUT_MS },
    async () => {
      const { local, args, run, unknownFile } = await runUntilKillPoint('upsert', ['--retries', '10']);
      await local.restart('SIGKILL');
      const first = await run;

      // Only the batches in flight at the kill can be of unknown outcome; they were not resent.
      expect([0, 9]).toContain(first.exitCode);
      const { succeeded, unknown } = counts(first);
      const unknownRefs = await refsIn(unknownFile);
      expect(unknownRefs).toHaveLength(unknown);
      expect(succeeded + unknown).toBe(TOTAL);
      if (unknown > 0) expect(first.stderr).toMatch(/hint: check them with --plan/);

      const store = await refsInStore(local);
      expect([...store.values()].every((n) => n === 1)).toBe(true);
      const uncertain = new Set(unknownRefs);
      const acknowledged = Array.from({ length: TOTAL }, (_, i) => `r${i}`).filter((ref) => !uncertain.has(ref));
      expect(acknowledged.filter((ref) => store.get(ref) !== 1)).toEqual([]);
      // The store holds what the CLI counted, plus those of unknown outcome the server had committed.
      expect(store.size).toBe(succeeded + unknownRefs.filter((ref) => store.has(ref)).length);

      // Resent under the keys they had: the server replays what it had committed.
      // (When the kill caught no request in flight, the run was complete already.)
      if (unknown > 0) {
        const second = await local.pla([...args, '--retry-unsafe']);
        expect(second.exitCode).toBe(0);
        expect(counts(second)).toEqual({ succeeded: unknown, unknown: 0 });
      }
      expectExactlyOnce(await refsInStore(local));
    },
  );

  it(
    'create, server restarted later: the run stops, and the resume sends what was unfinished under the same keys: exactly once',
    { timeout: TIMEOUT_MS },
    async () => {
      const { local, args, run, unknownFile } = await runUntilKillPoint('create', ['--retries', '1']);
      let first: PlaResult | undefined;
      // Down until the run has given up on it.
      await local.restart('SIGKILL', async () => (first = await run));
      // The network error stopped the run; its summary still says what went through and what is unknown.
      expect(first?.exitCode).toBe(8);
      const firstCounts = counts(first!);
      const unknownRefs = await refsIn(unknownFile);
      expect(unknownRefs).toHaveLength(firstCounts.unknown);
      const before = await refsInStore(local);
      expect([...before.values()].every((n) => n === 1)).toBe(true);
      expect(before.size).toBe(firstCounts.succeeded + unknownRefs.filter((ref) => before.has(ref)).length);

      const second = await local.pla([...args, '--retry-unsafe']);
      expect(second.exitCode).toBe(0);
      const secondCounts = counts(second);
      expect(secondCounts.unknown).toBe(0);
      // Each record acknowledged once, in one run or the other; the store has each once.
      expect(firstCounts.succeeded + secondCounts.succeeded).toBe(TOTAL);
      expectExactlyOnce(await refsInStore(local));
    },
  );

  it(
    'create with --retry-unsafe, server restarted at once: the batches in flight are resent under their keys and replayed, no unknown outcome',
    { timeout: TIMEOUT_MS },
    async () => {
      const { local, run } = await runUntilKillPoint('create', ['--retries', '10', '--retry-unsafe']);
      await local.restart('SIGKILL');
      const result = await run;
      expect(result.exitCode).toBe(0);
      expect(counts(result)).toEqual({ succeeded: TOTAL, unknown: 0 });
      expectExactlyOnce(await refsInStore(local));
      // The ids the CLI printed (one per created record, from first replies and replays) are those in the store.
      const printed = new Set(result.stdout.split('\n').filter(Boolean));
      expect(printed.size).toBe(TOTAL);
      const stored = await local.http('GET', `${DET}?page=0&size=1`);
      expect((stored.body as { page: { totalElements: number } }).page.totalElements).toBe(TOTAL);
    },
  );
});
