import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { UsageError } from '../../errors.js';

/**
 * Opens `--file`/`--ids-file` input: `-` is `stdin` (the run's, from its IO
 * object), anything else a file path.
 */
export async function openInput(file: string, stdin: Readable | undefined): Promise<Readable> {
  if (file === '-') {
    if (!stdin) throw new UsageError('reading - (stdin) is not possible here');
    return stdin;
  }
  try {
    const handle = await open(file, 'r');
    // Small chunks keep few strings alive between collections, which keeps the
    // garbage collector's young generation (most of the peak memory) small.
    return handle.createReadStream({ highWaterMark: 16 * 1024 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder' : (error as Error).message;
    throw new UsageError(`cannot read ${file}: ${why}`, { cause: error });
  }
}

/** Drops a leading UTF-8 byte order mark, which JSON parsers refuse. */
export async function* withoutBom(stream: AsyncIterable<Buffer | string>): AsyncGenerator<Buffer | string> {
  let first = true;
  for await (const chunk of stream) {
    if (first && typeof chunk !== 'string' && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) yield chunk.subarray(3);
    else if (first && typeof chunk === 'string' && chunk.startsWith('\uFEFF')) yield chunk.slice(1);
    else yield chunk;
    first = false;
  }
}

/**
 * Reads the first chunk of a stream (to sniff its format) and hands back a stream
 * that still yields every byte, the peeked chunk first.
 */
export async function peek(stream: Readable): Promise<{ head: string; stream: Readable }> {
  const iterator: AsyncIterator<Buffer | string> = stream[Symbol.asyncIterator]();
  const first = await iterator.next();
  const head = first.done ? '' : first.value.toString();
  async function* replay(): AsyncGenerator<Buffer | string> {
    try {
      if (!first.done) yield first.value;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    } finally {
      // Closes the underlying file when the reader stops early.
      await iterator.return?.();
    }
  }
  return { head, stream: Readable.from(replay(), { objectMode: false }) };
}
