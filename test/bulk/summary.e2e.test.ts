/**
 * Bulk results a person can act on (issue 11 item 7), end to end against the real
 * local server: failures grouped by reason with counts, a hint naming the flag
 * that feeds the rejects back (and that flag really reads them), unreadable input
 * rows in the rejects file with their line and error.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { tempDir } from './helpers.js';

let server: LocalServer;
let temp: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  server = await startLocalServer({ seed: true });
  temp = await tempDir();
});
afterAll(async () => {
  await server?.stop();
  await temp?.cleanup();
});

/** The hint's `--flag value` pair that feeds the rejects back. */
function feedBack(stderr: string): [string, string] {
  const match = /feed it back with (--[\w-]+) (\S+)/.exec(stderr);
  expect(match, stderr).not.toBeNull();
  return [match?.[1] ?? '', match?.[2] ?? ''];
}

describe('bulk summary', () => {
  it('groups failures by reason, and the hint names the flag that feeds the rejected ids back', async () => {
    // Seeded determinations are 1–6 (6 already decommissioned); decommission 1 and 2 first.
    const first = await server.pla(['determinations', 'decommission', '1', '2', '--yes']);
    expect(first.exitCode, String(first.stderr)).toBe(0);

    const rejects = temp.path('decommission-rejects.csv');
    const run = await server.pla(['determinations', 'decommission', '1', '2', '3', '4', '6', '900', '901', '--yes', '--rejects', rejects, '--batch-size', '7']);
    expect(run.exitCode, String(run.stderr)).toBe(9);
    const stderr = String(run.stderr);
    // Already decommissioned (1, 2, 6) is done, as read back: a rerun converges; unknown ids are refused.
    expect(stderr).toMatch(/^decommissioned 5 \(3 of them already decommissioned\), failed 2, skipped 0 in .* — rejects: /m);
    expect(stderr).toMatch(/\n {2}2 refused: 404 [^\n#]*#[^\n]*\n/);

    // The hint names --ids-file (an id command), and that flag reads the rejects file back.
    const [flag, path] = feedBack(stderr);
    expect(flag).toBe('--ids-file');
    expect(path).toBe(rejects);
    const help = await server.pla(['determinations', 'decommission', '--help']);
    expect(String(help.stdout)).toContain(`${flag} <file>`);
    const again = await server.pla(['determinations', 'decommission', flag, path, '--yes']);
    // The same two ids, read from the file: still refused, for the same reason.
    expect(String(again.stderr)).toMatch(/^decommissioned 0, failed 2/m);
    expect(String(again.stderr)).toMatch(/\n {2}2 refused: 404 [^\n#]*#[^\n]*\n/);
  });

  it('puts unreadable rows into the rejects file with their line and error; records feed back with --file', async () => {
    const file = temp.path('mixed.csv');
    await writeFile(file, 'code,name\nSUM-1,one\nSUM-2,two,extra cell\nSUM-3,three\n"SUM-4,unclosed\n');
    const rejects = temp.path('mixed-rejects.ndjson');
    const run = await server.pla(['determinations', 'upsert', '--file', file, '--rejects', rejects, '-q']);
    expect(run.exitCode, String(run.stderr)).toBe(9);
    const rows = (await readFile(rejects, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows[0]).toMatchObject({ _line: 3, _raw: 'SUM-2,two,extra cell' });
    expect(String(rows[0]?._error)).toMatch(/expected 2 cells/);
    const [flag, path] = feedBack(String(run.stderr));
    expect([flag, path]).toEqual(['--file', rejects]);

    // Fed back unfixed, an unreadable row is still a bad row, never an empty record.
    const unfixed = await server.pla(['determinations', 'upsert', flag, path]);
    expect(unfixed.exitCode, String(unfixed.stderr)).toBe(9);
    expect(String(unfixed.stderr)).toMatch(/^skipped line 1: an unreadable row from a rejects file, not fixed yet/m);
    expect(String(unfixed.stderr)).toContain('2 input rows were unreadable and skipped');
    // Fixed in place, it goes through.
    await writeFile(rejects, `${JSON.stringify({ code: 'SUM-2', name: 'two' })}\n`);
    const fixed = await server.pla(['determinations', 'upsert', flag, path, '-o', 'ndjson']);
    expect(fixed.exitCode, String(fixed.stderr)).toBe(0);
    expect(JSON.parse(String(fixed.stdout))).toMatchObject({ code: 'SUM-2', name: 'two' });
  });
});
