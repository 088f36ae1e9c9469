/**
 * A local server you can see: one console line per request (text, JSON lines with
 * `--log-format json`, none with `--no-request-log`; `-q` prints the URL alone), request bodies in the request log
 * (secrets masked, size capped), `/` naming where the API and its OpenAPI are, and
 * the served OpenAPI document clean under `redocly lint` (0 errors, 0 warnings)
 * and valid for swagger-parser. Through the built CLI and a real server.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { startLocalServer, type LocalServer } from '../support/local-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const REDOCLY = join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
const DET = '/api/v1/asset-transaction-type-determinations';

let text: LocalServer;
let json: LocalServer;
let quiet: LocalServer;

beforeAll(async () => {
  [text, json, quiet] = await Promise.all([
    startLocalServer(),
    startLocalServer({ args: ['--log-format', 'json'] }),
    startLocalServer({ args: ['--no-request-log'] }),
  ]);
});

afterAll(async () => {
  await Promise.all([text?.stop(), json?.stop(), quiet?.stop()]);
});

/** Lines of the server's stderr that name `path`. */
const linesFor = (server: LocalServer, path: string) =>
  server
    .stderr()
    .split('\n')
    .filter((line) => line.includes(path));

describe('the console', () => {
  it('shows one line per request: time, method, path, status, ms and the key by name', async () => {
    const listed = await text.pla(['det', 'list', '--size', '2', '-o', 'json']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    await text.pla(['det', 'get', '999999', '-o', 'json']);
    await eventually(async () => linesFor(text, `${DET}/999999`).length > 0);
    const [list] = linesFor(text, `${DET}?`);
    expect(list).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z GET \/api\/v1\/asset-transaction-type-determinations\?\S*size=2\S* 200 \d+ ms {2}local-admin \(••••[\w-]{4}\)$/,
    );
    expect(linesFor(text, `${DET}/999999`)[0]).toMatch(/ GET \S+\/999999 404 \d+ ms/);
    // The key is shown once at the first start (by design); the request lines never show it.
    expect(linesFor(text, DET).join('\n')).not.toContain(text.adminKey);
  });

  it('--log-format json writes JSON lines', async () => {
    await json.pla(['det', 'get', '1', '-o', 'json']);
    await eventually(async () => linesFor(json, `${DET}/1"`).length > 0);
    const line = JSON.parse(linesFor(json, `${DET}/1"`)[0] as string) as Record<string, unknown>;
    expect(line).toMatchObject({ method: 'GET', path: `${DET}/1`, status: 200, ms: expect.any(Number) as unknown, at: expect.stringMatching(/Z$/) as unknown });
    expect(line).not.toHaveProperty('body');
  });

  it('--no-request-log shows no request lines, and the log still has them', async () => {
    await quiet.pla(['det', 'get', '1', '-o', 'json']);
    const log = await quiet.pla(['server', 'log', '-o', 'json']);
    expect((JSON.parse(log.stdout) as Array<{ path: string }>).map((r) => r.path)).toContain(`${DET}/1`);
    expect(linesFor(quiet, DET)).toEqual([]);
  });

  it('-q prints the URL alone on stdout and keeps the request lines on stderr', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'pla-quiet-'));
    const server = execa('node', [join(ROOT, 'bin', 'pla.js'), 'server', 'start', '-q', '--port', '0', '--data', join(folder, 'data'), '--env-name', 'quiet'], {
      env: { PATH: process.env.PATH ?? '', PLA_CONFIG_DIR: join(folder, 'config'), NO_COLOR: '1' },
      reject: false,
      buffer: false,
    });
    let out = '';
    let err = '';
    server.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    try {
      await eventually(async () => out.endsWith('\n'));
      expect(out).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
      const answer = await fetch(`${out.trim()}${DET}/1`);
      expect(answer.status).toBe(401);
      await eventually(async () => err.includes(` GET ${DET}/1 401 `));
      expect(out).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
    } finally {
      server.kill('SIGTERM');
      await server;
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('refuses an unknown --log-format', async () => {
    const result = await text.pla(['server', 'start', '--port', '0', '--log-format', 'xml']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/--log-format.*xml/);
  });
});

describe('the request log', () => {
  it('keeps request bodies with secrets masked and long ones cut', async () => {
    const record = { code: 'LOG-1', name: 'logged', password: 'hunter2-hunter2', note: `see ${text.adminKey}` };
    const created = await text.pla(['det', 'create', '--data', JSON.stringify(record), '-o', 'json']);
    expect(created.exitCode, created.stderr).toBe(0);
    const long = { code: 'LOG-2', name: 'x'.repeat(5000) };
    expect((await text.http('POST', DET, { body: long })).status).toBe(200);

    const log = await text.pla(['server', 'log', '-o', 'json']);
    const entries = JSON.parse(log.stdout) as Array<{ method: string; path: string; body?: string }>;
    const first = entries.find((e) => e.body?.includes('LOG-1'));
    expect(first?.body).toContain('"name":"logged"');
    expect(first?.body).toContain('"password":"••••');
    expect(first?.body).not.toContain('hunter2');
    expect(log.stdout).not.toContain(text.adminKey);
    expect(first?.body).toContain(`see ••••${text.adminKey.slice(-4)}`);
    const cut = entries.find((e) => e.body?.includes('LOG-2'));
    expect(cut?.body).toMatch(/^\{"code":"LOG-2","name":"x+… \(\d{4} bytes\)$/);
    expect((cut?.body ?? '').length).toBeLessThan(2100);
    // The record itself is whole on the server.
    expect(((await text.http('GET', `${DET}?size=1&sort=id,desc`)).body as { content: Array<{ name: string }> }).content[0]?.name).toHaveLength(5000);
  });
});

describe("finding one's way", () => {
  it('/ names where the API and its OpenAPI document are, without a key', async () => {
    const root = await text.http('GET', '/', { key: null });
    expect(root.status).toBe(200);
    expect(root.body).toMatchObject({ api: `${text.url}/api`, openapi: `${text.url}/openapi.json` });
    const doc = await fetch((root.body as { openapi: string }).openapi);
    expect(doc.status).toBe(200);
  });

  it('the served OpenAPI document is clean under redocly lint and valid for swagger-parser', async () => {
    const served = (await text.http('GET', '/openapi.json', { key: null })).body as Record<string, unknown>;
    const dir = await mkdtemp(join(tmpdir(), 'pla-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(served));
      const lint = await execa('node', [REDOCLY, 'lint', file, '--format=json'], {
        cwd: dir,
        reject: false,
        env: { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      });
      const report = JSON.parse(lint.stdout) as { totals: { errors: number; warnings: number }; problems: unknown[] };
      expect(report.problems).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
      expect(lint.exitCode).toBe(0);
      // validate() dereferences in place: hand it a copy.
      await expect(SwaggerParser.validate(structuredClone(served) as never)).resolves.toBeTruthy();
      expect(served).toMatchObject({ servers: [{ url: text.url }] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
