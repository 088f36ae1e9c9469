/**
 * Help pages as data, laid out at the run's width without commander: bin/pla.js
 * answers `--help` and `pla help` from them (help-fast.ts) so a help page costs
 * Node's start-up and one file, not the CLI (docs/startup.md). The pages are
 * taken at build time from what commander itself prints (help-capture.ts), with
 * every piece whose layout depends on the width left as a slot; the two functions
 * below lay a slot out as commander 14's `Help.formatItem` and `Help.boxWrap` do.
 * test/cli/help-fast.test.ts compares every page with commander's at several
 * widths, so the two cannot drift apart unseen.
 */

/** An item of a list (an option, a command, an argument): its term, padded to `termWidth`, then its description wrapped beside it. */
export interface HelpItemSlot {
  term: string;
  termWidth: number;
  description: string;
}

/** A text wrapped to the width as a whole (a command's description). */
export interface HelpWrapSlot {
  wrap: string;
}

export type HelpSlot = HelpItemSlot | HelpWrapSlot;

/** A page as printed: text as it is, and slots laid out at the width. */
export interface HelpPage {
  parts: Array<string | HelpSlot>;
  /** `pla` alone prints its help on stderr and fails (exit 2); every other page goes to stdout. */
  stderr?: true;
}

/** A command's names (the name, then the aliases) and its subcommands: what finds a page. */
export interface HelpIndexCommand {
  names: string[];
  commands: HelpIndexCommand[];
}

/** dist/help/index.json: what finds a page, without the pages (each its own file, so a run reads one). */
export interface HelpIndex {
  /** Below this many columns commander leaves a text unwrapped (`Help.minWidthToWrap`). */
  minWidthToWrap: number;
  /** The names of `pla help <topic>`. */
  topics: string[];
  commands: HelpIndexCommand[];
}

/**
 * What a page shows: `bare` is `pla` alone, `flag` a command's `--help` (the
 * program's with no path), `help` `pla help <path>` (with none, the program and
 * the topics), `topic` `pla help <topic>`.
 */
export type HelpPageKind = 'bare' | 'flag' | 'help' | 'topic';

/** The file in dist/help/ of a page: its kind, then the canonical names of its path (or the topic). */
export function helpPageFile(kind: HelpPageKind, names: readonly string[] = []): string {
  return `${[kind, ...names].join('.')}.json`;
}

/** `Help.boxWrap`: wraps at whitespace to `width`, keeping line breaks; nothing below `minWidthToWrap`. */
function boxWrap(text: string, width: number, minWidthToWrap: number): string {
  if (width < minWidthToWrap) return text;
  const wrapped: string[] = [];
  for (const line of text.split(/\r\n|\n/)) {
    const chunks = line.match(/[\s]*[^\s]+/g);
    if (chunks === null) {
      wrapped.push('');
      continue;
    }
    let current = chunks[0] ?? '';
    for (const chunk of chunks.slice(1)) {
      if (current.length + chunk.length <= width) {
        current += chunk;
        continue;
      }
      wrapped.push(current);
      current = chunk.trimStart();
    }
    wrapped.push(current);
  }
  return wrapped.join('\n');
}

/** `Help.formatItem`: two spaces, the padded term, two spaces, the description wrapped in the columns left (unless too few or preformatted). */
function formatItem({ term, termWidth, description }: HelpItemSlot, width: number, minWidthToWrap: number): string {
  if (!description) return `  ${term}`;
  const remaining = width - termWidth - 4;
  const preformatted = /\n[^\S\r\n]/.test(description);
  const laidOut =
    remaining < minWidthToWrap || preformatted ? description : boxWrap(description, remaining, minWidthToWrap).replace(/\n/g, `\n${' '.repeat(termWidth + 2)}`);
  return `  ${term.padEnd(termWidth)}  ${laidOut.replace(/\n/g, '\n  ')}`;
}

/** The page's text at `width` columns. */
export function layOut(page: HelpPage, width: number, minWidthToWrap: number): string {
  return page.parts
    .map((part) => (typeof part === 'string' ? part : 'wrap' in part ? boxWrap(part.wrap, width, minWidthToWrap) : formatItem(part, width, minWidthToWrap)))
    .join('');
}
