/**
 * Writes text to a stream and waits for `drain` when the stream's buffer is full,
 * so a fast producer (every page of a large list) cannot outrun a slow pipe.
 */
export function writeOut(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (stream.write(text)) return Promise.resolve();
  return new Promise((resolve) => stream.once('drain', () => resolve()));
}
