/**
 * Long text (a plan, a help page) through a pager on a terminal, as git and gh do:
 * `$PAGER`, else `less -FRX`. Only when the stream is a terminal and the text is
 * longer than it; `PAGER=` or `PAGER=cat` turn it off; a pager that cannot start
 * leaves the text printed as is.
 */
import { spawn } from 'node:child_process';
import type { IOStreams } from './streams.js';
import { writeOut } from './output/write-out.js';

/** Writes `text` to `io[to]`, through the pager when that is a terminal and the text does not fit it. */
export async function page(text: string, io: IOStreams, to: 'stdout' | 'stderr' = 'stdout'): Promise<void> {
  const stream = io[to];
  const terminal = to === 'stdout' ? io.stdoutIsTTY : io.stderrIsTTY;
  const lines = text.split('\n').length - 1;
  const command = io.pager.trim();
  if (!terminal || command === '' || command === 'cat' || io.terminalRows === undefined || lines < io.terminalRows) return writeOut(stream, text);
  const shown = await new Promise<boolean>((resolve) => {
    const child = spawn('sh', ['-c', command], { stdio: ['pipe', stream as NodeJS.WriteStream, 'inherit'] });
    child.once('error', () => resolve(false));
    // The reader may quit before the end (q in less): what it did not read is not an error.
    child.stdin.once('error', () => undefined);
    child.stdin.end(text);
    child.once('close', (code) => resolve(code !== 127));
  });
  if (!shown) await writeOut(stream, text);
}
