/**
 * `pla --help`, `pla <path> --help` (or -h), `pla help [<path> | <topic>]` and
 * `pla` alone, answered from dist/help/ without the CLI: bin/pla.js requires
 * this (bundled as CommonJS, dist/help.cjs) before anything else, so a help page
 * costs Node's start-up, one small script and two small files (the index and the
 * page) instead of the ES module loader, commander and some sixteen chunks:
 * 1.1–1.2× `node -e 0` on Node 22 and later instead of 1.7–2.1× (20–23 ms of
 * CPU, docs/startup.md); a page longer than the terminal goes through the
 * pager, as the CLI's does. Anything else (an unknown command, extra words or
 * options) is left to the CLI, which prints the page or the error. It reads the
 * process through system-io.ts, as the CLI does.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IOStreams } from '../io/streams.js';
import { type HelpIndex, type HelpIndexCommand, type HelpPage, helpPageFile, layOut } from './help-layout.js';
import { systemIO } from './system-io.js';

/** The canonical names of the command `names` lead to (by name or alias), or undefined. */
function canonicalPath(commands: readonly HelpIndexCommand[], names: readonly string[]): string[] | undefined {
  const path: string[] = [];
  let level = commands;
  for (const name of names) {
    const found = level.find((command) => command.names.includes(name));
    if (!found) return undefined;
    path.push(found.names[0] ?? name);
    level = found.commands;
  }
  return path;
}

/** The file of the page `words` (the command line after `pla`) ask for, or undefined when it is not one of the plain help forms. */
export function helpPageFileFor(index: HelpIndex, words: readonly string[]): string | undefined {
  if (words.length === 0) return helpPageFile('bare');
  const last = words[words.length - 1] ?? '';
  if (words.slice(0, -1).some((word) => word.startsWith('-'))) return undefined;
  if (last === '--help' || last === '-h') {
    const path = canonicalPath(index.commands, words.slice(0, -1));
    return path && helpPageFile('flag', path);
  }
  if (words[0] !== 'help' || last.startsWith('-')) return undefined;
  const names = words.slice(1);
  if (names.length === 1 && index.topics.includes(names[0] ?? '')) return helpPageFile('topic', names);
  const path = canonicalPath(index.commands, names);
  return path && helpPageFile('help', path);
}

/**
 * A JSON file of dist/help/, or undefined when it cannot be read as one: a
 * dist/ half copied or swapped by a build under the run (the index of one
 * build, the page of the next) leaves the CLI to answer rather than crash.
 */
function readHelpFile<T>(dir: string, file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, file), 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** Whether `index` has the index's shape (a dist/help/ of another layout does not). */
function isHelpIndex(index: HelpIndex | undefined): index is HelpIndex {
  return Array.isArray(index?.commands) && Array.isArray(index.topics) && typeof index.minWidthToWrap === 'number';
}

/** A help page as the run shows it. */
export interface HelpAnswer {
  text: string;
  /** `pla` alone: on stderr, exit 2. */
  stderr: boolean;
  /** Longer than the terminal: through the pager, as the CLI shows it (program.ts, releaseHeldOutput; io/pager.ts). */
  paged: boolean;
}

/**
 * What `pla <words>` shows on `io`, from the pages in `dir`, laid out as
 * commander would: at the terminal's width on a terminal, else 80 (program.ts,
 * configureTree). Undefined when the CLI must answer: not a plain help form, or
 * no page to read.
 */
export function helpText(dir: string, words: readonly string[], io: IOStreams): HelpAnswer | undefined {
  const index = readHelpFile<HelpIndex>(dir, 'index.json');
  if (!isHelpIndex(index)) return undefined;
  const file = helpPageFileFor(index, words);
  const page = file === undefined ? undefined : readHelpFile<HelpPage>(dir, file);
  if (page === undefined || !Array.isArray(page.parts)) return undefined;
  const stderr = page.stderr === true;
  const terminal = stderr ? io.stderrIsTTY : io.stdoutIsTTY;
  const text = layOut(page, (terminal ? io.terminalColumns : undefined) ?? 80, index.minWidthToWrap);
  const pager = io.pager.trim();
  const paged = !stderr && terminal && pager !== '' && pager !== 'cat' && io.terminalRows !== undefined && text.split('\n').length - 1 >= io.terminalRows;
  return { text, stderr, paged };
}

/**
 * Shows the help page `words` ask for, from the pages in `dir` (dist/help/), and
 * returns true; false (nothing shown) when the CLI must answer.
 */
export function answerHelp(dir: string, words: readonly string[]): boolean {
  const io = systemIO();
  const answer = helpText(dir, words, io);
  if (!answer) return false;
  const stream = answer.stderr ? io.stderr : io.stdout;
  // A reader gone (`pla --help | head -1`) is not an error; nor is a terminal closed under the pager (SIGHUP), whose
  // notice then fails to write (as main.ts guards both).
  io.stdout.on('error', () => {});
  io.stderr.on('error', () => {});
  if (answer.paged) void showPaged(answer.text, io);
  else stream.write(answer.text);
  // `pla` alone is a usage error, as commander reports it.
  if (answer.stderr) process.exitCode = 2;
  return true;
}

/** Through the pager; its module (which starts a process) loads only for a page that needs it. */
async function showPaged(text: string, io: IOStreams): Promise<void> {
  const [{ page }, { OutputClosedError }, { STOPPING_SIGNALS, STOPPING_SIGNAL_NAMES, stoppingNotice }] = await Promise.all([
    import('../io/pager.js'),
    import('../errors.js'),
    import('./stopping-signals.js'),
  ]);
  // A stopping signal as the CLI takes it (main.ts): the first is said, and pla waits for the pager, which gets Ctrl-C
  // too and decides (leaving it would leave the terminal to two readers); a second ends pla at once. Ctrl-C ends
  // interrupted; SIGTERM and SIGHUP, stopped as asked, 0.
  let stoppedBy: keyof typeof STOPPING_SIGNALS | undefined;
  for (const signal of STOPPING_SIGNAL_NAMES) {
    process.on(signal, () => {
      if (stoppedBy) process.exit(STOPPING_SIGNALS[stoppedBy]);
      stoppedBy = signal;
      io.stderr.write(stoppingNotice(signal));
      if (signal === 'SIGINT') process.exitCode = STOPPING_SIGNALS.SIGINT;
    });
  }
  // The reader may quit the pager before the end: what it did not read is not an error.
  await page(text, io).catch((error: unknown) => {
    if (!(error instanceof OutputClosedError)) throw error;
  });
}
