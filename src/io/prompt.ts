/**
 * Questions on the terminal: yes/no confirmations, typing a name to confirm, and
 * a hidden prompt for API keys. All of them talk on stderr so stdout stays data,
 * and all of them need stdin to be a terminal (callers check first).
 */
import { createInterface } from 'node:readline/promises';
import { InterruptedError } from '../errors.js';
import type { InputStream } from './streams.js';
import { terminalSafe } from '../contract/terminal-text.js';

export interface PromptStreams {
  /** A terminal: the caller checked `canPrompt()` (src/io/streams.ts). */
  input: InputStream;
  output: NodeJS.WritableStream;
  signal?: AbortSignal;
}

/** Asks a question and returns the trimmed answer. */
export async function ask(question: string, streams: PromptStreams): Promise<string> {
  const rl = createInterface({ input: streams.input, output: streams.output, terminal: true });
  try {
    return (await rl.question(terminalSafe(question), streams.signal ? { signal: streams.signal } : {})).trim();
  } catch (error) {
    if (error instanceof Error && error.name === 'AbortError') throw new InterruptedError('interrupted');
    throw error;
  } finally {
    rl.close();
  }
}

/** "Delete 3 determinations on qa? [y/N]": true only for y or yes. */
export async function confirm(question: string, streams: PromptStreams): Promise<boolean> {
  return /^y(es)?$/i.test(await ask(`${question} [y/N] `, streams));
}

/** Makes the user type `expected` (the environment's name) to go ahead. */
export async function confirmByTyping(question: string, expected: string, streams: PromptStreams): Promise<boolean> {
  return (await ask(`${question}\nType the environment name (${expected}) to confirm: `, streams)) === expected;
}

/**
 * Reads a secret without echoing it: raw mode, one keypress at a time, so the
 * key never appears on the screen or in the terminal's scrollback.
 */
export function askHidden(question: string, streams: PromptStreams): Promise<string> {
  const { input, output } = streams;
  output.write(terminalSafe(question));
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (error?: Error) => {
      input.setRawMode?.(false);
      input.pause();
      input.off('data', onData);
      output.write('\n');
      if (error) reject(error);
      else resolve(value.trim());
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n' || char === '\u0004') return finish();
        if (char === '\u0003') return finish(new InterruptedError('interrupted'));
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else if (char >= ' ') value += char;
      }
    };
    input.setRawMode?.(true);
    input.resume();
    input.on('data', onData);
  });
}
