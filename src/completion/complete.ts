/**
 * `pla __complete <words…>`: the candidates for the last word of a command line,
 * one a line, for the shell scripts of `pla completion`. A first line `:files`
 * asks the shell to complete file names instead. Reads only the prebuilt tree
 * and the config file, so completing costs what `pla --version` costs: Node's
 * start-up and two small files. An entry point of its own, bundled as CommonJS
 * (dist/complete.cjs) that bin/pla.js requires: through the ES module loader
 * it cost 6–8 ms more on Node 22 and later (docs/startup.md). Like
 * src/cli/main.ts it reads the process's environment.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { configDir } from '../config/config-dir.js';
import { BUILT_IN_ENVIRONMENTS, ENV_NAME } from '../config/types.js';
import type { CompletionNode, CompletionOption, ValueKind } from './tree.js';

/** The directive for "complete file names here". */
export const FILES = ':files';

/**
 * Built-in environment names and those stored in the config file that `-e`
 * takes: a damaged file (environments a list or a string, a name with a line
 * break) offers no index or piece of a name.
 */
function environmentNames(): string[] {
  let stored: string[] = [];
  try {
    const config: unknown = JSON.parse(readFileSync(join(configDir(process.env), 'config.json'), 'utf8'));
    const environments: unknown = typeof config === 'object' && config !== null && 'environments' in config ? config.environments : undefined;
    if (typeof environments === 'object' && environments !== null && !Array.isArray(environments))
      stored = Object.keys(environments).filter((name) => ENV_NAME.test(name));
  } catch {
    // No config yet, or unreadable: the built-in names still help.
  }
  return [...new Set([...BUILT_IN_ENVIRONMENTS, ...stored])];
}

/** The ids of the runs kept (`<config>/runs/<run>.ndjson`), newest first, then `last`. */
function runIds(): string[] {
  let names: string[] = [];
  try {
    names = readdirSync(join(configDir(process.env), 'runs')).filter((name) => name.endsWith('.ndjson'));
  } catch {
    // No runs recorded yet.
  }
  return [
    ...names
      .map((name) => name.slice(0, -'.ndjson'.length))
      .sort()
      .reverse(),
    'last',
  ];
}

function findOption(options: readonly CompletionOption[], word: string): CompletionOption | undefined {
  return options.find((o) => o.flags.includes(word));
}

/** Candidates of an option's value or a positional argument, or the file directive. */
function valueCandidates(entry: { value?: ValueKind; choices?: string[] } | undefined): string[] {
  if (entry?.value === 'env') return environmentNames();
  if (entry?.value === 'run') return runIds();
  if (entry?.value === 'file') return [FILES];
  return entry?.choices ?? [];
}

/** The candidates for the last of `words` (the words after `pla`; the last may be ''). */
export function candidates(root: CompletionNode, words: readonly string[]): string[] {
  const globals = root.options;
  let node = root;
  let positional = 0;
  const current = words[words.length - 1] ?? '';
  for (let i = 0; i < words.length - 1; i++) {
    const word = words[i] as string;
    if (word === '--') break;
    if (word.startsWith('-')) {
      const option = findOption([...node.options, ...globals], word);
      if (option?.value && !word.includes('=')) {
        if (i === words.length - 2) {
          // Completing this option's value.
          const values = valueCandidates(option);
          return values[0] === FILES ? values : values.filter((v) => v.startsWith(current));
        }
        i++;
      }
      continue;
    }
    const sub = node.commands.find((c) => c.names.includes(word));
    if (sub && positional === 0) node = sub;
    else positional++;
  }
  if (current.startsWith('-')) {
    const flags = [...node.options, ...(node === root ? [] : globals)].flatMap((o) => o.flags).filter((f) => f.startsWith('--') || current.length <= 2);
    return [...new Set(flags)].filter((f) => f.startsWith(current));
  }
  // `pla help <command…>` completes command names.
  if (node.names[0] === 'help') return root.commands.map((c) => c.names[0] as string).filter((n) => n !== 'help' && n.startsWith(current));
  if (positional === 0 && node.commands.length > 0) return node.commands.map((c) => c.names[0] as string).filter((n) => n.startsWith(current));
  const values = valueCandidates(node.args[Math.min(positional, node.args.length - 1)]);
  return values[0] === FILES ? values : values.filter((v) => v.startsWith(current));
}

/** Entry point of `pla __complete` (bin/pla.js calls it without loading the CLI). */
export function complete(treeFile: string, words: readonly string[]): void {
  const root = JSON.parse(readFileSync(treeFile, 'utf8')) as CompletionNode;
  const out = candidates(root, words.length === 0 ? [''] : words);
  if (out.length > 0) process.stdout.write(`${out.join('\n')}\n`);
}
