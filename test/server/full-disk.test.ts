/**
 * Issue 9 item 10: a full disk is an answer, not an outage. The data folder lives on
 * a small tmpfs the test mounts and fills: a write that does not fit is a 507
 * problem, the refused record never shows in reads, its id is not handed out again,
 * a failed e-mail leaves no file, and once space is free writes succeed without a
 * restart (and the folder opens cleanly after one).
 */
import { mkdir, mkdtemp, readdir, rm, statfs, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';

const DET = '/api/v1/asset-transaction-type-determinations';

let mountPoint: string;
let mounted = false;
let server: LocalServer | undefined;

beforeAll(async () => {
  mountPoint = await mkdtemp(join(tmpdir(), 'pla-small-disk-'));
  const result = await execa('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mountPoint], { reject: false });
  mounted = result.exitCode === 0;
  if (!mounted) return;
  await mkdir(join(mountPoint, 'data'));
  server = await startLocalServer({ seed: false, dataDir: join(mountPoint, 'data') });
});

afterAll(async () => {
  await server?.stop();
  if (mounted) await execa('umount', [mountPoint], { reject: false });
  await rm(mountPoint, { recursive: true, force: true });
});

let fills = 0;

/** Fills the filesystem until a write fails: what is left is less than a block. */
async function fill(): Promise<string[]> {
  fills += 1;
  const files: string[] = [];
  const { bavail, bsize } = await statfs(mountPoint);
  const bulk = join(mountPoint, `filler-${fills}-0`);
  await writeFile(bulk, Buffer.alloc(Math.max(0, Number(bavail) * Number(bsize) - 256 * 1024)));
  files.push(bulk);
  for (let i = 1; ; i += 1) {
    const file = join(mountPoint, `filler-${fills}-${i}`);
    files.push(file);
    try {
      await writeFile(file, Buffer.alloc(4096));
    } catch {
      return files;
    }
  }
}

type Rec = { id: number } & Record<string, unknown>;
const data = (body: unknown) => (body as { data: Rec }).data;
const codes = async (s: LocalServer) => ((await s.http('GET', `${DET}?size=100`)).body as { content: Rec[] }).content.map((r) => r.code);

describe('item 10: a full data folder', () => {
  it('answers 507, keeps nothing of the refused writes, never reuses their ids, and recovers without a restart', async (ctx) => {
    if (!mounted || !server) {
      ctx.skip('cannot mount a tmpfs here (needs root); the full-disk test needs a small filesystem it can fill');
      return;
    }
    const s = server;
    const before = data((await s.http('POST', DET, { body: { code: 'before' } })).body);

    // Kept aside now, freed later: room for exactly the outbox folder and one .eml.
    const reserve = join(mountPoint, 'reserve');
    await writeFile(reserve, Buffer.alloc(12 * 1024));
    const fillers = await fill();
    const refused = await s.http('POST', DET, { body: { code: 'refused-big', big: 'x'.repeat(300_000) } });
    expect(refused.status).toBe(507);
    expect(refused.body).toMatchObject({ type: 'urn:pla:problem:no-space', status: 507, title: 'Insufficient Storage' });
    expect((refused.body as { detail: string }).detail).toContain('no space left on the data folder');
    // Cutting the torn line back freed a little: fill that too.
    fillers.push(...(await fill()));
    // Bigger than a page: the journal's last page may still hold a short line.
    const small = await s.http('POST', DET, { body: { code: 'refused-small', note: 'n'.repeat(8192) } });
    expect(small.status).toBe(507);
    expect(await codes(s)).toEqual(['before']);
    expect((await s.http('GET', `${DET}/${before.id + 1}`)).status).toBe(404);

    fillers.push(...(await fill()));
    const mail = await s.http('POST', '/api/email-notifications', { body: { forUserEmail: 'a@example.com', title: 'x', description: 'y'.repeat(100_000) } });
    expect(mail.status).toBe(507);
    const outbox = await readdir(join(s.dataDir, 'outbox')).catch(() => []);
    expect(outbox).toEqual([]);

    // Room for the small .eml but not for the record (its `service` is not in the mail):
    // the mail's file is taken back with the refused record.
    await rm(reserve);
    const withdrawn = await s.http('POST', '/api/email-notifications', { body: { forUserEmail: 'a@example.com', title: 'x', service: 's'.repeat(40_000) } });
    expect(withdrawn.status).toBe(507);
    expect(s.stderr()).toMatch(/the writes from entry \d+ on were refused and taken back\n[^\n]*email-notifications: no space left/);
    expect(await readdir(join(s.dataDir, 'outbox')).catch(() => [])).toEqual([]);

    // Space again: writes succeed at once, with ids the refused records never got back.
    await Promise.all(fillers.map((file) => rm(file, { force: true })));
    const after = data((await s.http('POST', DET, { body: { code: 'after' } })).body);
    expect(after.id).toBe(before.id + 3);
    expect(await codes(s)).toEqual(['before', 'after']);
    const sent = await s.http('POST', '/api/email-notifications', { body: { forUserEmail: 'a@example.com', title: 'x' } });
    expect(sent.status).toBe(201);
    expect((await readdir(join(s.dataDir, 'outbox'))).length).toBe(1);

    // And the folder opens cleanly after a restart, counters included.
    await s.restart();
    expect(await codes(s)).toEqual(['before', 'after']);
    const later = data((await s.http('POST', DET, { body: { code: 'later' } })).body);
    expect(later.id).toBe(before.id + 4);
  });

  it('takes refused writes back on records read from the snapshot too (an update, a reset), and keeps them across a restart', async (ctx) => {
    if (!mounted || !server) {
      ctx.skip('cannot mount a tmpfs here (needs root); the full-disk test needs a small filesystem it can fill');
      return;
    }
    const s = server;
    expect((await s.http('POST', `${DET}/bulk`, { body: [{ code: 'p1' }, { code: 'p2' }, { code: 'p3' }] })).status).toBe(200);
    // A clean stop compacts: after the restart every record is read from snapshot.pla, left in the file.
    await s.restart();
    const listed = await codes(s);
    expect(listed).toEqual(['before', 'after', 'later', 'p1', 'p2', 'p3']);
    const p2 = ((await s.http('GET', `${DET}?size=100`)).body as { content: Rec[] }).content[4] as Rec;

    const fillers = await fill();
    const update = await s.http('PUT', `${DET}/${p2.id}`, { body: { code: 'p2-refused', note: 'n'.repeat(8192) } });
    expect(update.status).toBe(507);
    expect(data((await s.http('GET', `${DET}/${p2.id}`)).body)).toEqual(p2);
    fillers.push(...(await fill()));
    const reset = await s.http('POST', '/_admin/reset');
    expect(reset.status).toBe(507);
    expect(await codes(s)).toEqual(listed);

    await Promise.all(fillers.map((file) => rm(file, { force: true })));
    expect((await s.http('PUT', `${DET}/${p2.id}`, { body: { code: 'p2-updated' } })).status).toBe(200);
    await s.restart('SIGKILL');
    expect(await codes(s)).toEqual(['before', 'after', 'later', 'p1', 'p2-updated', 'p3']);
  });
});
