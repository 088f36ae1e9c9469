/**
 * `pla --help`, `pla <path> --help` (or -h), `pla help [<path> | <topic>]` and
 * `pla` alone, answered from dist/help.json without the CLI: bin/pla.js requires
 * this (bundled as CommonJS, dist/help.cjs) before anything else, so a help page
 * costs Node's start-up, one small script and one file instead of the ES module
 * loader, commander and some sixteen chunks (on Node 22 about 2.2× `node -e 0`
 * before, docs/startup.md). Anything else (an unknown command, extra words or
 * options, a page longer than the terminal, which the CLI shows through the
 * pager) is left to the CLI, which prints the same page or the error.
 * It reads the process through system-io.ts, as the CLI does.
 */
import { readFileSync } from 'node:fs';
import type { IOStreams } from '../io/streams.js';
import { type HelpCommand, type HelpModel, type HelpPage, layOut } from './help-layout.js';
import { systemIO } from './system-io.js';

/** The commands `names` lead to, by name or alias, or undefined. */
function commandAt(commands: readonly HelpCommand[], names: readonly string[]): HelpCommand | undefined {
  let found: HelpCommand | undefined;
  let level = commands;
  for (const name of names) {
    found = level.find((command) => command.names.includes(name));
    if (!found) return undefined;
    level = found.commands;
  }
  return found;
}

/** The page `words` (the command line after `pla`) ask for, or undefined when it is not one of the plain help forms. */
export function helpPageFor(model: HelpModel, words: readonly string[]): HelpPage | undefined {
  if (words.some((word) => word.startsWith('-') && word !== words.at(-1))) return undefined;
  const last = words.at(-1);
  if (words.length === 0) return model.bare;
  if (last === '--help' || last === '-h') {
    const path = words.slice(0, -1);
    return path.length === 0 ? model.top : commandAt(model.commands, path)?.flag;
  }
  if (words[0] !== 'help' || last?.startsWith('-')) return undefined;
  const names = words.slice(1);
  if (names.length === 0) return model.helpTop;
  const topic = names.length === 1 ? model.topics.find(([name]) => name === names[0]) : undefined;
  return topic ? topic[1] : commandAt(model.commands, names)?.help;
}

/**
 * The text `pla <words>` prints on `io`, and whether on stderr (`pla` alone), laid
 * out as commander would: at the terminal's width on a terminal, else 80
 * (program.ts, configureTree). Undefined when the CLI must answer: not a plain
 * help form, or a page it shows through the pager (longer than the terminal).
 */
export function helpText(model: HelpModel, words: readonly string[], io: IOStreams): { text: string; stderr: boolean } | undefined {
  const page = helpPageFor(model, words);
  if (!page) return undefined;
  const stderr = page.stderr === true;
  const terminal = stderr ? io.stderrIsTTY : io.stdoutIsTTY;
  const text = layOut(page, (terminal ? io.terminalColumns : undefined) ?? 80, model.minWidthToWrap);
  const pager = io.pager.trim();
  const paged = !stderr && terminal && pager !== '' && pager !== 'cat' && io.terminalRows !== undefined && text.split('\n').length - 1 >= io.terminalRows;
  return paged ? undefined : { text, stderr };
}

/**
 * Prints the help page `words` ask for, from the model in `modelFile`, and returns
 * true; false (nothing printed) when the CLI must answer.
 */
export function answerHelp(modelFile: string, words: readonly string[]): boolean {
  const io = systemIO();
  const answer = helpText(JSON.parse(readFileSync(modelFile, 'utf8')) as HelpModel, words, io);
  if (!answer) return false;
  const stream = answer.stderr ? io.stderr : io.stdout;
  // A reader gone (`pla --help | head -1`) is not an error.
  stream.on('error', () => {});
  stream.write(answer.text);
  // `pla` alone is a usage error, as commander reports it.
  if (answer.stderr) process.exitCode = 2;
  return true;
}
