/**
 * Issue 26 items 1–2: a bulk run stopped by SIGTERM, SIGHUP or kill -9 while
 * batches are in flight, then run again with the same --checkpoint, leaves the
 * service holding exactly the input's records: on pla's own server (which
 * honours Idempotency-Key) and on a service that ignores the header. The built
 * CLI runs as a real process; a proxy in front of the service passes each
 * request on at once (the service carries it out) and holds the answers back, so
 * the signal lands while the service has done what the CLI has not heard. Every
 * wait is on a condition (answers held, a line on stderr), never a sleep.
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { startHoldingProxy, type HoldingProxy } from '../support/holding-proxy.js';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { BIN } from '../support/run-pla.js';
import { startSpringStyleService, type SpringStyleService } from '../support/spring-style-service.js';

const ROWS = 60;
const BATCH = 10;
const IN_FLIGHT = 2;

/** A service the runs go to, and what it holds afterwards. */
interface Service {
  url: string;
  key: string;
  /** Config folder of the runs (receipts, automatic checkpoints). */
  configDir: string;
  /** How many stored records carry each `ref` starting with `prefix`. */
  refCounts(prefix: string): Promise<Map<string, number>>;
  /** Whether it answers a repeated Idempotency-Key with the first answer. */
  honoursKeys: boolean;
}

let local: LocalServer;
let spring: SpringStyleService;
let work: string;
const services: Record<'pla server' | 'a service ignoring Idempotency-Key', Service> = Object.create(null) as Record<
  'pla server' | 'a service ignoring Idempotency-Key',
  Service
>;

function counted(refs: unknown[], prefix: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const ref of refs) if (typeof ref === 'string' && ref.startsWith(prefix)) counts.set(ref, (counts.get(ref) ?? 0) + 1);
  return counts;
}

beforeAll(async () => {
  [local, spring, work] = await Promise.all([startLocalServer({ seed: false }), startSpringStyleService(), mkdtemp(join(tmpdir(), 'pla-stopped-'))]);
  services['pla server'] = {
    url: local.url,
    key: local.adminKey,
    configDir: local.configDir,
    honoursKeys: true,
    async refCounts(prefix) {
      const listed = await local.pla(['determinations', 'list', '--all', '--size', '1000', '-o', 'ndjson'], { reject: true });
      return counted(
        listed.stdout
          .split('\n')
          .filter(Boolean)
          .map((line) => (JSON.parse(line) as { ref?: unknown }).ref),
        prefix,
      );
    },
  };
  services['a service ignoring Idempotency-Key'] = {
    url: spring.url,
    key: 'test-key-0000-1234',
    configDir: join(work, 'spring-config'),
    honoursKeys: false,
    refCounts: (prefix) =>
      Promise.resolve(
        counted(
          spring.records('determinations').map((record) => record.ref),
          prefix,
        ),
      ),
  };
});

afterAll(async () => {
  await Promise.all([local?.stop(), spring?.close()]);
  await rm(work, { recursive: true, force: true });
});

/** An input of `ROWS` records to create (no ids), each with its own ref. */
async function inputFile(prefix: string): Promise<string> {
  const file = join(work, `${prefix}.ndjson`);
  await writeFile(file, Array.from({ length: ROWS }, (_, i) => JSON.stringify({ ref: `${prefix}-${i}`, amount: i })).join('\n'));
  return file;
}

/** `pla` as a real process against `url` (the proxy or the service itself). */
function pla(service: Service, url: string, args: string[]) {
  return execa('node', [BIN, ...args], {
    cwd: work,
    env: { PATH: process.env.PATH ?? '', PLA_CONFIG_DIR: service.configDir, PLA_BASE_URL: url, PLA_API_KEY: service.key, NO_COLOR: '1' },
    extendEnv: false,
    stdin: 'ignore',
    reject: false,
  });
}

/** Every ref of the input stored exactly once, and nothing else under its prefix. */
async function expectExactlyTheInput(service: Service, prefix: string): Promise<void> {
  const counts = await service.refCounts(prefix);
  expect(counts.size).toBe(ROWS);
  expect([...counts.entries()].filter(([, n]) => n !== 1)).toEqual([]);
}

/**
 * Starts a bulk create through a holding proxy, waits until `IN_FLIGHT` batches
 * were carried out by the service with their answers held, and stops the CLI with
 * `signal`. Gentle signals get the held answers once the CLI said it is winding down.
 */
async function stopMidRun(service: Service, prefix: string, signal: 'SIGTERM' | 'SIGHUP' | 'SIGKILL') {
  const proxy: HoldingProxy = await startHoldingProxy(service.url, ({ method, path }) => method === 'POST' && path.endsWith('/bulk'));
  const file = await inputFile(prefix);
  const checkpoint = join(work, `${prefix}.checkpoint.json`);
  const args = ['determinations', 'create', '--file', file, '--batch-size', String(BATCH), '--concurrency', String(IN_FLIGHT), '--checkpoint', checkpoint];
  try {
    const child = pla(service, proxy.url, args);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let exited = false;
    void child.then(() => (exited = true));
    await eventually(() => Promise.resolve(proxy.held >= IN_FLIGHT || exited));
    child.kill(signal);
    // The CLI has the signal and winds down (or is gone): the service's answers may now reach it.
    if (signal !== 'SIGKILL') await eventually(() => Promise.resolve(stderr.includes('interrupted') || exited));
    proxy.release();
    const stopped = await child;
    return { stopped, args, checkpoint };
  } finally {
    await proxy.close();
  }
}

for (const [name, service] of [
  ['pla server', () => services['pla server']],
  ['a service ignoring Idempotency-Key', () => services['a service ignoring Idempotency-Key']],
] as const) {
  describe(`a bulk run stopped mid-run, then run again with the same --checkpoint (${name})`, () => {
    for (const [signal, code] of [
      ['SIGTERM', 143],
      ['SIGHUP', 129],
    ] as const) {
      it(`${signal} ends it as Ctrl-C does (exit ${code}), and the rerun finishes with exactly the input's records`, async () => {
        const target = service();
        const prefix = `${signal.toLowerCase()}-${target.honoursKeys ? 'pla' : 'plain'}`;
        const { stopped, args, checkpoint } = await stopMidRun(target, prefix, signal);
        const saved = await readFile(checkpoint, 'utf8').catch(() => 'none');
        const receipts = (await readdir(join(target.configDir, 'runs'))).filter((n) => n.endsWith('.ndjson')).sort();
        const receiptEnd = (await readFile(join(target.configDir, 'runs', receipts.at(-1) as string), 'utf8')).trim().split('\n').at(-1) as string;

        const rerun = await pla(target, target.url, args);
        await expectExactlyTheInput(target, prefix);
        expect(rerun.exitCode, String(rerun.stderr)).toBe(0);
        expect(String(rerun.stderr)).toMatch(new RegExp(`created ${ROWS - 2 * BATCH}, failed 0, skipped ${2 * BATCH}`));

        expect(stopped.exitCode, String(stopped.stderr)).toBe(code);
        // The batches in flight were settled: nothing was left of unknown outcome.
        expect(JSON.parse(saved)).toMatchObject({ finished: [0, 1], sending: [], unknown: [] });
        // The hint says exactly how to finish the job; the receipt is closed as interrupted.
        expect(String(stopped.stderr)).toContain(`to finish the job, run: pla ${args.join(' ')}`);
        expect(JSON.parse(receiptEnd)).toMatchObject({ type: 'end', exitCode: 130 });
      });
    }

    it('kill -9 leaves the batches in flight named: the rerun never sends them blindly, and never creates twice', async () => {
      const target = service();
      const prefix = `kill-${target.honoursKeys ? 'pla' : 'plain'}`;
      const { stopped, args, checkpoint } = await stopMidRun(target, prefix, 'SIGKILL');
      expect(stopped.signal).toBe('SIGKILL');
      const saved = await readFile(checkpoint, 'utf8').catch(() => 'none');

      // The batches in flight may have been carried out: listed, not sent again (exit 9).
      const rerun = await pla(target, target.url, args);
      await expectExactlyTheInput(target, prefix);
      // On disk before the first request: the run's id and the batches it was sending.
      expect(JSON.parse(saved)).toMatchObject({ finished: [], sending: [0, 1] });
      expect(rerun.exitCode, String(rerun.stderr)).toBe(9);
      expect(String(rerun.stderr)).toMatch(new RegExp(`created ${ROWS - 2 * BATCH}, failed 0, outcome unknown ${2 * BATCH}`));
      expect(String(rerun.stderr)).toMatch(/the outcome of 20 records is unknown/);

      if (target.honoursKeys) {
        // Where the service keeps keys, --retry-unsafe sends them again under the keys they had: replayed, not created.
        const replay = await pla(target, target.url, [...args, '--retry-unsafe']);
        expect(replay.exitCode, String(replay.stderr)).toBe(0);
        expect(String(replay.stderr)).toMatch(new RegExp(`created 0, replayed ${2 * BATCH}, failed 0, skipped ${ROWS - 2 * BATCH}`));
        // Its receipt keeps the replayed records (undo needs them), counted as replayed.
        const receipts = (await readdir(join(target.configDir, 'runs'))).filter((n) => n.endsWith('.ndjson')).sort();
        const end = (await readFile(join(target.configDir, 'runs', receipts.at(-1) as string), 'utf8')).trim().split('\n').at(-1) as string;
        expect(JSON.parse(end)).toMatchObject({ type: 'end', exitCode: 0, counts: { replayed: 2 * BATCH } });
        await expectExactlyTheInput(target, prefix);
      }
    });
  });
}

describe('a finished run stays finished', () => {
  it('a rerun with its checkpoint is refused, saying what it did and when; --force runs it again', async () => {
    const target = services['pla server'];
    const prefix = 'finished';
    const file = await inputFile(prefix);
    const checkpoint = join(work, 'finished.checkpoint.json');
    const args = ['determinations', 'create', '--file', file, '--batch-size', String(BATCH), '--checkpoint', checkpoint];
    expect((await pla(target, target.url, args)).exitCode).toBe(0);

    const again = await pla(target, target.url, args);
    expect(again.exitCode).toBe(2);
    expect(String(again.stderr)).toMatch(/went through its whole input at \d{4}-\d\d-\d\dT[\d:.]+Z \(created 60\); nothing was sent/);
    expect(String(again.stderr)).toContain('--force');
    await expectExactlyTheInput(target, prefix);

    const forced = await pla(target, target.url, [...args, '--force']);
    expect(forced.exitCode, String(forced.stderr)).toBe(0);
    expect([...(await target.refCounts(prefix)).values()].every((n) => n === 2)).toBe(true);
  });
});
