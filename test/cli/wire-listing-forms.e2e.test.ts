/**
 * `pla server start --wire page.shape=…` answers listings in other stacks' forms
 * (a bare array with `Link` and `X-Total-Count`, OData v4 and v2, HAL, `items`,
 * cursors), so scripts can be rehearsed against them: the built CLI reads every
 * form to its end without a profile, `pla config detect` stores the form, and the
 * same walk then reads by it. A cursor listing refuses `--page N`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalServer, startLocalServer } from '../support/local-server.js';

const SEEDED = ['1', '2', '3', '4', '5', '6'];
const lines = (text: string) => text.split('\n').filter(Boolean);

describe.each(['link', 'odata', 'odata-v2', 'hal', 'items', 'cursor'])('pla server start --wire bare,page.shape=%s', (shape) => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startLocalServer({ args: ['--wire', `bare,page.shape=${shape}`] });
  });
  afterAll(() => server?.stop());

  it('every page followed to the end, without a profile and after config detect', { timeout: 120_000 }, async () => {
    const raw = await server.http('GET', '/api/v1/asset-transaction-type-determinations?size=2');
    expect(raw.status).toBe(200);
    expect(raw.text).not.toContain('"content"');

    const before = await server.pla(['det', 'list', '--all', '--size', '2', '-q']);
    expect(before.exitCode, before.stderr).toBe(0);
    expect(lines(before.stdout)).toEqual(SEEDED);

    const detect = await server.pla(['config', 'detect']);
    expect(detect.exitCode, detect.stderr).toBe(0);
    const show = await server.pla(['config', 'show', '-o', 'json']);
    const stored = (JSON.parse(show.stdout) as Array<{ env: string; wire: string }>).find((row) => row.env === 'local')?.wire ?? '';
    expect(stored.split(' ')).toContain(`page.shape=${shape}`);
    if (shape === 'cursor') expect(stored.split(' ')).toContain('page.follow=links');

    const after = await server.pla(['det', 'list', '--all', '--size', '2', '-q']);
    expect(after.exitCode, after.stderr).toBe(0);
    expect(lines(after.stdout)).toEqual(SEEDED);

    const page = await server.pla(['det', 'list', '--page', '1', '--size', '2', '-q']);
    if (shape === 'cursor') {
      expect(page.exitCode).toBe(2);
      expect(page.stdout).toBe('');
      expect(page.stderr).toContain('the service ignores page numbers');
    } else {
      expect(page.exitCode, page.stderr).toBe(0);
      expect(lines(page.stdout)).toEqual(['3', '4']);
    }
  });
});
