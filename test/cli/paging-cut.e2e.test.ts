/**
 * A service that cuts page sizes to 2, through the built CLI against the local
 * server (`--wire page.maxSize=2`), its `size` echoing the size asked for or saying
 * the cut one, with no wire profile stored (pla finds the cut itself):
 * - a single `--page N` at a size the service cuts is refused with the size to use,
 *   never answered with another page's records, even when the cut page looks like
 *   the last one;
 * - `--all` (and `--max-items`) without `--size` lists every record once: the first
 *   page shows what the service's default really holds and later pages ask for it.
 * What was printed is compared with the records the server holds, read with plain
 * HTTP at a size under the cut.
 */
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';

const LIST = '/api/v1/asset-transaction-type-determinations';

/** The ids the server holds, oldest first, read in pages of 1 until an empty page: the test's own reading. */
async function heldIds(server: LocalServer): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 0; ; page += 1) {
    const { body } = await server.http('GET', `${LIST}?page=${page}&size=1`);
    const content = (body as { content: Array<{ id: number }> }).content;
    if (content.length === 0) return ids;
    ids.push(...content.map((record) => String(record.id)));
  }
}

function lines(text: string): string[] {
  return text.split('\n').filter(Boolean);
}

describe.each(['requested', 'capped'])('a service cutting pages to 2, its size %s', (echo) => {
  let server: LocalServer;
  let held: string[];

  beforeAll(async () => {
    server = await startLocalServer({ args: ['--wire', `page.maxSize=2,page.sizeEcho=${echo}`] });
    held = await heldIds(server);
  });
  afterAll(() => server?.stop());

  it('the server holds its 6 seeded records (the test’s own reading)', () => {
    expect(held).toHaveLength(6);
    expect(new Set(held).size).toBe(6);
  });

  it('--page 1 --size 5 (whose page looks like the last) is refused with the size to use; nothing printed', async () => {
    const run = await server.pla(['det', 'list', '--page', '1', '--size', '5', '-q']);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('the service answers at most 2 records a page, so page 1 of 5 cannot be read');
    expect(run.stderr).toContain('ask for --size 2 or less (page 1 of 5 begins on page 2 of 2)');
    // The size it names reads the records page 1 of 5 begins with.
    const hinted = await server.pla(['det', 'list', '--page', '2', '--size', '2', '-q']);
    expect(hinted.exitCode, hinted.stderr).toBe(0);
    expect(lines(hinted.stdout)).toEqual(held.slice(4, 6));
  });

  it('--all without --size prints every id once, exit 0, no drift', async () => {
    const run = await server.pla(['det', 'list', '--all', '-q']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(lines(run.stdout)).toEqual(held);
    expect(run.stderr).not.toContain('changed');
  });

  it('--page 1 without --size is page 1 of what the service’s pages hold', async () => {
    const run = await server.pla(['det', 'list', '--page', '1', '-q']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(lines(run.stdout)).toEqual(held.slice(2, 4));
  });

  describe('with 12 records', () => {
    beforeAll(async () => {
      const file = `${server.dataDir}/more.json`;
      await writeFile(file, JSON.stringify(Array.from({ length: 6 }, (_, i) => ({ code: `CUT-${echo}-${i}`, name: `cut ${i}` }))));
      const created = await server.pla(['det', 'create', '--file', file]);
      expect(created.exitCode, created.stderr).toBe(0);
      held = await heldIds(server);
    });

    it('the server holds 12 records', () => {
      expect(held).toHaveLength(12);
    });

    it('--all, --all --size 5 and --max-items 7 print the server’s ids in order, each once, exit 0', async () => {
      for (const args of [['--all'], ['--all', '--size', '5'], ['--max-items', '7']]) {
        const run = await server.pla(['det', 'list', ...args, '-q']);
        expect(run.exitCode, `${args.join(' ')}: ${run.stderr}`).toBe(0);
        expect(lines(run.stdout)).toEqual(args[0] === '--max-items' ? held.slice(0, 7) : held);
      }
      expect(await heldIds(server)).toEqual(held);
    });

    it('--page 2 --size 5 (a short last page) and --page 1 --size 5 (a full one) are refused', async () => {
      for (const page of ['1', '2']) {
        const run = await server.pla(['det', 'list', '--page', page, '--size', '5', '-q']);
        expect(run.exitCode).toBe(2);
        expect(run.stdout).toBe('');
        expect(run.stderr).toContain(`so page ${page} of 5 cannot be read`);
      }
    });
  });
});
