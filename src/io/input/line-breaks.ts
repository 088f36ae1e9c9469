/**
 * Line breaks as text editors and spreadsheets count them: CRLF, a lone CR (old
 * Mac exports) and LF each end one line.
 */
const BREAK = /\r\n|\r|\n/g;

/** How many lines `text` ends (CRLF counted once). */
export function lineBreaks(text: string): number {
  return text.match(BREAK)?.length ?? 0;
}

/** The line breaks before the first other character (blank lines skipped before a row). */
export function leadingLineBreaks(text: string): number {
  return lineBreaks(/^[\r\n]*/.exec(text)?.[0] ?? '');
}

/** `text` from the start of its second line ('' when it has one line). */
export function withoutFirstLine(text: string): string {
  const body = text.replace(/^[\r\n]+/, '');
  const match = /\r\n|\r|\n/.exec(body);
  return match ? body.slice(match.index + match[0].length) : '';
}
