/**
 * The help pages as data (help-layout.ts), taken at build time from the CLI
 * itself: each help command line (`pla`, `pla --help`, `pla <path> --help`,
 * `pla help [<path> | <topic>]`) is run through the program as `runPla` runs it,
 * with commander's `Help` configured (its public `configureHelp`) to leave a slot
 * where it would lay out an item or wrap a description. What is printed around
 * the slots (headings, usage, examples, topics) is kept as printed, so the pages
 * are exactly commander's, at any width. scripts/build.mjs writes them to
 * dist/help/; nothing here runs when pla does.
 */
import { PassThrough } from 'node:stream';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { createIOStreams } from '../io/streams.js';
import { type HelpIndex, type HelpIndexCommand, type HelpPage, type HelpSlot, helpPageFile } from './help-layout.js';
import { HELP_TOPICS } from './help-topics.js';
import { CommanderError, commanderExitCode, createProgram, releaseHeldOutput } from './program.js';

/** Marks a slot's index in the captured text; help text never holds it. */
const MARK = '\u0000';

/** Makes every command's help leave slots in `slots` instead of laying out items and descriptions. */
function leaveSlots(command: CommandUnknownOpts, slots: HelpSlot[]): void {
  const slot = (entry: HelpSlot): string => `${MARK}${slots.push(entry) - 1}${MARK}`;
  command.configureHelp({
    ...command.configureHelp(),
    formatItem: (term, termWidth, description) => slot({ term, termWidth, description }),
    boxWrap: (wrap) => slot({ wrap }),
  });
  for (const sub of command.commands) leaveSlots(sub, slots);
}

/** The slot a mark names; a mark of anything else would mean the text held the mark itself. */
function slotAt(slots: readonly HelpSlot[], index: string): HelpSlot {
  const slot = slots[Number(index)];
  if (!slot) throw new Error(`help text holds a stray slot mark (${index})`);
  return slot;
}

/** Runs `pla <args>` as `runPla` does, with slots; returns the page it printed. */
async function capture(args: string[]): Promise<HelpPage> {
  const argv = ['node', 'pla', ...args];
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const stdout = new PassThrough().on('data', (chunk: Buffer) => out.push(chunk));
  const stderr = new PassThrough().on('data', (chunk: Buffer) => err.push(chunk));
  const io = createIOStreams({ stdin: new PassThrough(), stdout, stderr });
  const slots: HelpSlot[] = [];
  const program = createProgram(io, argv);
  leaveSlots(program, slots);
  let code: number;
  try {
    await program.parseAsync(argv);
    code = 0;
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    code = commanderExitCode(error);
  }
  await releaseHeldOutput(io);
  const toStderr = out.length === 0;
  if (code !== (toStderr ? 2 : 0)) throw new Error(`pla ${args.join(' ')} exited ${code}: not a help page`);
  const text = Buffer.concat(toStderr ? err : out).toString('utf8');
  const parts = text.split(MARK).map((piece, i) => (i % 2 === 0 ? piece : slotAt(slots, piece)));
  return { parts: parts.filter((part) => part !== ''), ...(toStderr ? { stderr: true as const } : {}) };
}

/**
 * Captures the pages of `command` (at `path`) and of everything under it into
 * `files`; returns its entry of the index.
 */
async function commandPages(command: CommandUnknownOpts, path: string[], files: Map<string, HelpPage>): Promise<HelpIndexCommand> {
  files.set(helpPageFile('flag', path), await capture([...path, '--help']));
  files.set(helpPageFile('help', path), await capture(['help', ...path]));
  const commands: HelpIndexCommand[] = [];
  for (const sub of command.commands) commands.push(await commandPages(sub, [...path, sub.name()], files));
  return { names: [command.name(), ...command.aliases()], commands };
}

/** Every help page of the program, as the files of dist/help/ the launcher reads: index.json and one a page. */
export async function captureHelp(): Promise<Map<string, HelpIndex | HelpPage>> {
  const io = createIOStreams({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough() });
  const program = createProgram(io);
  const pages = new Map<string, HelpPage>();
  pages.set(helpPageFile('bare'), await capture([]));
  pages.set(helpPageFile('flag'), await capture(['--help']));
  pages.set(helpPageFile('help'), await capture(['help']));
  const topics = [...Object.keys(HELP_TOPICS), 'options'];
  for (const topic of topics) pages.set(helpPageFile('topic', [topic]), await capture(['help', topic]));
  const commands: HelpIndexCommand[] = [];
  for (const sub of program.commands) commands.push(await commandPages(sub, [sub.name()], pages));
  const index: HelpIndex = { minWidthToWrap: program.createHelp().minWidthToWrap, topics, commands };
  return new Map<string, HelpIndex | HelpPage>([['index.json', index], ...pages]);
}
