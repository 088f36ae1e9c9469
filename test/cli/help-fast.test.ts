/**
 * Help pages answered by the launcher without the CLI (src/cli/help-fast.ts, from
 * the pages the build wrote to dist/help/) are commander's own, byte for byte: every command
 * path of the program, by `--help` and by `pla help`, every topic, `pla`, `pla
 * --help` and `pla help`, at widths from 40 to 200 columns, against the program
 * run in this process on a terminal of that width; then the built CLI in a
 * process against the CLI itself (dist/cli.js, no launcher) for what the
 * launcher decides: which lines it answers and which it leaves to the CLI.
 * That a help page loads nothing of the CLI, and is laid out at a terminal's
 * width, is startup-modules.test.ts.
 */
import { cp, mkdir, open, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helpPageFileFor, helpText } from '../../src/cli/help-fast.js';
import type { HelpIndex } from '../../src/cli/help-layout.js';
import { HELP_TOPICS } from '../../src/cli/help-topics.js';
import { eventually } from '../support/eventually.js';
import { fakeIO } from '../support/fake-io.js';
import { BIN, tempDir } from './support.js';

(globalThis as { __PLA_VERSION__?: string }).__PLA_VERSION__ = '0.0.0-test';
const { createProgram } = await import('../../src/cli/program.js');
const { runPla } = await import('../../src/cli/main.js');

const DIST = fileURLToPath(new URL('../../dist', import.meta.url));
const WIDTHS = [40, 60, 80, 100, 132, 200];

const PAGES = join(DIST, 'help');
let index: HelpIndex;
let config: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  index = JSON.parse(await readFile(join(PAGES, 'index.json'), 'utf8')) as HelpIndex;
  config = await tempDir();
});
afterAll(async () => {
  await config?.remove();
});

/** Every command's path of names, under the program. */
function commandPaths(command: CommandUnknownOpts, path: string[] = []): string[][] {
  return command.commands.flatMap((sub) => [[...path, sub.name()], ...commandPaths(sub, [...path, sub.name()])]);
}

/** A terminal `columns` wide on stdout and stderr, of any height. */
const terminal = (columns: number) => fakeIO({ stdoutIsTTY: true, stderrIsTTY: true, terminalColumns: columns });

/** What commander prints for `pla <words>` on a terminal `columns` wide. */
async function commanderPrints(words: string[], columns: number): Promise<{ code: number; stdout: string; stderr: string }> {
  const fake = terminal(columns);
  const code = await runPla(['node', 'pla', ...words], fake.io, { env: {} });
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

/** What the launcher prints for `pla <words>` from the model on a terminal `columns` wide. */
function launcherPrints(words: string[], columns: number): { code: number; stdout: string; stderr: string } {
  const answer = helpText(PAGES, words, terminal(columns).io);
  if (!answer) throw new Error(`no page for pla ${words.join(' ')}`);
  return answer.stderr ? { code: 2, stdout: '', stderr: answer.text } : { code: 0, stdout: answer.text, stderr: '' };
}

describe('help pages from the model', () => {
  const paths = commandPaths(createProgram(fakeIO().io));
  const lines: string[][] = [
    [],
    ['--help'],
    ['-h'],
    ['help'],
    ...[...Object.keys(HELP_TOPICS), 'options'].map((topic) => ['help', topic]),
    ...paths.map((path) => [...path, '--help']),
    ...paths.map((path) => ['help', ...path]),
    // Aliases and -h reach the same pages.
    ['det', '-h'],
    ['det', 'get', '-h'],
    ['notif', 'list', '--help'],
    ['help', 'set', 'get'],
  ];

  it('covers every command of the program', () => {
    expect(paths.length).toBeGreaterThan(60);
    for (const path of paths) expect(helpPageFileFor(index, [...path, '--help']), path.join(' ')).toBe(`flag.${path.join('.')}.json`);
  });

  it.each(WIDTHS)('are what commander prints, at %i columns', async (columns) => {
    const differ: string[] = [];
    for (const words of lines) {
      const expected = await commanderPrints(words, columns);
      if (JSON.stringify(launcherPrints(words, columns)) !== JSON.stringify(expected)) differ.push(`pla ${words.join(' ')}`);
    }
    expect(differ).toEqual([]);
  });
});

/** Runs `node <args>` with pipes and the test's config folder: what it prints and its exit code. */
async function runNode(args: string[]): Promise<{ code: number | undefined; stdout: string; stderr: string }> {
  const result = await execa('node', args, {
    env: { PATH: process.env.PATH ?? '', PLA_CONFIG_DIR: config.path },
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
    stdin: 'ignore',
  });
  return { code: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr) };
}

describe('the launcher', () => {
  /** `node <these> <words>` runs `pla <words>` with bin/pla.js, or with the CLI alone (`cli`). */
  const nodeArgs = (how: 'launcher' | 'cli'): string[] =>
    how === 'launcher' ? [BIN] : ['-e', `import(${JSON.stringify(join(DIST, 'cli.js'))}).then((m) => m.main(['node', 'pla', ...process.argv.slice(1)]))`, '--'];

  /** Runs `pla <words>` with bin/pla.js, or with the CLI alone (`cli`), as a process with pipes. */
  function run(words: string[], how: 'launcher' | 'cli') {
    return runNode([...nodeArgs(how), ...words]);
  }

  const quote = (arg: string): string => `'${arg.replace(/'/g, `'\\''`)}'`;

  /**
   * `pla help det` on a terminal 5 rows high, through a pager that holds on until
   * told, `signal` sent to pla meanwhile: what the terminal shows and the exit code.
   */
  async function pagedAndSignalled(how: 'launcher' | 'cli', signal: 'SIGINT' | 'SIGTERM') {
    const dir = join(config.path, `pager-${how}-${signal}`);
    await mkdir(dir);
    const [pidFile, go] = [join(dir, 'pid'), join(dir, 'go')];
    await execa('mkfifo', [go]);
    // The pager's shell is pla's child: $PPID is pla.
    const pager = `echo $PPID > ${quote(pidFile)}; cat > /dev/null; read -r _ < ${quote(go)}`;
    const command = `stty cols 80 rows 5 && exec node ${[...nodeArgs(how), 'help', 'det'].map(quote).join(' ')}`;
    const shown = execa('script', ['-qfec', command, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', SHELL: '/bin/sh', TERM: 'xterm-256color', PLA_CONFIG_DIR: config.path, PAGER: pager },
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
    });
    let output = '';
    let ended = false;
    shown.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void shown.then(() => (ended = true));
    await eventually(async () => (await readFile(pidFile, 'utf8')).trim() !== '');
    process.kill(Number(await readFile(pidFile, 'utf8')), signal);
    // pla has taken the signal (it says so), or ended by it; then the pager may end.
    await eventually(async () => output.includes('finishing what is in flight') || ended, 20_000);
    const fifo = await open(go, 'r+');
    await fifo.write('\n');
    await fifo.close();
    const result = await shown;
    return { code: result.exitCode, shown: String(result.stdout) };
  }

  it.each(['SIGINT', 'SIGTERM'] as const)("a page in the pager takes %s as the CLI's does: said, the pager waited for, the same exit code", async (signal) => {
    const launcher = await pagedAndSignalled('launcher', signal);
    expect(launcher).toEqual(await pagedAndSignalled('cli', signal));
    expect(launcher.shown).toContain(signal === 'SIGINT' ? 'interrupted: finishing' : `interrupted by ${signal}: finishing`);
  });

  it.each([
    [[]],
    [['--help']],
    [['det', '--help']],
    [['server', 'keys', 'create', '--help']],
    [['help', 'tasks', 'cancel']],
    [['help', 'options']],
    // Not plain help forms: the CLI answers, the same as without the launcher.
    [['nonsense', '--help']],
    [['help', 'nope']],
    [['help', '__proto__']],
    [['det', 'get', '7', '--help']],
    [['-e', 'qa', 'det', '--help']],
    [['det', '--help', 'get']],
    [['help', 'det', '--verbose']],
  ])('pla %j prints what the CLI prints', async (words) => {
    const [launcher, cli] = await Promise.all([run(words, 'launcher'), run(words, 'cli')]);
    expect(launcher).toEqual(cli);
  });
});

describe('a dist/ whose help pages are missing or damaged', () => {
  /** A copy of the launcher and dist/ (its node_modules linked), whose help pages `damage` changes. */
  async function damagedCopy(damage: (pages: string) => Promise<void>): Promise<string> {
    const root = join(config.path, `copy-${Math.random().toString(36).slice(2)}`);
    await mkdir(root);
    await cp(dirname(BIN), join(root, 'bin'), { recursive: true });
    await cp(join(DIST, '..', 'package.json'), join(root, 'package.json'));
    await cp(DIST, join(root, 'dist'), { recursive: true });
    await symlink(join(DIST, '..', 'node_modules'), join(root, 'node_modules'));
    await damage(join(root, 'dist', 'help'));
    return root;
  }

  it.each<[string, (pages: string) => Promise<void>, string[][]]>([
    ['no help/ at all', (pages) => rm(pages, { recursive: true }), [[], ['--help'], ['det', '--help'], ['help', 'options']]],
    ['an index cut short', (pages) => writeFile(join(pages, 'index.json'), '{"minWidthToWrap":40,"top'), [['--help'], ['help', 'det']]],
    [
      'an index of another shape',
      (pages) => writeFile(join(pages, 'index.json'), '{}'),
      [
        ['det', '--help'],
        ['help', 'exit-codes'],
      ],
    ],
    [
      'a page missing',
      (pages) => rm(join(pages, 'flag.determinations.json')),
      [
        ['det', '--help'],
        ['determinations', '-h'],
      ],
    ],
    ['a page cut short', (pages) => writeFile(join(pages, 'topic.options.json'), '{"parts":["Glo'), [['help', 'options']]],
  ])('with %s, the CLI answers: the page, not a crash', async (_, damage, lines) => {
    const root = await damagedCopy(damage);
    for (const words of lines) {
      const [copy, whole] = await Promise.all([runNode([join(root, 'bin', 'pla.js'), ...words]), runNode([BIN, ...words])]);
      expect(copy, `pla ${words.join(' ')}`).toEqual(whole);
      expect(whole.code === 2 ? whole.stderr : whole.stdout).toMatch(/^Usage: pla|^Global options|^Exit codes/);
    }
  });
});
