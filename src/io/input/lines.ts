import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/**
 * Streams the non-blank lines of text input (every line with `blanks`), trimmed,
 * with their 1-based line numbers. Lines are cut from each chunk as they are asked for, rather than
 * split into an array per chunk (as readline does), so few strings are alive at
 * once: that keeps the garbage collector's young generation, and so peak memory,
 * small when a million lines stream through.
 */
export async function* readLines(input: Readable, options: { blanks?: boolean } = {}): AsyncGenerator<{ text: string; line: number }> {
  const decoder = new StringDecoder('utf8');
  let carry = '';
  let line = 0;
  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    const text = carry + (typeof chunk === 'string' ? chunk : decoder.write(chunk));
    let start = 0;
    for (let end = text.indexOf('\n', start); end !== -1; end = text.indexOf('\n', start)) {
      line += 1;
      const trimmed = (line === 1 ? text.slice(start, end).replace(/^\uFEFF/, '') : text.slice(start, end)).trim();
      start = end + 1;
      if (trimmed !== '' || options.blanks === true) yield { text: trimmed, line };
    }
    carry = text.slice(start);
  }
  const last = (carry + decoder.end()).trim();
  if (last !== '') yield { text: line === 0 ? last.replace(/^\uFEFF/, '') : last, line: line + 1 };
}
