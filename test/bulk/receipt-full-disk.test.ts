/**
 * Issue 17 item 6: a receipt that cannot be written stops the run before its next
 * batch, and what the service did is accounted for exactly. The config folder
 * (where receipts live) is on a small tmpfs the test mounts and fills, as the
 * server's full-disk test does; the built CLI runs a bulk create against the real
 * local server (its data folder elsewhere, with room to spare).
 */
import { mkdir, mkdtemp, readdir, readFile, rm, statfs, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { startSpringStyleService } from '../support/spring-style-service.js';

const BIN = new URL('../../bin/pla.js', import.meta.url).pathname;

let mountPoint: string;
let work: string;
let mounted = false;
let server: LocalServer | undefined;

beforeAll(async () => {
  mountPoint = await mkdtemp(join(tmpdir(), 'pla-small-config-'));
  work = await mkdtemp(join(tmpdir(), 'pla-receipt-work-'));
  const result = await execa('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mountPoint], { reject: false });
  mounted = result.exitCode === 0;
  if (!mounted) return;
  await mkdir(join(mountPoint, 'config'));
  server = await startLocalServer({ seed: false, configDir: join(mountPoint, 'config') });
});

afterAll(async () => {
  if (mounted) await execa('umount', [join(mountPoint, 'config', 'runs')], { reject: false });
  await server?.stop();
  if (mounted) await execa('umount', [mountPoint], { reject: false });
  await rm(mountPoint, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

function pla(args: string[], env: Record<string, string> = {}) {
  return execa('node', [BIN, ...args], {
    cwd: work,
    env: { PLA_CONFIG_DIR: join(mountPoint, 'config'), NO_COLOR: '1', ...env },
    reject: false,
    stdin: 'ignore',
  });
}

/** Fills the filesystem but for about `leave` bytes. */
async function fillLeaving(leave: number): Promise<void> {
  const { bavail, bsize } = await statfs(mountPoint);
  await writeFile(join(mountPoint, 'filler'), Buffer.alloc(Math.max(0, Number(bavail) * Number(bsize) - leave)));
}

describe('a receipt on a full disk', () => {
  it('stops the run before its next batch; the store, the receipt and the unknown-outcome file agree exactly', async (ctx) => {
    if (!mounted || !server) {
      ctx.skip('cannot mount a tmpfs here (needs root); the full-disk test needs a small filesystem it can fill');
      return;
    }
    // One run first, so the lock folder and a receipt exist before the disk is full.
    expect((await pla(['determinations', 'create', '--data', '{"ref": "warm-up"}'])).exitCode).toBe(0);

    const records = Array.from({ length: 100 }, (_, i) => JSON.stringify({ ref: `full-${i}`, pad: 'x'.repeat(2000) }));
    const input = join(work, 'big.ndjson');
    await writeFile(input, records.join('\n'));
    await fillLeaving(48 * 1024);

    // The checkpoint elsewhere (where there is room): the receipt is what cannot be written.
    const checkpoint = join(work, 'full.checkpoint.json');
    const run = await pla(['determinations', 'create', '--file', input, '--batch-size', '5', '--concurrency', '1', '--checkpoint', checkpoint]);
    expect(run.exitCode, String(run.stderr)).toBe(9);
    expect(run.stderr).toMatch(/cannot write the receipt .*no space left on device/i);
    expect(run.stderr).toContain('the run stopped before its next batch');
    const confirmed = Number(/The service confirmed (\d+) record/.exec(String(run.stderr))?.[1]);

    // What the store holds is what the service confirmed: the run did not go on.
    const listed = await pla(['determinations', 'list', '--all', '-o', 'ndjson', '--size', '1000']);
    const made = String(listed.stdout)
      .split('\n')
      .filter((line) => line.includes('"full-'));
    expect(made.length).toBe(confirmed);
    expect(made.length).toBeGreaterThan(0);
    expect(made.length).toBeLessThan(100);

    // The receipt: whole lines only, and with the unknown-outcome file, every record made.
    const runsDir = join(mountPoint, 'config', 'runs');
    const names = (await readdir(runsDir)).sort();
    const text = await readFile(join(runsDir, names[names.length - 1] as string), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; after?: { id: number } });
    expect(lines.some((line) => line.type === 'end')).toBe(false); // shown as unfinished
    const inReceipt = lines.filter((line) => line.type === 'record').length;
    const unknownFile = (await readdir(work)).find((name) => name.startsWith('unknown-outcome-'));
    const unrecorded = unknownFile ? (await readFile(join(work, unknownFile), 'utf8')).trim().split('\n').filter(Boolean) : [];
    expect(unrecorded.every((line) => line.includes('not in the receipt'))).toBe(true);
    expect(inReceipt + unrecorded.length).toBe(made.length);

    // Space again: the next run works, and the receipt reads as unfinished.
    await rm(join(mountPoint, 'filler'));
    const shown = await pla(['runs', 'list', '-o', 'json']);
    expect(JSON.parse(String(shown.stdout)).at(-1)).toMatchObject({ exitCode: 'unfinished' });
    // The receipt itself names the batch it could not settle.
    const run2 = await pla(['runs', 'show', 'last', '-o', 'table']);
    if (unrecorded.length > 0) expect(run2.stderr).toContain(`${unrecorded.length} record(s) were sent without a recorded answer`);
    else expect(run2.stderr).not.toContain('without a recorded answer');
    // Its undo deletes what the receipt holds and lists the rest as not to be guessed at.
    const undoPlan = await pla(['runs', 'undo', 'last', '--plan', '-o', 'json']);
    expect(undoPlan.exitCode, String(undoPlan.stderr)).toBe(0);
    expect(JSON.parse(String(undoPlan.stdout)).counts).toEqual({ delete: inReceipt, ...(unrecorded.length > 0 ? { irreversible: unrecorded.length } : {}) });
  });

  it('the hinted rerun, against a service that ignores Idempotency-Key, sends nothing twice and keeps the unknown-outcome file', async (ctx) => {
    if (!mounted || !server) {
      ctx.skip('cannot mount a tmpfs here (needs root)');
      return;
    }
    const service = await startSpringStyleService();
    try {
      const env = { PLA_BASE_URL: service.url, PLA_API_KEY: 'test-key-0000-1234' };
      const rows = 120;
      const input = join(work, 'plain.ndjson');
      await writeFile(input, Array.from({ length: rows }, (_, i) => JSON.stringify({ ref: `plain-${i}`, pad: 'x'.repeat(2000) })).join('\n'));
      const args = [
        'determinations',
        'create',
        '--file',
        input,
        '--batch-size',
        '5',
        '--concurrency',
        '1',
        '--checkpoint',
        join(work, 'plain.checkpoint.json'),
      ];
      await fillLeaving(48 * 1024);
      const run = await pla(args, env);
      await rm(join(mountPoint, 'filler'));
      expect(run.exitCode, String(run.stderr)).toBe(9);
      expect(run.stderr).toMatch(/cannot write the receipt .*no space left on device/i);
      const { runId } = JSON.parse(await readFile(join(work, 'plain.checkpoint.json'), 'utf8')) as { runId: string };
      const unknownFile = join(work, `unknown-outcome-${runId}.ndjson`);
      const listed = await readFile(unknownFile, 'utf8').catch(() => '');
      // The batch the service confirmed and the receipt could not hold: listed there.
      expect(listed).toContain('not in the receipt');

      // Space again: the rerun the hint names (the same command, the same checkpoint).
      const hinted = /finish the job with: pla (.+?) \(batches done/.exec(String(run.stderr))?.[1]?.split(' ') ?? args;
      const rerun = await pla(hinted, env);
      const refs = new Map<string, number>();
      for (const record of service.records('determinations')) refs.set(String(record.ref), (refs.get(String(record.ref)) ?? 0) + 1);
      expect([...refs.entries()].filter(([ref, n]) => ref.startsWith('plain-') && n !== 1)).toEqual([]);
      expect([...refs.keys()].filter((ref) => ref.startsWith('plain-'))).toHaveLength(rows);
      expect(rerun.exitCode, String(rerun.stderr)).toBe(0);
      // The records the service confirmed and the receipt could not hold are still listed: the file was not deleted.
      expect((await readFile(unknownFile, 'utf8')).startsWith(listed)).toBe(true);
      expect(hinted).toEqual(args);
    } finally {
      await service.close();
    }
  });

  it('a read-only receipts folder: nothing is sent, and the error says why', async (ctx) => {
    if (!mounted || !server) {
      ctx.skip('cannot mount a tmpfs here (needs root)');
      return;
    }
    const runs = join(mountPoint, 'config', 'runs');
    await mkdir(runs, { recursive: true });
    expect((await execa('mount', ['-t', 'tmpfs', '-o', 'ro,size=64k', 'tmpfs', runs], { reject: false })).exitCode).toBe(0);
    const before = String((await pla(['determinations', 'list', '--all', '-q'])).stdout)
      .trim()
      .split('\n').length;
    const run = await pla(['determinations', 'create', '--data', '[{"ref": "ro-1"}, {"ref": "ro-2"}]']);
    expect(run.exitCode).toBe(9);
    expect(run.stderr).toMatch(/cannot create the receipt .*read-only file system.*; nothing was sent/);
    expect(
      String((await pla(['determinations', 'list', '--all', '-q'])).stdout)
        .trim()
        .split('\n').length,
    ).toBe(before);
  });
});
