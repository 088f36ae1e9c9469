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

/** A command of the tree with the pages of `pla <path> --help` (`flag`) and `pla help <path>` (`help`). */
export interface HelpCommand {
  /** The name, then the aliases. */
  names: string[];
  flag: HelpPage;
  help: HelpPage;
  commands: HelpCommand[];
}

/** Every page the launcher answers, as dist/help.json holds it. */
export interface HelpModel {
  /** Below this many columns commander leaves a text unwrapped (`Help.minWidthToWrap`). */
  minWidthToWrap: number;
  /** `pla` alone. */
  bare: HelpPage;
  /** `pla --help` and `pla -h`. */
  top: HelpPage;
  /** `pla help`: the whole program and the topics. */
  helpTop: HelpPage;
  /** `pla help <topic>`, in order. */
  topics: Array<[name: string, page: HelpPage]>;
  commands: HelpCommand[];
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
    let current = chunks[0] as string;
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
