/**
 * Help shows the command first: a command's help lists its own options and
 * examples and points to `pla help options` for the ~30 global ones, which that
 * topic lists; every README section a help topic points to exists.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELP_TOPICS } from '../../src/cli/help-topics.js';
import { pla as run, tempDir } from './support.js';

let config: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  config = await tempDir();
});
afterAll(async () => {
  await config.remove();
});
const pla = (args: string[]) => run(args, { configDir: config.path });

const README = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');

describe('help shows the command first', () => {
  it("a command's help has its own options and examples, and a pointer for the global ones", async () => {
    const help = await pla(['det', 'list', '--help']);
    expect(help.exitCode).toBe(0);
    const text = String(help.stdout);
    expect(text).toContain('--status <A,B>');
    expect(text).not.toContain('--base-url');
    expect(text).not.toContain('--api-key');
    expect(text.indexOf('Examples:')).toBeGreaterThan(text.indexOf('--status'));
    expect(text.trimEnd().split('\n').at(-1)).toBe('Global options (-e, -o, --fields, -q, --verbose …): pla help options');
  });

  it('pla help options lists the global options', async () => {
    const help = await pla(['help', 'options']);
    expect(help.exitCode).toBe(0);
    for (const flag of ['-e, --env <name>', '--base-url <url>', '-o, --output <format>', '--fields', '-q, --quiet'])
      expect(String(help.stdout)).toContain(flag);
  });

  it('a suggestion is worded one way, for commands, options and fields alike', async () => {
    const command = await pla(['det', 'lsit']);
    expect(String(command.stderr)).toMatch(/^hint: did you mean list\?$/m);
    const option = await pla(['det', 'list', '--sizee', '2']);
    expect(String(option.stderr)).toMatch(/^hint: did you mean --size\?$/m);
    expect(String(command.stderr) + String(option.stderr)).not.toContain('Did you mean');
  });

  it('every README section a help topic points to exists', () => {
    const headings = new Set([...README.matchAll(/^#{2,3} (?:\d+\. )?(.+)$/gm)].map((m) => m[1]?.trim()));
    const pointers = Object.values(HELP_TOPICS).flatMap((topic) =>
      [
        ...topic
          .text()
          .replace(/\s+/g, ' ')
          .matchAll(/README "([^"]+)"/g),
      ].map((m) => m[1]),
    );
    expect(pointers.length).toBeGreaterThan(0);
    for (const pointer of pointers) expect(headings, pointer).toContain(pointer);
  });
});
