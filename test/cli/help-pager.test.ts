/**
 * Help that helps: an example in every command's help, `pla help <topic>` for
 * environments, bulk files, plans, exit codes and the local server, and long help
 * and plans through the pager ($PAGER, else less -FRX) on a pseudo-terminal only.
 * Through the built CLI.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { runInTerminal } from '../support/terminal.js';
import { pla, tempDir } from './support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** A pager that marks every line it shows, so the screen tells whether text went through it. */
const MARKING_PAGER = "sed 's/^/| /'";

interface TreeNode {
  names: string[];
  commands?: TreeNode[];
}

let config: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  config = await tempDir();
});
afterAll(async () => {
  await config?.remove();
});

describe('help', () => {
  it('every command has an example in its help', async () => {
    const tree = JSON.parse(await readFile(join(ROOT, 'dist', 'completion-tree.json'), 'utf8')) as TreeNode;
    const paths: string[][] = [];
    const walk = (node: TreeNode, path: string[]) => {
      for (const sub of node.commands ?? []) {
        paths.push([...path, sub.names[0] as string]);
        walk(sub, [...path, sub.names[0] as string]);
      }
    };
    walk(tree, []);
    expect(paths.length).toBeGreaterThan(40);
    const missing: string[] = [];
    // Four at a time: the machine is shared.
    for (let i = 0; i < paths.length; i += 4) {
      const runs = await Promise.all(paths.slice(i, i + 4).map(async (path) => ({ path, run: await pla([...path, '--help'], { configDir: config.path }) })));
      for (const { path, run } of runs) if (run.exitCode !== 0 || !/\nExamples?:\n {2}pla /.test(run.stdout)) missing.push(path.join(' '));
    }
    expect(missing).toEqual([]);
  });

  it.each([
    ['environments', /^Environments\n/],
    ['bulk-files', /^Bulk files\n/],
    ['plans', /^Plans\n/],
    ['exit-codes', /^Exit codes:\n {4}0 /],
    ['local-server', /^The local server\n/],
  ])('pla help %s', async (topic, start) => {
    const run = await pla(['help', topic], { configDir: config.path });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(start);
  });

  it('pla help lists the topics; an unknown one is exit 2 naming them', async () => {
    expect((await pla(['help'], { configDir: config.path })).stdout).toMatch(/Topics:\n {2}pla help environments /);
    const unknown = await pla(['help', 'nope'], { configDir: config.path });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('topics: environments, bulk-files, plans, exit-codes, local-server');
  });
});

describe('the pager', () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startLocalServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('long help goes through $PAGER on a terminal, not when piped or when it fits', async () => {
    // A tree's help is longer than 12 rows (its global options are a pointer away: pla help options).
    const paged = await runInTerminal(['help', 'determinations'], { columns: 100, rows: 12, env: { PAGER: MARKING_PAGER, PLA_CONFIG_DIR: config.path } });
    expect(paged.lines[0]?.text).toBe('| Usage: pla determinations|det [options] [command]');
    const flag = await runInTerminal(['determinations', '--help'], { columns: 100, rows: 12, env: { PAGER: MARKING_PAGER, PLA_CONFIG_DIR: config.path } });
    expect(flag.exitCode).toBe(0);
    expect(flag.lines[0]?.text).toBe('| Usage: pla determinations|det [options] [command]');
    const short = await runInTerminal(['help', 'exit-codes'], { columns: 100, rows: 20, env: { PAGER: MARKING_PAGER, PLA_CONFIG_DIR: config.path } });
    expect(short.lines[0]?.text).toBe('Exit codes:');
    const piped = await pla(['help', 'determinations'], { configDir: config.path, env: { PAGER: MARKING_PAGER } });
    expect(piped.stdout).toMatch(/^Usage: pla determinations/);
  });

  it('a long plan goes through the pager; PAGER=cat turns it off', async () => {
    const file = join(server.dataDir, 'many.ndjson');
    await writeFile(file, Array.from({ length: 80 }, (_, i) => JSON.stringify({ code: `PG-${i}`, name: `paged ${i}` })).join('\n'));
    const env = { PAGER: MARKING_PAGER, PLA_CONFIG_DIR: server.configDir };
    const paged = await runInTerminal(['det', 'create', '--file', file, '--plan'], { columns: 100, rows: 20, env });
    expect(paged.exitCode).toBe(0);
    expect(
      paged.lines.some((l) => /^\| .*PG-0"/.test(l.text)),
      paged.raw.slice(0, 2000),
    ).toBe(true);
    const plain = await runInTerminal(['det', 'create', '--file', file, '--plan'], { columns: 100, rows: 20, env: { ...env, PAGER: 'cat' } });
    expect(plain.lines.some((l) => /^\| /.test(l.text))).toBe(false);
    expect(plain.lines.some((l) => l.text.includes('PG-0"'))).toBe(true);
    // A plan changes nothing.
    const listed = await server.pla(['det', 'list', '--all', '-o', 'json']);
    expect(listed.stdout).not.toContain('PG-0"');
  });
});
