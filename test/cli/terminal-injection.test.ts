/**
 * Terminal escape injection: records and error bodies holding escape sequences
 * (a window retitle, a screen clear, erase-the-row-above, a carriage return, a
 * right-to-left override) reach a real pseudo-terminal (test/support/terminal.ts)
 * shown visibly, never obeyed; tables measure widths on what is shown. Machine
 * formats keep the values exact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../support/fake-server.js';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { runInTerminal, type ScreenLine } from '../support/terminal.js';
import { TEST_KEY } from './support.js';

const RETITLE = '\x1b]0;pwned\x07';
const CLEAR = '\x1b[2J';
const ERASE_ABOVE = '\x1b[1A\x1b[2K';
const HOSTILE_NAME = `${RETITLE}Ledger${CLEAR}${ERASE_ABOVE}\rFORGED\u202Eevil`;

let server: LocalServer;
let fake: FakeServer;
let id: string;

beforeAll(async () => {
  server = await startLocalServer({ seed: true });
  const made = await server.pla(['determinations', 'create', '--data', JSON.stringify({ code: 'ESC-1', name: HOSTILE_NAME }), '-o', 'json']);
  expect(made.exitCode, String(made.stderr)).toBe(0);
  id = String((JSON.parse(String(made.stdout)) as { id: number }).id);
  fake = await startFakeServer([
    {
      path: /.*/,
      reply: {
        status: 400,
        headers: { 'content-type': 'application/problem+json' },
        body: { title: 'Bad Request', status: 400, detail: `refused${CLEAR}${ERASE_ABOVE}\rall good${RETITLE}` },
      },
    },
  ]);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

const shown = (lines: ScreenLine[]) => lines.map((l) => `${l.wrapped ? '↩' : ' '}${l.text}`).join('\n');
/** Escape sequences a record or error body carried, none of which may reach the terminal. */
const INJECTED = ['\x1b]0;', '\x1b[2J', '\x1b[1A', '\x1b[2K', '\u202E', '\rFORGED', '\rall good'];

describe('escape sequences from a service on a real terminal', () => {
  it('a list shows them visibly in a table that fits, every row still on screen', async () => {
    const run = await runInTerminal(['determinations', 'list', '--size', '50'], { columns: 100, env: { PLA_CONFIG_DIR: server.configDir } });
    expect(run.exitCode, shown(run.lines)).toBe(0);
    for (const sequence of INJECTED) expect(run.raw).not.toContain(sequence);
    const row = run.lines.find((l) => l.text.includes('ESC-1'))?.text ?? '';
    // Cut to its column (…), after the first characters, shown visibly.
    // (How much shows before the cut is the layout's choice: the column gives way to id, status and dates.)
    expect(row, shown(run.lines)).toMatch(/│ \^\[\]0;pw\S*… │/);
    // Widths counted on what is shown: no row wider than the terminal, none wrapped.
    expect(
      run.lines.filter((l) => l.wrapped),
      shown(run.lines),
    ).toEqual([]);
    // Every record's row is there (none erased), the header above them too.
    expect(run.lines.filter((l) => /^│ \d+ +│/.test(l.text)).length, shown(run.lines)).toBe(7);
    expect(
      run.lines.some((l) => /^│ id +│ code/.test(l.text)),
      shown(run.lines),
    ).toBe(true);
  });

  it('one record as a key/value table shows them visibly', async () => {
    const run = await runInTerminal(['determinations', 'get', id, '--wide'], { columns: 200, env: { PLA_CONFIG_DIR: server.configDir } });
    expect(run.exitCode, shown(run.lines)).toBe(0);
    for (const sequence of INJECTED) expect(run.raw).not.toContain(sequence);
    // A cell is one line: the carriage return is a space there.
    expect(shown(run.lines)).toContain('│ name      │ ^[]0;pwned^GLedger^[[2J^[[1A^[[2K FORGED<U+202E>evil │');
  });

  it("a service's error body is shown visibly in the error line", async () => {
    const run = await runInTerminal(['determinations', 'get', '7'], {
      columns: 200,
      env: { PLA_CONFIG_DIR: server.configDir, PLA_BASE_URL: fake.url, PLA_API_KEY: TEST_KEY },
    });
    expect(run.exitCode, shown(run.lines)).toBe(5);
    for (const sequence of INJECTED) expect(run.raw).not.toContain(sequence);
    // The message is one line: the carriage return is a space there.
    expect(shown(run.lines)).toContain('error: 400 Bad Request: refused^[[2J^[[1A^[[2K all good^[]0;pwned^G (GET');
  });

  it('json and csv on a terminal: shown safe too, json still the same data', async () => {
    const json = await runInTerminal(['determinations', 'get', id, '-o', 'json'], { columns: 200, env: { PLA_CONFIG_DIR: server.configDir } });
    expect(json.exitCode, shown(json.lines)).toBe(0);
    for (const sequence of INJECTED) expect(json.raw).not.toContain(sequence);
    // JSON's own escapes: the text parses back to the exact value.
    const text = json.lines.map((l) => l.text).join('\n');
    expect((JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as { name: string }).name).toBe(HOSTILE_NAME);
    const csv = await runInTerminal(['determinations', 'get', id, '-o', 'csv'], { columns: 200, env: { PLA_CONFIG_DIR: server.configDir } });
    expect(csv.exitCode, shown(csv.lines)).toBe(0);
    for (const sequence of INJECTED) expect(csv.raw).not.toContain(sequence);
    expect(shown(csv.lines)).toContain('^[]0;pwned^GLedger^[[2J');
  });

  it('json keeps the value exact', async () => {
    const run = await server.pla(['determinations', 'get', id, '-o', 'json']);
    expect(run.exitCode).toBe(0);
    expect((JSON.parse(String(run.stdout)) as { name: string }).name).toBe(HOSTILE_NAME);
  });
});
