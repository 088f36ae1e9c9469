/**
 * Tables that show what matters, on a real pseudo-terminal: footers below the
 * table, `--wide` clean with colour, narrowing that leaves out the empty and
 * constant columns first and never ids, status, state or the run id, and dates
 * shortened rather than cut. Same rules for every list (one table writer).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { runInTerminal, type ScreenLine } from '../support/terminal.js';

let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer();
  // A record whose inUse and decommissionedAt are empty and constant like the seeded ones'.
  expect((await server.pla(['det', 'create', '--data', '{"code":"T-1","name":"Tables"}'])).exitCode).toBe(0);
  // A protected environment records a receipt per run: `runs list` has a row.
  expect((await server.pla(['config', 'protect', 'local'])).exitCode).toBe(0);
  const update = await server.pla(['det', 'update', '1', '--data', '{"name":"Acquisition, renamed"}']);
  expect(update.exitCode, update.stderr).toBe(0);
});

afterAll(async () => {
  await server?.stop();
});

const env = () => ({ PLA_CONFIG_DIR: server.configDir });
const screen = (lines: ScreenLine[]) => lines.map((l) => l.text).join('\n');
const header = (lines: ScreenLine[]) =>
  lines
    .find((l) => /^│ \S/.test(l.text))
    ?.text.split('│')
    .map((c) => c.trim())
    .filter(Boolean) ?? [];
const bottom = (lines: ScreenLine[]) => lines.findIndex((l) => l.text.startsWith('└'));

describe('tables on a terminal', () => {
  it('footers come below the table', async () => {
    const run = await runInTerminal(['det', 'list', '--size', '3'], { columns: 60, env: env() });
    expect(run.exitCode, screen(run.lines)).toBe(0);
    const end = bottom(run.lines);
    const footer = run.lines.findIndex((l) => /^page 1 of \d+ \(--page 0\), \d+ records; next: --page 1/.test(l.text));
    const more = run.lines.findIndex((l) => /more columns? \([\w, ]+…?\): --wide shows all/.test(l.text));
    expect(end, screen(run.lines)).toBeGreaterThan(0);
    expect(footer, screen(run.lines)).toBeGreaterThan(end);
    expect(more, screen(run.lines)).toBeGreaterThan(end);
  });

  it('at 60 columns status and id stay, empty and constant columns go first, dates are shortened not cut', async () => {
    const run = await runInTerminal(['det', 'list'], { columns: 60, env: env() });
    const columns = header(run.lines);
    expect(columns, screen(run.lines)).toEqual(expect.arrayContaining(['id', 'status']));
    expect(columns).not.toContain('decommissionedAt'); // empty but for one record: kept last, gone first among the others
    const rows = run.lines.filter((l) => /^│ \d+ +│/.test(l.text));
    for (const row of rows) expect(row.text).toMatch(/│ (ACTIVE|DECOMMISSIONED) +│/);

    const wider = await runInTerminal(['det', 'list'], { columns: 110, env: env() });
    const names = header(wider.lines);
    expect(names, screen(wider.lines)).toEqual(expect.arrayContaining(['id', 'status', 'createdAt']));
    const at = names.indexOf('createdAt');
    for (const row of wider.lines.filter((l) => /^│ \d+ +│/.test(l.text))) {
      const cell =
        row.text
          .split('│')
          .slice(1, -1)
          .map((c) => c.trim())[at] ?? '';
      expect(cell, screen(wider.lines)).toMatch(/^\d{4}-\d\d-\d\d( \d\d:\d\d(:\d\d)?)?$/);
    }
    expect(screen(wider.lines)).not.toMatch(/\d{4}-\d\d?…/);
  });

  it('notifications keep read, runs list keeps the whole run id', async () => {
    const notes = await runInTerminal(['notif', 'list', 'alice'], { columns: 60, env: env() });
    expect(header(notes.lines), screen(notes.lines)).toEqual(expect.arrayContaining(['id', 'read']));

    const listed = await server.pla(['runs', 'list', '-o', 'json']);
    const [run] = JSON.parse(listed.stdout) as Array<{ run: string }>;
    expect(run?.run.length).toBeGreaterThan(10);
    const runs = await runInTerminal(['runs', 'list'], { columns: 60, env: env() });
    expect(screen(runs.lines)).toContain(`│ ${run?.run} `);
  });

  it('--wide with colour draws a clean header, labels painted', async () => {
    const run = await runInTerminal(['det', 'list', '--wide'], { columns: 250, env: env() });
    expect(header(run.lines).slice(0, 3), screen(run.lines)).toEqual(['id', 'code', 'name']);
    expect(screen(run.lines)).not.toMatch(/\[3\dm|36m|39m/);
    expect(run.raw).toContain('\x1b[36mid\x1b[39m');
    const one = await runInTerminal(['det', 'get', '1', '--wide'], { columns: 60, env: env() });
    expect(screen(one.lines)).toMatch(/^│ code +│ ATD-ACQ +│$/m);
    expect(one.raw).toContain('\x1b[36mcode\x1b[39m');
  });
});

describe('tables for people', () => {
  it('a status wider than the first rows’ is never cut: --all lays the table out anew', async () => {
    const file = `${server.configDir}/many.json`;
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, JSON.stringify(Array.from({ length: 110 }, (_, i) => ({ code: `W-${i}`, name: `wide ${i}` }))));
    expect((await server.pla(['det', 'create', '--file', file])).exitCode).toBe(0);
    // ACTIVE sorts before DECOMMISSIONED: more than a layout's worth of ACTIVE rows come first.
    const run = await runInTerminal(['det', 'list', '--all', '--sort', 'status,asc', '--fields', 'id,status,code'], { columns: 80, env: env() });
    expect(run.exitCode, screen(run.lines)).toBe(0);
    expect(screen(run.lines)).toMatch(/│ DECOMMISSIONED │/);
    expect(screen(run.lines)).not.toMatch(/DECOMM[A-Z]*…/);
  });

  it('at 80 columns the fields a record is known by come before its timestamps, and hidden columns are named', async () => {
    const run = await runInTerminal(['det', 'list', '--size', '5'], { columns: 80, env: env() });
    const names = header(run.lines);
    expect(names.indexOf('name'), screen(run.lines)).toBeGreaterThan(0);
    for (const stamp of ['createdAt', 'updatedAt']) if (names.includes(stamp)) expect(names.indexOf(stamp)).toBeGreaterThan(names.indexOf('name'));
    const note = run.lines.find((l) => /more columns? \(/.test(l.text))?.text ?? '';
    const hidden = /\(([^)]+)\)/.exec(note)?.[1]?.split(', ') ?? [];
    expect(hidden.length, screen(run.lines)).toBeGreaterThan(0);
    for (const column of hidden) expect(names).not.toContain(column);
  });

  it('pages are counted from 1 for a person; the flag stays zero-based', async () => {
    const run = await runInTerminal(['det', 'list', '--size', '2', '--page', '1'], { columns: 100, env: env() });
    expect(screen(run.lines)).toMatch(/^page 2 of \d+ \(--page 1\), \d+ records; next: --page 2/m);
  });

  it('config show keeps the base URL whole, host and port', async () => {
    const run = await runInTerminal(['config', 'show'], { columns: 60, env: env() });
    expect(screen(run.lines)).toContain(server.url);
  });

  it('runs list keeps the command and its counts whole', async () => {
    const run = await runInTerminal(['runs', 'list'], { columns: 80, env: env() });
    expect(screen(run.lines)).toMatch(/│ det update 1 --data '\{"name/);
    expect(screen(run.lines)).toMatch(/│ update 1 +│/);
    expect(run.lines.every((l) => !l.wrapped)).toBe(true);
  });
});
