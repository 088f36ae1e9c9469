/**
 * Line breaks as text editors and spreadsheets count them: CRLF, a lone CR (old
 * Mac exports) and LF each end one line, and so does CR CR LF (a CRLF file passed
 * through a tool that turned each LF into CRLF once more: editors show no empty
 * line between). Counted with a loop rather than a regular expression's match
 * array: it runs on every csv row.
 */
/** One line's end, longest first (see above). */
export const LINE_END = /\r\r\n|\r\n|\r|\n/;
/** csv-parse's row ends, in the order it tries them (longest first, so CRLF is one end). */
export const RECORD_DELIMITERS = ['\r\r\n', '\r\n', '\n', '\r'];

const CR = 13;
const LF = 10;

/** How many lines `text` ends (CRLF counted once), from `start` up to `end`. */
export function lineBreaks(text: string, start = 0, end = text.length): number {
  let count = 0;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code === LF) count += 1;
    else if (code === CR) {
      count += 1;
      if (text.charCodeAt(i + 1) === LF) i += 1;
      else if (text.charCodeAt(i + 1) === CR && text.charCodeAt(i + 2) === LF) i += 2;
    }
  }
  return count;
}

/** The line breaks before the first other character (blank lines skipped before a row). */
export function leadingLineBreaks(text: string): number {
  let end = 0;
  while (end < text.length && (text.charCodeAt(end) === CR || text.charCodeAt(end) === LF)) end += 1;
  return end === 0 ? 0 : lineBreaks(text, 0, end);
}

/** `text` from the start of its second line ('' when it has one line). */
export function withoutFirstLine(text: string): string {
  const body = text.replace(/^[\r\n]+/, '');
  const match = LINE_END.exec(body);
  return match ? body.slice(match.index + match[0].length) : '';
}
