/**
 * Text from a service or a file made safe for a terminal. A record value or an
 * error body holding `ESC ] 0;… BEL` retitles the window, `ESC [2J` clears the
 * screen, `ESC [1A ESC [2K` erases the row above, a carriage return writes over
 * the start of the line, a right-to-left override reverses what follows: a record
 * could hide or forge the rows an admin reads. Every such character is shown
 * visibly instead, as gh does: C0 controls and DEL in caret notation (`^[`, `^M`,
 * `^?`), C1 controls as the ESC sequence they stand for (`^[[` for U+009B), and
 * bidirectional overrides and isolates as `<U+202E>`. Newlines (and tabs, in
 * messages) are kept. Machine formats (json, ndjson, csv) never come here: their
 * data stays exact. Shared by the CLI and the local server (its console lines show
 * request paths a client chose), hence in src/contract.
 */

/**
 * C0 controls but tab and newline, DEL, C1 controls, and the bidirectional
 * embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069).
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function visible(char: string): string {
  const code = char.charCodeAt(0);
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
  if (code === 0x7f) return '^?';
  if (code <= 0x9f) return `^[${String.fromCharCode(code - 0x40)}`;
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** `text` with every character that could drive the terminal shown visibly; newlines and tabs kept. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, visible);
}

/** What JSON leaves raw that a terminal may still obey: DEL, C1 controls, bidirectional controls. */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text safe for a terminal and still the same JSON: JSON.stringify escapes C0
 * controls itself; the characters it leaves raw are written as `\u009b` escapes
 * (they can only stand inside strings, so the data read back is exact).
 */
export function jsonTerminalSafe(text: string): string {
  return text.replace(UNSAFE_IN_JSON, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * How stdout's text is made safe when stdout is a terminal, by output format: json
 * and ndjson with JSON escapes (still exact), csv and ids visibly (a person is
 * reading them), tables not at all (their cells are made safe as they are laid out,
 * and their colours are pla's own escapes).
 */
export function terminalShield(format: 'table' | 'json' | 'ndjson' | 'csv' | 'xlsx', quiet: boolean): ((text: string) => string) | undefined {
  if (quiet || format === 'csv') return terminalSafe;
  if (format === 'json' || format === 'ndjson') return jsonTerminalSafe;
  return undefined;
}
