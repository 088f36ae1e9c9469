/**
 * The footer of one page of a list suggests only what works on the service it
 * read: `--page N+1` where the service takes page numbers, and where it ignores
 * them (it pages by cursors: `--page N` is refused) the records up to the next
 * page's end read from the first, `--max-items`. Each suggestion is then run as
 * suggested. On a real terminal, against the local server in other stacks' wire
 * forms (`--wire bare,page.shape=cursor|link`), without a profile and after
 * `pla config detect`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalServer, startLocalServer } from '../support/local-server.js';
import { runInTerminal } from '../support/terminal.js';

const lines = (text: string) => text.split('\n').filter(Boolean);

/** The footer line of `pla det list --size N` (2 unless told) on a terminal 100 wide (where it fits on one line). */
async function footer(server: LocalServer, size = '2'): Promise<string> {
  const run = await runInTerminal(['det', 'list', '--size', size, '--fields', 'id,code'], { columns: 100, env: { PLA_CONFIG_DIR: server.configDir } });
  const screen = run.lines.map((line) => line.text).join('\n');
  expect(run.exitCode, screen).toBe(0);
  const line = run.lines.find((l) => l.text.startsWith('page 1 '))?.text;
  expect(line, screen).toBeDefined();
  return line ?? '';
}

let cursor: LocalServer;
let link: LocalServer;
/** Pages by cursor, and answers 3 records a page whatever size is asked (as Spring caps a size). */
let capped: LocalServer;

beforeAll(async () => {
  [cursor, link, capped] = await Promise.all([
    startLocalServer({ args: ['--wire', 'bare,page.shape=cursor'] }),
    startLocalServer({ args: ['--wire', 'bare,page.shape=link'] }),
    startLocalServer({ args: ['--wire', 'bare,page.shape=cursor,page.maxSize=3'] }),
  ]);
});

afterAll(async () => {
  await Promise.all([cursor?.stop(), link?.stop(), capped?.stop()]);
});

describe('the footer of one page', () => {
  it(
    'suggests --max-items where the service pages by cursor (--page is refused there), --page where it takes page numbers; each works as suggested',
    { timeout: 120_000 },
    async () => {
      for (const profile of ['none', 'detected'] as const) {
        if (profile === 'detected') expect((await cursor.pla(['config', 'detect'])).exitCode).toBe(0);
        const line = await footer(cursor);
        expect(line, profile).toContain('; next: --max-items 4 (pages by cursor, not --page), everything: --all');
        expect(line, profile).not.toContain('--page 1');
        const next = await cursor.pla(['det', 'list', '--size', '2', '--max-items', '4', '-q']);
        expect(next.exitCode, next.stderr).toBe(0);
        expect(lines(next.stdout)).toEqual(['1', '2', '3', '4']);
        expect((await cursor.pla(['det', 'list', '--size', '2', '--page', '1', '-q'])).exitCode).toBe(2);
      }

      // Next links, and page numbers taken too: --page stays the way on.
      expect(await footer(link)).toMatch(/; next: --page 1, everything: --all$/);
      const next = await link.pla(['det', 'list', '--size', '2', '--page', '1', '-q']);
      expect(next.exitCode, next.stderr).toBe(0);
      expect(lines(next.stdout)).toEqual(['3', '4']);
    },
  );

  it('counts the next page by the records a page held, not the size asked, where the service answers fewer', { timeout: 60_000 }, async () => {
    expect(await footer(capped, '5')).toContain('; next: --max-items 6 (pages by cursor, not --page)');
    const next = await capped.pla(['det', 'list', '--max-items', '6', '-q']);
    expect(next.exitCode, next.stderr).toBe(0);
    expect(lines(next.stdout)).toEqual(['1', '2', '3', '4', '5', '6']);
  });
});
