/**
 * What a person sees on a real terminal (issue 11 items 5 and 6): the built CLI
 * on a pseudo-terminal 60 and 120 columns wide (test/support/terminal.ts), its
 * screen read back from a terminal emulator, against the real local server.
 * A line the terminal had to wrap is a line wider than the terminal.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../bulk/helpers.js';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { runInTerminal, type ScreenLine } from '../support/terminal.js';

let server: LocalServer;
let slow: LocalServer;
let temp: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  server = await startLocalServer({ seed: true });
  // Each request takes a while, so the progress bar is drawn many times.
  slow = await startLocalServer({ seed: false, args: ['--latency', '40'] });
  temp = await tempDir();
  // Long values in every column, and a record with fields the others lack.
  const long = (i: number) => ({
    code: `LONG-CODE-${i}-${'x'.repeat(30)}`,
    name: `A rather long determination name number ${i} that goes on`,
    transactionType: 'ACQUISITION',
    companyCode: String(1000 + i),
    note: `note ${i} `.repeat(12),
  });
  const file = temp.path('long.ndjson');
  await writeFile(
    file,
    [...Array.from({ length: 30 }, (_, i) => JSON.stringify(long(i))), JSON.stringify({ ...long(99), extra: { nested: 'value' } })].join('\n'),
  );
  const seeded = await server.pla(['determinations', 'upsert', '--file', file]);
  expect(seeded.exitCode, String(seeded.stderr)).toBe(0);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await slow?.stop();
  await temp?.cleanup();
});

const env = (s: LocalServer) => ({ PLA_CONFIG_DIR: s.configDir });
const shown = (lines: ScreenLine[]) => lines.map((l) => `${l.wrapped ? '↩' : ' '}${l.text}`).join('\n');

describe.each([60, 120])('on a terminal %i columns wide', (columns) => {
  it('a list is a table no wider than the terminal, ids whole, every row readable', async () => {
    const run = await runInTerminal(['determinations', 'list', '--size', '50'], { columns, env: env(server) });
    expect(run.exitCode, shown(run.lines)).toBe(0);
    expect(
      run.lines.filter((l) => l.wrapped),
      shown(run.lines),
    ).toEqual([]);
    const rows = run.lines.filter((l) => /^│ \d+ +│/.test(l.text));
    expect(rows.length, shown(run.lines)).toBe(37); // 6 seeded + 31 upserted
    for (const row of rows) {
      expect(row.text.length).toBeLessThanOrEqual(columns);
      // Each row shows its id whole and at least its code, cut or not.
      expect(row.text).toMatch(/^│ \d+ +│ (ATD-|LONG-)/);
    }
    const header = run.lines.find((l) => /^│ id /.test(l.text))?.text ?? '';
    expect(header).toMatch(/│ id +│ code/);
    if (columns === 60) expect(shown(run.lines)).toMatch(/\d+ more columns \([\w, ]+…?\): --wide shows all/);
  });

  it('one record is a key/value grid no wider than the terminal', async () => {
    const run = await runInTerminal(['determinations', 'get', '7'], { columns, env: env(server) });
    expect(run.exitCode, shown(run.lines)).toBe(0);
    expect(
      run.lines.filter((l) => l.wrapped),
      shown(run.lines),
    ).toEqual([]);
    expect(shown(run.lines)).toMatch(/│ code +│ LONG-CODE-0-x+… │|│ code +│ LONG-CODE-0-x+ +│/);
    expect(shown(run.lines)).toMatch(/│ note +│ note 0/);
  });

  it('--all streams a table page by page under one header, no wider than the terminal', async () => {
    const run = await runInTerminal(['determinations', 'list', '--all', '--size', '4'], { columns, env: env(server) });
    expect(run.exitCode, shown(run.lines)).toBe(0);
    expect(
      run.lines.filter((l) => l.wrapped),
      shown(run.lines),
    ).toEqual([]);
    expect(run.lines.filter((l) => /^│ id /.test(l.text))).toHaveLength(1);
    const ids = run.lines
      .map((l) => /^│ (\d+) +│/.exec(l.text)?.[1])
      .filter(Boolean)
      .map(Number);
    expect(ids).toEqual(Array.from({ length: 37 }, (_, i) => i + 1));
  });

  it('a bulk run with unreadable rows: each warning on its own whole line, the bar gone at the end', async () => {
    const lines = Array.from({ length: 400 }, (_, i) =>
      i % 97 === 13 ? `{"broken": ${i}` : JSON.stringify({ code: `P-${columns}-${i}`, name: `progress ${i}` }),
    );
    const file = temp.path(`progress-${columns}.ndjson`);
    await writeFile(file, lines.join('\n'));
    const rejects = temp.path(`progress-${columns}-rejects.ndjson`);
    const run = await runInTerminal(
      ['determinations', 'upsert', '--file', file, '--batch-size', '10', '--concurrency', '1', '--rejects', rejects, '-o', 'csv', '--fields', 'id'],
      {
        columns,
        env: env(slow),
      },
    );
    expect(run.exitCode, shown(run.lines)).toBe(9);
    // The bar was drawn (and redrawn) during the run…
    expect(run.raw).toMatch(/\[=* *\] +\d+%/);
    const screen = run.lines.map((l) => l.text);
    // …and left nothing behind: no bar, no half-cleared line.
    expect(
      screen.filter((l) => /\[=|\d+%|\/s\b|ETA/.test(l)),
      shown(run.lines),
    ).toEqual([]);
    // Every warning is whole, alone on its line.
    const broken = lines.map((l, i) => (l.startsWith('{"broken"') ? i + 1 : 0)).filter(Boolean);
    for (const line of broken) {
      expect(
        screen.filter((l) => l.startsWith(`skipped line ${line}: `)),
        shown(run.lines),
      ).toHaveLength(1);
    }
    expect(screen.filter((l) => l.startsWith('skipped line'))).toHaveLength(broken.length);
    // No broken lines: each line (wrapped text joined back) is one whole thing —
    // an id the run printed, a warning, the summary, the error or its hint.
    const logical: string[] = [];
    for (const l of run.lines) {
      if (l.wrapped && logical.length > 0) logical[logical.length - 1] += l.text;
      else logical.push(l.text);
    }
    for (const line of logical)
      expect(line, shown(run.lines)).toMatch(
        /^(?:id|\d+|skipped line \d+: malformed JSON \([^)]*\)|upserted .* — rejects: \S+| {2}\d+ unreadable input rows \(.*\)|error: .*|hint: .*)$/,
      );
    // The summary is on a clean line of its own.
    const good = lines.length - broken.length;
    expect(
      logical.some((l) => l.startsWith(`upserted ${good} (created ${good}, updated 0), failed 0, skipped ${broken.length} in `)),
      shown(run.lines),
    ).toBe(true);
    expect(logical).toContain(`  ${broken.length} unreadable input rows (in the rejects file with their lines)`);
    const ids = logical.filter((l) => /^\d+$/.test(l));
    expect(ids).toHaveLength(good);
    // The unreadable rows are in the rejects file, with their line, text and error.
    const rejected = (await readFile(rejects, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rejected.map((r) => r._line)).toEqual(broken);
    for (const r of rejected) {
      expect(r._raw).toBe(lines[Number(r._line) - 1]);
      expect(r._error).toMatch(/^malformed JSON/);
    }
  });
});
