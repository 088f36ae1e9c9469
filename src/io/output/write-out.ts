import type { Writable } from 'node:stream';
import { OutputClosedError } from '../../errors.js';

/**
 * Writes text to a stream and waits for `drain` when the stream's buffer is full,
 * so a fast producer (every page of a large list) cannot outrun a slow pipe.
 *
 * When the reader has gone away (`pla … --all | head`), it rejects with
 * `OutputClosedError` so the run stops fetching pages instead of writing into a
 * closed pipe (or waiting for a `drain` that never comes).
 */
export function writeOut(stream: NodeJS.WritableStream, text: string): Promise<void> {
  const writable = stream as Partial<Writable>;
  if (writable.destroyed || writable.errored) return Promise.reject(new OutputClosedError());
  if (stream.write(text)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const settle = (closed: boolean) => {
      stream.off('drain', onDrain);
      stream.off('close', onClose);
      stream.off('error', onClose);
      if (closed) reject(new OutputClosedError());
      else resolve();
    };
    const onDrain = () => settle(false);
    const onClose = () => settle(true);
    stream.once('drain', onDrain);
    stream.once('close', onClose);
    stream.once('error', onClose);
  });
}
