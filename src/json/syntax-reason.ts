/**
 * The reason of a JSON syntax error, worded the same on every Node: Node 22+ (V8
 * 12.4+) appends ` (line 1 column 14)` to `JSON.parse` messages, which read as
 * nested parentheses inside pla's `malformed JSON (…)` and, for one line of an
 * ndjson file, name "line 1" where the file's line is another. The position in the
 * text (`at position 13`, which every Node gives) is kept; the file's line is
 * pla's to say.
 */
export function jsonSyntaxReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\(line \d+ column \d+\)$/, '');
}
