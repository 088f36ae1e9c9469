/**
 * A filter pla applies itself pages like an unfiltered list: `--size N` prints one
 * page of N matches and reads the service's pages only until that page is full
 * (counted at the server, in its request log), says so on stderr when that took more
 * than one page, walks further only with `--all`, and waits out a rate limit.
 * Against the real local server, with 450 determinations of which three match.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { startLocalServer, type LocalServer } from '../support/local-server.js';

const LIST_PATH = '/api/v1/asset-transaction-type-determinations';
/** Where, among the 450 created after the 6 of the seed, the three records of company 7777 are. */
const MATCH_AT = [150, 320, 440];
const CREATED = 450;

let server: LocalServer;
let limited: LocalServer;
let folder: string;

/** Creates the 450 determinations through pla itself: company 9000, but 7777 at MATCH_AT. */
async function fill(target: LocalServer): Promise<void> {
  const records = Array.from({ length: CREATED }, (_, i) => ({ code: `F-${i}`, name: `filler ${i}`, companyCode: MATCH_AT.includes(i) ? '7777' : '9000' }));
  const file = join(folder, `records-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, JSON.stringify(records));
  const created = await target.pla(['det', 'create', '--file', file, '-o', 'json']);
  expect(created.exitCode, created.stderr).toBe(0);
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'pla-filtered-'));
  [server, limited] = await Promise.all([startLocalServer(), startLocalServer({ args: ['--rate-limit', '1'] })]);
  await Promise.all([fill(server), fill(limited)]);
});

afterAll(async () => {
  await Promise.all([server?.stop(), limited?.stop()]);
  if (folder) await rm(folder, { recursive: true, force: true });
});

interface Logged {
  method: string;
  path: string;
  status: number;
}

let markers = 0;

/** The server's request log, asked again while the rate limit refuses it. */
async function requestLog(target: LocalServer): Promise<Logged[]> {
  let log: Logged[] = [];
  await eventually(async () => {
    const answer = await target.http('GET', '/_admin/requests?limit=500');
    if (answer.status !== 200) return false;
    log = (answer.body as { data: Logged[] }).data;
    return true;
  });
  return log;
}

/**
 * Runs `pla args` and returns its result with the list requests the server logged
 * meanwhile (after a marker request): `pages`, the reads of records, and `probes`,
 * the two reads of one record the page walker makes to learn how the service numbers
 * its pages (src/client/page-walk.ts) before it reads past the first.
 */
async function counted(target: LocalServer, args: string[]) {
  markers += 1;
  const marker = `${LIST_PATH}/90000000${markers}`;
  await eventually(async () => (await target.http('GET', marker)).status === 404);
  const result = await target.pla(args);
  const log = await requestLog(target);
  const after = log.slice(log.findLastIndex((r) => r.path === marker) + 1);
  const lists = after.filter((r) => r.method === 'GET' && (r.path === LIST_PATH || r.path.startsWith(`${LIST_PATH}?`)));
  const probe = (r: Logged) => /[?&]size=1(&|$)/.test(r.path);
  return { ...result, pages: lists.filter((r) => !probe(r)), probes: lists.filter(probe) };
}

const codes = (stdout: string) => (JSON.parse(stdout) as Array<{ code: string }>).map((r) => r.code);

describe('a filter pla applies itself', () => {
  it('--size 2 prints two matches, read from no more pages than they need', async () => {
    const result = await counted(server, ['det', 'list', '--company', '7777', '--size', '2', '-o', 'json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(codes(result.stdout)).toEqual(['F-150', 'F-320']);
    // Pages of 100 (the listing's default): the second match is record 326 of 456, on the fourth page.
    expect(result.pages.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(result.probes.length).toBeLessThanOrEqual(2);
    expect(result.stderr).toMatch(
      /^note: the service cannot filter determinations by companyCode: pla read 4 pages \(400 determinations\) for page 1 of the matches \(2 matches\)$/m,
    );
  });

  it('--page 1 is the next page of matches, and reads on only as far as it', async () => {
    const result = await counted(server, ['det', 'list', '--company', '7777', '--size', '2', '--page', '1', '-o', 'json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(codes(result.stdout)).toEqual(['F-440']);
    expect(result.pages).toHaveLength(5);
  });

  it('a page the first read fills costs one request and no note', async () => {
    const result = await counted(server, ['det', 'list', '--status', 'active', '--size', '2', '-o', 'json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(codes(result.stdout)).toEqual(['ATD-ACQ', 'ATD-RET']);
    expect([...result.pages, ...result.probes]).toHaveLength(1);
    expect(result.stderr).toBe('');
  });

  it('--all walks every page for every match; --max-items stops at its count', async () => {
    const all = await counted(server, ['det', 'list', '--company', '7777', '--all', '-o', 'json']);
    expect(all.exitCode, all.stderr).toBe(0);
    expect(codes(all.stdout)).toEqual(['F-150', 'F-320', 'F-440']);
    expect(all.pages).toHaveLength(5);
    expect(all.stderr).toContain('pla read 5 pages (456 determinations) for 3 matches');
    const capped = await counted(server, ['det', 'list', '--company', '7777', '--max-items', '1', '-o', 'json']);
    expect(codes(capped.stdout)).toEqual(['F-150']);
    expect(capped.pages).toHaveLength(2);
  });

  it('a status pla does not know gets a note naming the known ones', async () => {
    const result = await server.pla(['det', 'list', '--status', 'bogus', '-o', 'json']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('[]');
    expect(result.stderr).toMatch(/^note: --status BOGUS: not a status pla knows; the known ones are ACTIVE, DECOMMISSIONED/m);
    const tasks = await server.pla(['tasks', 'list', '--status', 'pending,done', '-o', 'json']);
    expect(tasks.exitCode).toBe(0);
    expect(tasks.stderr).toMatch(/^note: --status DONE: not a status pla knows; the known ones are PENDING, RUNNING, COMPLETED, FAILED, CANCELLED/m);
  });

  it('--help says such a filter reads the pages itself', async () => {
    const help = await server.pla(['det', 'list', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('pla filters the pages itself: it reads pages until it has --size matches');
  });

  it('waits out the rate limit while it reads', async () => {
    const result = await counted(limited, ['det', 'list', '--company', '7777', '--size', '2', '-o', 'json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(codes(result.stdout)).toEqual(['F-150', 'F-320']);
    // Four pages answered; every 429 before them was waited out (Retry-After), none given up on.
    expect(result.pages.filter((r) => r.status === 200)).toHaveLength(4);
    expect(result.pages.every((r) => r.status === 200 || r.status === 429)).toBe(true);
  });
});
