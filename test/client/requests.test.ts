import { describe, expect, it } from 'vitest';
import { KEY, useFakeServer } from './helpers.js';

const DET = '/api/v1/asset-transaction-type-determinations';

describe('requests', () => {
  const fake = useFakeServer();

  it('sends the key, accept, user agent and JSON body; an idempotency key on writes only', async () => {
    const server = fake.server();
    server.setRoutes([{ path: DET, reply: { status: 200, body: { success: true, message: 'created', data: { id: 1, code: 'A' } } } }]);
    const client = fake.client();
    const result = await client.call('determinations.create', { body: { code: 'A' } });
    expect(result).toMatchObject({ status: 200, data: { id: 1, code: 'A' }, message: 'created' });

    const sent = server.requests.at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.headers['x-api-key']).toBe(KEY);
    expect(sent.headers.accept).toBe('application/json');
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.headers['user-agent']).toMatch(/^pla\//);
    expect(sent.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.body).toEqual({ code: 'A' });

    server.setRoutes([{ path: `${DET}/7`, reply: { body: { success: true, message: 'ok', data: { id: 7, code: 'B' } } } }]);
    await client.call('determinations.get', { params: { id: 7 } });
    const get = server.requests.at(-1)!;
    expect(get.path).toBe(`${DET}/7`);
    expect(get.headers['idempotency-key']).toBeUndefined();
    expect(get.headers['content-type']).toBeUndefined();

    await client.call('determinations.update', { params: { id: 7 }, body: { code: 'B' } });
    expect(server.requests.at(-1)!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('joins a base URL path prefix with the operation path', async () => {
    const server = fake.server();
    server.setRoutes([{ path: /.*/, reply: { body: { success: true, message: 'ok', data: { id: 3 } } } }]);
    const client = fake.client({ baseUrl: `${server.url}/data/` });
    await client.call('settings.get', { params: { id: 3 } });
    expect(server.requests.at(-1)!.path).toBe('/data/api/v1/system-financial-settings/3');
  });

  it('flattens paging into page, size and repeated sort, and adds the extra query', async () => {
    const server = fake.server();
    server.setRoutes([
      { path: /search$/, reply: { body: { content: [], page: { size: 50, number: 2, totalElements: 0, totalPages: 0 } } } },
      { path: /count$/, reply: { body: { count: 2 } } },
    ]);
    const client = fake.client();
    await client.call('tasks.search', { paging: { page: 2, size: 50, sort: ['createdAt,asc', 'id,desc'] }, body: { status: 'PENDING' } });
    expect(server.requests.at(-1)!.query).toEqual({ page: '2', size: '50', sort: ['createdAt,asc', 'id,desc'] });
    await client.call('notifications.count', { params: { userName: 'ann smith' }, query: { unread: true } });
    const count = server.requests.at(-1)!;
    expect(count.path).toBe('/api/notifications/ann%20smith/count');
    expect(count.query).toEqual({ unread: 'true' });
  });

  it('unwraps envelopes only when they are envelopes, and gives undefined for no body', async () => {
    const server = fake.server();
    const client = fake.client();
    server.setRoutes([{ path: '/api/topics/lease', reply: { body: [{ id: 1, code: 'T' }] } }]);
    expect((await client.call('topics.list', { params: { service: 'lease' } })).data).toEqual([{ id: 1, code: 'T' }]);

    // A record that happens to have a `data` field is not an envelope.
    server.setRoutes([{ path: `${DET}/1`, reply: { body: { id: 1, data: 'x' } } }]);
    expect((await client.call('determinations.get', { params: { id: 1 } })).data).toEqual({ id: 1, data: 'x' });

    server.setRoutes([{ path: '/api/images/5', reply: { status: 204 } }]);
    const deleted = await client.call('images.delete', { params: { id: 5 } });
    expect(deleted.status).toBe(204);
    expect(deleted.data).toBeUndefined();

    server.setRoutes([{ path: '/api/notifications/9/read', reply: { status: 200 } }]);
    expect((await client.call('notifications.markRead', { params: { id: 9 } })).data).toBeUndefined();
  });

  it('raw keeps the envelope and takes any path relative to the base URL', async () => {
    const server = fake.server();
    const envelope = { success: true, message: 'ok', data: { id: 4 } };
    server.setRoutes([{ path: '/data/anything/here', reply: { body: envelope } }]);
    const client = fake.client({ baseUrl: `${server.url}/data` });
    const result = await client.raw('put', 'anything/here', { body: { a: 1 }, query: { x: 'y' } });
    expect(result.data).toEqual(envelope);
    const sent = server.requests.at(-1)!;
    expect(sent).toMatchObject({ method: 'PUT', path: '/data/anything/here', query: { x: 'y' }, body: { a: 1 } });
  });

  it('raw percent-encodes a hand-typed path (spaces, non-ASCII) and keeps escapes already there', async () => {
    const server = fake.server();
    server.setRoutes([{ path: /^\/api\/topics\//, reply: { body: [] } }]);
    const client = fake.client();
    await client.raw('GET', '/api/topics/a b');
    await client.raw('GET', '/api/topics/ü?lang=de', { query: { x: 'é' } });
    await client.raw('GET', '/api/topics/a%20b');
    const sent = server.requests.slice(-3);
    expect(sent.map((r) => r.path)).toEqual(['/api/topics/a%20b', '/api/topics/%C3%BC', '/api/topics/a%20b']);
    expect(sent[1]?.query).toEqual({ lang: 'de', x: 'é' });
  });

  it('uploads an image as multipart with a file part and a JSON image part, returning headers', async () => {
    const server = fake.server();
    server.setRoutes([{ path: '/api/images', reply: { status: 201, headers: { location: '/api/images/12' } } }]);
    const client = fake.client();
    const result = await client.call('images.upload', {
      upload: { file: Buffer.from('not-really-a-png'), fileName: 'house.png', contentType: 'image/png', image: { name: 'house', service: 'lease' } },
    });
    expect(result.status).toBe(201);
    expect(result.headers.location).toBe('/api/images/12');

    const sent = server.requests.at(-1)!;
    const boundary = /boundary=(.+)$/.exec(String(sent.headers['content-type']))?.[1];
    expect(sent.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const parts = sent.bodyText
      .split(`--${boundary}`)
      .slice(1, -1)
      .map((part) => {
        const [head = '', ...rest] = part.split('\r\n\r\n');
        return { head, content: rest.join('\r\n\r\n').replace(/\r\n$/, '') };
      });
    expect(parts).toHaveLength(2);
    const [file, image] = parts;
    expect(file!.head).toMatch(/name="file"; filename="house.png"/);
    expect(file!.head).toMatch(/Content-Type: image\/png/);
    expect(file!.content).toBe('not-really-a-png');
    expect(image!.head).toMatch(/name="image"/);
    expect(image!.head).toMatch(/Content-Type: application\/json/);
    expect(JSON.parse(image!.content)).toEqual({ name: 'house', service: 'lease' });
  });

  it('traces each attempt with the key masked, and never writes the key', async () => {
    const server = fake.server();
    server.setRoutes([
      {
        path: `${DET}/1`,
        reply: [
          { status: 503, headers: { 'retry-after': '0' } },
          { status: 200, body: { id: 1 } },
        ],
      },
    ]);
    const lines: string[] = [];
    const client = fake.client({ retries: 2, trace: (line) => lines.push(line) });
    await client.call('determinations.get', { params: { id: 1 } });
    expect(lines[0]).toBe(`→ GET ${server.url}${DET}/1 (x-api-key: ••••abcd)`);
    expect(lines[1]).toMatch(/^← 503 Service Unavailable \d+ ms$/);
    expect(lines[2]).toBe('↻ retry 1/2 in 0.0 s after 503');
    expect(lines[4]).toMatch(/^← 200 OK \d+ ms$/);
    expect(lines.join('\n')).not.toContain(KEY);
  });
});
