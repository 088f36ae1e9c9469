/**
 * The shortcuts of the request pipeline answer exactly as the long way does: pages
 * built from cached record text, targets split without URL, paging read without the
 * schema, keys remembered without hashing, the request log kept as a ring.
 */
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';

const DET = '/api/v1/asset-transaction-type-determinations';

interface Page {
  content: Array<{ id: number; name: string; amount?: number; updatedAt: string }>;
  page: { size: number; totalElements: number; totalPages: number; number: number };
}

let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer({ seed: false });
  const records = Array.from({ length: 30 }, (_, i) => ({ name: `record ${i + 1}`, amount: i + 0.5 }));
  expect((await server.http('POST', `${DET}/bulk`, { body: records })).status).toBe(200);
});

afterAll(async () => {
  await server?.stop();
});

/** Sends the target exactly as written (fetch would normalize it first), through `agent`'s connections when given. */
function rawGet(target: string, agent?: Agent): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path: target, agent, headers: { 'x-api-key': server.adminKey } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('request pipeline shortcuts', () => {
  it('serves a page as the JSON of its records, and the new record after a change', async () => {
    const first = await server.http('GET', `${DET}?page=1&size=10`);
    const page = first.body as Page;
    expect(first.text).toBe(JSON.stringify(page));
    expect(page.page).toEqual({ size: 10, totalElements: 30, totalPages: 3, number: 1 });
    expect(page.content.map((r) => r.id)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    const one = (await server.http('GET', `${DET}/12`)).body as { data: unknown };
    expect(page.content[1]).toEqual(one.data);

    expect((await server.http('PUT', `${DET}/12`, { body: { name: 'renamed', amount: 99 } })).status).toBe(200);
    const again = (await server.http('GET', `${DET}?page=1&size=10`)).body as Page;
    expect(again.content[1]).toMatchObject({ id: 12, name: 'renamed', amount: 99 });
    expect(again.content[0]).toEqual(page.content[0]);
  });

  it('reads paging the way the schema does, plain digits or not', async () => {
    const padded = (await server.http('GET', `${DET}?page=002&size=005`)).body as Page;
    expect(padded.page).toMatchObject({ size: 5, number: 2 });
    expect(padded.content[0]?.id).toBe(11);
    const exponent = (await server.http('GET', `${DET}?page=1e0&size=2`)).body as Page;
    expect(exponent.page).toMatchObject({ size: 2, number: 1 });
    expect((await server.http('GET', `${DET}?size=`)).status).toBe(400);
    expect((await server.http('GET', `${DET}?page=x`)).status).toBe(400);
  });

  it('normalizes targets that need it, and answers 400 to one that is no URL path', async () => {
    const dotted = await rawGet(`/api/v1/x/..${DET.slice('/api/v1'.length)}/3`);
    expect(dotted.status).toBe(200);
    expect(JSON.parse(dotted.text)).toMatchObject({ data: { id: 3 } });
    const escaped = await rawGet(`${DET}/%33`);
    expect(JSON.parse(escaped.text)).toMatchObject({ data: { id: 3 } });
    for (const target of ['//', '//?']) {
      const refused = await rawGet(target);
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.text)).toMatchObject({ status: 400, type: 'urn:pla:problem:bad-request' });
    }
    expect((await server.http('GET', '/_admin/health')).status).toBe(200);
  });

  it('takes a known key until it is revoked, and again after a reset', async () => {
    const created = await server.http('POST', '/_admin/keys', { body: { name: 'hot-path' } });
    const { id, secret } = (created.body as { data: { id: number; secret: string } }).data;
    expect((await server.http('GET', `${DET}/1`, { key: secret })).status).toBe(200);
    expect((await server.http('GET', `${DET}/1`, { key: secret })).status).toBe(200);
    expect((await server.http('POST', '/_admin/reset')).status).toBe(200);
    expect((await server.http('GET', `${DET}?size=1`, { key: secret })).status).toBe(200);
    await server.http('DELETE', `/_admin/keys/${id}`);
    expect((await server.http('GET', `${DET}?size=1`, { key: secret })).status).toBe(401);
    expect((await server.http('GET', `${DET}?size=1`)).status).toBe(200);
  });

  it('answers records read back from the snapshot byte for byte, non-ASCII and exact numbers included', async () => {
    // Sent as text: the amount has more digits than a double holds, and stays exact.
    const sent = '[{"name":"Bestimmung Ä – 日本 😀","amount":12345678901234567890.5},{"name":"plain","amount":2}]';
    const created = await server.http('POST', `${DET}/bulk`, { body: sent, headers: { 'content-type': 'application/json' } });
    expect(created.status).toBe(200);
    const [wide, plain] = (created.body as { data: Array<{ id: number }> }).data as [{ id: number }, { id: number }];
    // A clean stop folds the journal into the snapshot: after the restart both are read from it (their kept bytes).
    await server.restart();
    const first = await server.http('GET', `${DET}?size=100`);
    const again = await server.http('GET', `${DET}?size=100`);
    expect(again.text).toBe(first.text);
    expect(first.text).toContain('"name":"Bestimmung Ä – 日本 😀","amount":12345678901234567890.5,');
    const one = await server.http('GET', `${DET}/${wide.id}`);
    const inPage = /\{"id":\d+,"name":"Bestimmung[^}]*\}/.exec(first.text)?.[0];
    expect(one.text).toBe(`{"success":true,"message":"Determination ${wide.id}","data":${inPage}}`);
    const other = await server.http('GET', `${DET}/${plain.id}`);
    expect(other.text).toBe(JSON.stringify(other.body));
    expect(other.body).toMatchObject({ data: { id: plain.id, name: 'plain', amount: 2 } });
    // Leading zeros name the same record; ids past 2^53 are read exactly, not rounded.
    expect((await server.http('GET', `${DET}/000${plain.id}`)).text).toBe(other.text);
    const far = await server.http('GET', `${DET}/9007199254740993`);
    expect(far.status).toBe(404);
    expect(far.text).toContain('9007199254740993');
    expect((await server.http('GET', `${DET}/12x`)).status).toBe(400);
  });

  it('answers and logs every request of a burst on many connections, each with its own answer', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const ask = (i: number) => rawGet(i % 2 ? `${DET}?size=${(i % 5) + 1}` : `${DET}/${i}`, agent);
    const answered = await Promise.all(Array.from({ length: 40 }, (_, i) => ask(i)));
    agent.destroy();
    answered.forEach(({ status, text }, i) => {
      if (i % 2) expect((JSON.parse(text) as Page).page.size).toBe((i % 5) + 1);
      else expect(status === 404 || (JSON.parse(text) as { data: { id: number } }).data.id === i).toBe(true);
    });
    const log = (await server.http('GET', '/_admin/requests?limit=40')).body as { data: Array<{ path: string }> };
    const paths = log.data.map((entry) => entry.path);
    expect(paths.sort()).toEqual(Array.from({ length: 40 }, (_, i) => (i % 2 ? `${DET}?size=${(i % 5) + 1}` : `${DET}/${i}`)).sort());
  });

  it('answers requests pipelined on one connection in order, each its own; the log read last names those answered before it', async () => {
    // The key checked once (the requests below are then all answered in one turn), and two records that exist.
    const ids = (JSON.parse((await rawGet(`${DET}?size=2`)).text) as Page).content.map((r) => r.id);
    const socket = connect(Number(new URL(server.url).port), new URL(server.url).hostname);
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    const ask = (method: string, target: string, last = false) =>
      `${method} ${target} HTTP/1.1\r\nHost: x\r\nx-api-key: ${server.adminKey}\r\n${last ? 'connection: close\r\n' : ''}\r\n`;
    socket.end(
      ask('GET', `${DET}?size=2&mark=one`) + ask('HEAD', `${DET}/${ids[1]}`) + ask('GET', `${DET}/999`) + ask('GET', '/_admin/requests?limit=3', true),
    );
    await closed;
    const answers = received.split(/(?=HTTP\/1\.1 )/);
    expect(answers.map((answer) => /^HTTP\/1\.1 (\d+)/.exec(answer)?.[1])).toEqual(['200', '200', '404', '200']);
    expect((JSON.parse(answers[0]?.split('\r\n\r\n')[1] ?? '') as Page).content.map((r) => r.id)).toEqual(ids);
    expect(answers[1]?.split('\r\n\r\n')[1]).toBe(''); // HEAD: the headers only
    const log = JSON.parse(answers[3]?.split('\r\n\r\n')[1] ?? '') as { data: Array<{ method: string; path: string; status: number }> };
    expect(log.data.map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual([
      `GET ${DET}?size=2&mark=one 200`,
      `HEAD ${DET}/${ids[1]} 200`,
      `GET ${DET}/999 404`,
    ]);
  });

  it('keeps the newest 500 requests, oldest first, with masked keys', async () => {
    for (let i = 0; i < 520; i++) await server.http('GET', `${DET}?size=1&page=${i}`);
    await server.http('GET', `${DET}?size=1`, { key: 'pla_local_unknown-9876' });
    const log = (await server.http('GET', '/_admin/requests?limit=500')).body as {
      data: Array<{ at: string; path: string; status: number; key?: string }>;
    };
    expect(log.data).toHaveLength(500);
    const last = log.data.at(-1);
    expect(last).toMatchObject({ path: `${DET}?size=1`, status: 401, key: '••••9876' });
    expect(log.data.at(-2)).toMatchObject({ path: `${DET}?size=1&page=519`, status: 200, key: expect.stringMatching(/^local-admin \(••••.{4}\)$/) as unknown });
    expect(log.data[0]?.path).toBe(`${DET}?size=1&page=21`);
    expect(new Date(last?.at ?? '').toISOString()).toBe(last?.at);
    expect(JSON.stringify(log.data)).not.toContain(server.adminKey);
  });
});
