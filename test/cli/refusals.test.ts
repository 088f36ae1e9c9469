/**
 * Every refusal readable, through the built CLI: a 20 MB record refused 413 by
 * the local server is reported as the 413 (not a reset), a redirect names its
 * Location, and a success whose JSON is invalid is the service's error (exit 11)
 * with its hint, as `pla help exit-codes` says.
 */
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../bulk/helpers.js';
import { startFakeServer, type FakeServer } from '../support/fake-server.js';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { pla } from './support.js';

let server: LocalServer;
let fake: FakeServer;
let temp: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  server = await startLocalServer({ seed: false, args: ['--max-body', '64kb'] });
  fake = await startFakeServer([
    { path: /\/moved/, reply: { status: 301, headers: { location: 'https://new.example.com/data/api/v1/x' } } },
    { path: /.*/, reply: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"success": true, "data": {"id": 7,' } },
  ]);
  temp = await tempDir();
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await fake?.close();
  await temp?.cleanup();
});

describe('refusals the CLI reads', () => {
  it('a 20 MB record over --max-body, from a file: a reject of exit 9 as with many (the 413 said), nothing stored', async () => {
    const huge = JSON.stringify({ code: 'HUGE', note: 'x'.repeat(20 * 1024 * 1024) });
    const file = temp.path('huge.json');
    await writeFile(file, huge);
    const result = await server.pla(['determinations', 'create', '--file', file]);
    expect(result.exitCode, String(result.stderr)).toBe(9);
    expect(String(result.stderr)).toMatch(/1 refused: 413 request body is larger than the limit/);
    const list = await server.pla(['determinations', 'list', '-o', 'json']);
    expect(JSON.parse(String(list.stdout))).toEqual([]);
  });

  it('a redirect names its Location', async () => {
    const configDir = temp.path('redirect-config');
    const result = await pla(['api', 'GET', '/moved'], { server: fake, configDir });
    expect(result.exitCode, result.stderr).toBe(5);
    expect(result.stderr).toMatch(/error: 301 Moved Permanently: redirected to https:\/\/new\.example\.com\/data\/api\/v1\/x \(GET \/moved\)/);
    expect(result.stderr).toMatch(/hint: pla does not follow redirects: .*pla config set-url URL/);
  });

  it('invalid JSON in a success is the service error of exit 11, with a hint', async () => {
    const configDir = temp.path('invalid-config');
    const result = await pla(['determinations', 'get', '7'], { server: fake, configDir });
    expect(result.exitCode, result.stderr).toBe(11);
    expect(result.stderr).toMatch(/error: the service answered invalid JSON/);
    expect(result.stderr).toMatch(/hint: the service sent a success pla cannot read/);
    // A create answered so may have been carried out: said, not assumed either way.
    const create = await pla(['determinations', 'create', '--data', '{"code": "X"}'], { server: fake, configDir });
    expect(create.exitCode, create.stderr).toBe(11);
    expect(create.stderr).toMatch(/hint: the service may have carried it out/);
    // A list page, read as it arrives (src/client/streamed-body.ts), is refused the same way.
    const list = await pla(['determinations', 'list', '--all', '-o', 'ndjson'], { server: fake, configDir });
    expect(list.exitCode, list.stderr).toBe(11);
    expect(list.stdout).toBe('');
    expect(list.stderr).toMatch(/error: the service answered invalid JSON \(application\/json: "\{"success": true, "data": \{"id": 7,"\)/);
    expect(list.stderr).toMatch(/hint: the service sent a success pla cannot read/);
    const help = await pla(['help', 'exit-codes'], { configDir });
    expect(help.stdout).toMatch(/11\s+the service answered something pla cannot read/);
  });
});
