/**
 * Paging that cannot lie (issue 16 items 4–6), through the built CLI against the
 * local server answering in each page form `--wire` gives it: shape A (flat),
 * shape B (nested), a bare array; numbered from 0 or from 1 (Spring's
 * one-indexed-parameters); a size maximum that cuts larger pages, its `size`
 * saying the cut size or echoing the size asked for. Every form must list every
 * record exactly once, read a single page right or refuse it, and after `pla config
 * detect` store the form and read by it without probing. What was printed is
 * compared with the records the server holds, read with plain HTTP.
 */
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';

const LIST = '/api/v1/asset-transaction-type-determinations';
const RECORDS = 40;

interface Form {
  name: string;
  wire?: string;
  base: 0 | 1;
  cap?: number;
  /** The settings `pla config detect` must find. */
  detected: string[];
}

const FORMS: Form[] = [
  { name: 'pla’s own (shape B, from 0)', base: 0, detected: ['page.shape=nested', 'page.base=0'] },
  { name: 'shape A, one-based (Spring one-indexed-parameters)', wire: 'page.shape=flat,page.base=1', base: 1, detected: ['page.shape=flat', 'page.base=1'] },
  { name: 'shape B, one-based', wire: 'page.shape=nested,page.base=1', base: 1, detected: ['page.shape=nested', 'page.base=1'] },
  {
    name: 'shape B, size cut to 7 and the requested size echoed',
    wire: 'page.maxSize=7,page.sizeEcho=requested',
    base: 0,
    cap: 7,
    detected: ['page.base=0', 'page.maxSize=7', 'page.sizeEcho=requested'],
  },
  {
    name: 'shape A, one-based, size cut to 7 and said',
    wire: 'page.shape=flat,page.base=1,page.maxSize=7,page.sizeEcho=capped',
    base: 1,
    cap: 7,
    detected: ['page.shape=flat', 'page.base=1', 'page.maxSize=7', 'page.sizeEcho=capped'],
  },
  { name: 'bare arrays, one-based', wire: 'page.shape=array,page.base=1', base: 1, detected: ['page.shape=array', 'page.base=1'] },
];

/**
 * The ids the server holds, oldest first, read with plain HTTP in pages of 5 (below
 * any cap) from the form's first page number until an empty page: the test's own
 * reading, independent of the client's walker.
 */
async function heldIds(server: LocalServer, form: Form): Promise<string[]> {
  const ids: string[] = [];
  for (let page = form.base; ; page += 1) {
    const { body } = await server.http('GET', `${LIST}?page=${page}&size=5`);
    const content = (Array.isArray(body) ? body : (body as { content: Array<{ id: number }> }).content) as Array<{ id: number }>;
    if (content.length === 0) return ids;
    ids.push(...content.map((record) => String(record.id)));
  }
}

function lines(text: string): string[] {
  return text.split('\n').filter(Boolean);
}

describe.each(FORMS)('paging against the local server: $name', (form) => {
  let server: LocalServer;
  let held: string[];

  beforeAll(async () => {
    server = await startLocalServer({ seed: false, ...(form.wire ? { args: ['--wire', form.wire] } : {}) });
    const file = `${server.dataDir}/records.json`;
    await writeFile(file, JSON.stringify(Array.from({ length: RECORDS }, (_, i) => ({ code: `P-${i}`, name: `record ${i}` }))));
    const created = await server.pla(['det', 'create', '--file', file]);
    expect(created.exitCode, created.stderr).toBe(0);
    held = await heldIds(server, form);
  });
  afterAll(() => server?.stop());

  it('the server holds every record once (the test’s own reading)', () => {
    expect(held).toHaveLength(RECORDS);
    expect(new Set(held).size).toBe(RECORDS);
  });

  it('--all prints every id exactly once, exit 0', async () => {
    const run = await server.pla(['det', 'list', '--all', '--size', '10', '-q']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(lines(run.stdout)).toEqual(held);
  });

  it('--max-items stops after that many records, in order', async () => {
    const run = await server.pla(['det', 'list', '--max-items', '13', '--size', '10', '-q']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(lines(run.stdout)).toEqual(held.slice(0, 13));
  });

  it('a single --page is the page asked for (zero-based, as pla counts)', async () => {
    const run = await server.pla(['det', 'list', '--page', '2', '--size', '5', '-q']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(lines(run.stdout)).toEqual(held.slice(10, 15));
  });

  it('a page larger than the service answers is refused, not answered with other records', async () => {
    const run = await server.pla(['det', 'list', '--page', '1', '--size', '10', '-q']);
    if (form.cap === undefined) {
      expect(run.exitCode, run.stderr).toBe(0);
      expect(lines(run.stdout)).toEqual(held.slice(10, 20));
    } else {
      expect(run.exitCode).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(`at most ${form.cap} records a page`);
    }
  });

  it('pla config detect stores the form; the same commands then read by it, without probing', async () => {
    const detect = await server.pla(['config', 'detect']);
    expect(detect.exitCode, detect.stderr).toBe(0);
    const show = await server.pla(['config', 'show', '-o', 'json']);
    const local = (JSON.parse(show.stdout) as Array<{ env: string; wire: string }>).find((row) => row.env === 'local');
    expect(local?.wire.split(' ')).toEqual(expect.arrayContaining(form.detected));

    const all = await server.pla(['det', 'list', '--all', '--size', '10', '-q']);
    expect(all.exitCode, all.stderr).toBe(0);
    expect(lines(all.stdout)).toEqual(held);
    expect(all.stderr).not.toContain('note:');
    const page = await server.pla(['det', 'list', '--page', '3', '--size', '5', '-q']);
    expect(lines(page.stdout)).toEqual(held.slice(15, 20));

    const doctor = await server.pla(['doctor', '-o', 'json']);
    const wire = (JSON.parse(doctor.stdout) as Array<{ check: string; status: string }>).find((check) => check.check === 'wire profile');
    expect(wire?.status).toBe('ok');
    // What the server holds did not change: detection only reads.
    expect(await heldIds(server, form)).toEqual(held);
  });
});

describe('a plan’s current-state read by pages against a one-based service', () => {
  const FORM: Form = { name: 'one-based', base: 1, detected: [] };
  let server: LocalServer;

  beforeAll(async () => {
    // Pages of at most 100 (a page of 1000 is refused): 250 records are three pages, read after the first several at once.
    server = await startLocalServer({ seed: false, args: ['--max-page-size', '100', '--wire', 'page.shape=flat,page.base=1'] });
    const file = `${server.dataDir}/records.json`;
    await writeFile(file, JSON.stringify(Array.from({ length: 250 }, (_, i) => ({ code: `S-${i}`, name: `record ${i}` }))));
    const created = await server.pla(['det', 'create', '--file', file]);
    expect(created.exitCode, created.stderr).toBe(0);
  });
  afterAll(() => server?.stop());

  it('a dry run of 60 ids finds every one of them (the pages past the first are the right ones)', async () => {
    const held = await heldIds(server, FORM);
    expect(held).toHaveLength(250);
    const wanted = held.filter((_, i) => i % 4 === 3).slice(0, 60);
    const ids = `${server.dataDir}/ids.txt`;
    await writeFile(ids, `${wanted.join('\n')}\n`);
    const run = await server.pla(['det', 'delete', '--ids-file', ids, '--dry-run', '-q']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(lines(run.stdout)).toEqual(wanted);
    expect(await heldIds(server, FORM)).toEqual(held);
  });
});

describe('notification lists (shape A, newest first) against a one-based service with a cut size', () => {
  const FORM: Form = { name: 'one-based', base: 1, detected: [] };
  let server: LocalServer;

  beforeAll(async () => {
    server = await startLocalServer({ seed: false, args: ['--wire', 'page.base=1,page.maxSize=4,page.sizeEcho=requested'] });
    for (let i = 0; i < 13; i++) {
      const made = await server.http('POST', '/api/notifications', { body: { forUserId: 'ann', title: `notice ${i}`, description: `notice ${i}` } });
      expect(made.status, made.text).toBeLessThan(300);
    }
  });
  afterAll(() => server?.stop());

  it('--all lists every notification of the user once, in the service’s order', async () => {
    const held: string[] = [];
    for (let page = FORM.base; ; page += 1) {
      const { body } = await server.http('GET', `/api/notifications/ann?page=${page}&size=3`);
      const content = (body as { content: Array<{ id: number }> }).content;
      if (content.length === 0) break;
      held.push(...content.map((n) => String(n.id)));
    }
    expect(held).toHaveLength(13);
    const run = await server.pla(['notif', 'list', 'ann', '--all', '--size', '10', '-q']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(lines(run.stdout)).toEqual(held);
  });
});
