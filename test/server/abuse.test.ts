/**
 * Issue 26 item 5: the local server holds under abuse. A keyed write whose client
 * leaves before its body came frees its Idempotency-Key; a bulk of millions of items
 * is refused before any work; connections trickling headers cannot starve others;
 * a body in a transfer or content coding the server does not undo is refused, not
 * stored; a server that lost its data folder's lock answers no read from it. Real
 * server processes and raw sockets; waits are on events and conditions, never on time.
 */
import { rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { procStatus } from '../support/proc-status.js';
import { abandonKeyedWrite, countRecords, DET, localRequest, rawAnswer, trickle } from './abuse-support.js';

const MB = 1024 * 1024;

describe('a keyed write whose client leaves before its body came', () => {
  let slow: LocalServer;
  beforeAll(async () => {
    // --latency holds every request before its body is read: the client leaves meanwhile.
    slow = await startLocalServer({ seed: false, args: ['--latency', '1500'] });
  });
  afterAll(async () => {
    await slow?.stop();
  });

  it('frees its Idempotency-Key: a retry with the same key is carried out, once', async () => {
    const key = 'wedge-1';
    await abandonKeyedWrite(slow, key);
    // The abandoned request ends (the server says so) instead of waiting forever for a body…
    await eventually(async () => slow.stderr().includes('went away before its request body was complete'), 30_000);
    // …so the retry under the same key is not queued behind it.
    const retry = await slow.http('POST', DET, { body: { code: 'W-1' }, headers: { 'idempotency-key': key } });
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    const again = await slow.http('POST', DET, { body: { code: 'W-1' }, headers: { 'idempotency-key': key } });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await countRecords(slow)).toBe(1);
  });
});

describe('bulk item cap', () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startLocalServer({ seed: false });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('3.4 million {} under the body limit are a 413 naming the cap of 10000, and nothing is stored; the server goes on serving', async () => {
    const items = 3_400_000;
    const body = `[${'{},'.repeat(items - 1)}{}]`;
    expect(body.length).toBeLessThan(10 * 1024 * 1024);
    const peakBefore = await procStatus(server.pid(), 'VmHWM');
    const refused = await server.http('POST', `${DET}/bulk`, { body });
    expect(refused.status).toBe(413);
    expect(refused.headers['content-type']).toContain('application/problem+json');
    expect(refused.body).toMatchObject({
      type: 'urn:pla:problem:too-many-items',
      detail: expect.stringContaining(`at most 10000 items per bulk request (got ${items})`) as unknown,
    });
    // Refused before it was parsed: the server's peak grew by about the body's bytes, not by 3.4 million objects (620 MB).
    expect(await procStatus(server.pid(), 'VmHWM')).toBeLessThan(peakBefore + 100 * MB);
    expect((await server.http('GET', '/_admin/health', { key: null })).status).toBe(200);
    expect(await countRecords(server)).toBe(0);
    const defaults = (await server.http('GET', '/openapi.json', { key: null })).body as OpenApi;
    expect(defaults.components.schemas.IdList).toMatchObject({ maxItems: 10_000 });
  });
});

describe('bulk item cap set by --max-bulk-items', () => {
  let capped: LocalServer;
  beforeAll(async () => {
    capped = await startLocalServer({ seed: false, args: ['--max-bulk-items', '3'] });
  });
  afterAll(async () => {
    await capped?.stop();
  });

  it('--max-bulk-items sets the cap: at the cap accepted, one more refused, ids too; the served OpenAPI states it', async () => {
    const records = (n: number) => Array.from({ length: n }, (_, i) => ({ code: `C-${n}-${i}` }));
    expect((await capped.http('POST', `${DET}/bulk`, { body: records(3) })).status).toBe(200);
    const over = await capped.http('POST', `${DET}/bulk`, { body: records(4) });
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ errors: [{ path: 'body', message: expect.stringContaining('at most 3 items') as unknown }] });
    expect((await capped.http('DELETE', `${DET}/bulk`, { body: [1, 2, 3, 4] })).status).toBe(413);
    expect(await countRecords(capped)).toBe(3);

    const document = (await capped.http('GET', '/openapi.json', { key: null })).body as OpenApi;
    const bulk = document.paths[`${DET}/bulk`];
    expect(bulk?.post?.requestBody.content['application/json']?.schema).toMatchObject({ type: 'array', maxItems: 3 });
    expect(bulk?.post?.responses['413']).toBeDefined();
    expect(document.components.schemas.IdList).toMatchObject({ type: 'array', maxItems: 3 });
  });
});

interface OpenApi {
  paths: Record<string, { post?: { requestBody: { content: Record<string, { schema: unknown }> }; responses: Record<string, unknown> } }>;
  components: { schemas: Record<string, unknown> };
}

describe('connections trickling their headers', () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startLocalServer({ seed: false });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('300 of them from one address, with the defaults: another client is still answered 200', async () => {
    const trickling = await Promise.all(Array.from({ length: 300 }, () => trickle(server)));
    try {
      // Those past the per-address cap are answered 503 naming it, and closed.
      const refused = () => trickling.filter((t) => t.answer()?.includes('--max-connections-per-address'));
      await eventually(async () => refused().length >= 300 - 128, 30_000);
      expect(refused()).toHaveLength(300 - 128);
      expect(refused()[0]?.answer()).toMatch(/^HTTP\/1\.1 503/);
      // Another client (another address of this machine) is served while the 128 others still trickle.
      const other = await localRequest(server, '/_admin/health', '127.0.0.2');
      expect(other.status).toBe(200);
    } finally {
      for (const t of trickling) t.stop();
    }
  });
});

describe('--header-timeout', () => {
  let strict: LocalServer;
  beforeAll(async () => {
    strict = await startLocalServer({ seed: false, args: ['--header-timeout', '1'] });
  });
  afterAll(async () => {
    await strict?.stop();
  });

  it('a connection still sending its headers after --header-timeout is cut with 408', async () => {
    const trickling = await trickle(strict);
    try {
      expect(await trickling.closed).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      trickling.stop();
    }
    expect((await strict.http('GET', '/_admin/health', { key: null })).status).toBe(200);
  });
});

describe('codings the server does not undo', () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startLocalServer({ seed: false });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('Transfer-Encoding: gzip, chunked is a 400 naming gzip, and nothing is stored', async () => {
    const json = '{"code":"TE-1"}';
    const answer = await rawAnswer(
      server,
      `POST ${DET} HTTP/1.1\r\nHost: x\r\nx-api-key: ${server.adminKey}\r\ncontent-type: application/json\r\ntransfer-encoding: gzip, chunked\r\nconnection: close\r\n\r\n` +
        `${json.length.toString(16)}\r\n${json}\r\n0\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(answer).toContain('urn:pla:problem:unsupported-transfer-coding');
    expect(answer).toContain('transfer coding gzip is not supported');
    expect(await countRecords(server)).toBe(0);
  });

  it('Content-Encoding: gzip is a 415 naming gzip, and nothing is stored', async () => {
    const result = await server.http('POST', DET, { body: { code: 'CE-1' }, headers: { 'content-encoding': 'gzip' } });
    expect(result.status).toBe(415);
    expect(result.body).toMatchObject({ type: 'urn:pla:problem:unsupported-content-coding' });
    expect(result.headers['accept-encoding']).toBe('identity');
    expect(await countRecords(server)).toBe(0);
  });
});

describe('a server that lost its data folder lock', () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startLocalServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers 503 to reads as well as writes, and health says why', async () => {
    expect((await server.http('GET', `${DET}?size=1`)).status).toBe(200);
    // Another process broke the lock (as it may once the lock looks stale): this server's data may now be stale.
    await rmdir(join(server.dataDir, 'store.lock'));
    await eventually(async () => server.stderr().includes('lost the lock'), 30_000);
    for (const [method, path] of [
      ['GET', `${DET}?size=1`],
      ['GET', `${DET}/1`],
      ['GET', '/_admin/requests'],
    ] as const) {
      const read = await server.http(method, path);
      expect(read.status, `${method} ${path}`).toBe(503);
      expect(read.body).toMatchObject({ type: 'urn:pla:problem:store-unavailable', detail: expect.stringContaining('lost its lock') as unknown });
    }
    expect((await server.http('POST', DET, { body: { code: 'L-1' } })).status).toBe(503);
    const health = await server.http('GET', '/_admin/health', { key: null });
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ status: 'unavailable', store: { state: 'unavailable' } });
  });
});
