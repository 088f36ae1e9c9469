/** Terminal questions, driven through streams standing in for the terminal. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { askHidden, confirm, confirmByTyping } from '../../src/io/prompt.js';

/** A stdin stand-in that answers `text` and accepts raw mode like a terminal. */
function terminal(text: string) {
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => input });
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
  setImmediate(() => input.write(text));
  return { streams: { input: input as unknown as NodeJS.ReadStream, output }, shown: () => shown };
}

describe('prompt', () => {
  it('confirms only on y or yes', async () => {
    expect(await confirm('Delete 3 determinations on qa?', terminal('y\n').streams)).toBe(true);
    expect(await confirm('Delete?', terminal('YES\n').streams)).toBe(true);
    expect(await confirm('Delete?', terminal('\n').streams)).toBe(false);
    expect(await confirm('Delete?', terminal('n\n').streams)).toBe(false);
  });

  it('on production wants the environment name typed', async () => {
    const right = terminal('production\n');
    expect(await confirmByTyping('Delete 3 determinations on production?', 'production', right.streams)).toBe(true);
    expect(right.shown()).toContain('Type the environment name (production) to confirm:');
    expect(await confirmByTyping('Delete?', 'production', terminal('y\n').streams)).toBe(false);
  });

  it('reads a key without echoing it, with backspace', async () => {
    const tty = terminal('secret-kez\u007fy\r');
    expect(await askHidden('API key (not shown): ', tty.streams)).toBe('secret-key');
    expect(tty.shown()).toBe('API key (not shown): \n');
  });
});
