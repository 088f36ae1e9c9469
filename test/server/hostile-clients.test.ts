/**
 * Clients that break the rules on purpose or by accident: uploads cut short or
 * abandoned, multipart without a boundary, JSON nested thousands deep, ids `Number`
 * would misread, requests racing an admin reset, data whose names are
 * Object.prototype's. The server answers each and keeps running, and leaves nothing
 * behind, also across a restart after a crash mid-upload.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';

const DET = '/api/v1/asset-transaction-type-determinations';
const TASKS = '/api/v1/batch/mass-inter-company-transfer/tasks';

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer();
});
afterAll(async () => {
  await server?.stop();
});

const alive = async () => (await server.http('GET', '/_admin/health', { key: null })).status;

/** Files an upload in progress leaves in the images folder (`.upload-*`). */
async function uploadTemps(): Promise<string[]> {
  const names = await readdir(join(server.dataDir, 'images')).catch(() => []);
  return names.filter((name) => name.startsWith('.upload-'));
}

const part = (name: string, filename: string, type: string) =>
  `--XB\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`;

describe('uploads', () => {
  it('a multipart body that ends inside a part is a 400, and the server keeps running', async () => {
    // The image part sent as a file part, cut short: its stream errors as well as the parser.
    for (const body of [`${part('image', 'image.json', 'application/json')}{"name":"x"`, `${part('other', 'x.bin', 'application/octet-stream')}xx`]) {
      const result = await server.http('POST', '/api/images', { body, headers: { 'content-type': 'multipart/form-data; boundary=XB' } });
      expect(result.status).toBe(400);
      expect(result.text).toContain('malformed multipart');
      expect(await alive()).toBe(200);
    }
  });

  it('multipart/form-data without a boundary is a 400, not a 500', async () => {
    const result = await server.http('POST', '/api/images', { body: 'xx', headers: { 'content-type': 'multipart/form-data' } });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ type: 'urn:pla:problem:malformed-multipart' });
  });

  it('an upload whose client goes away mid-file leaves no temporary file behind', async () => {
    const { port, hostname } = new URL(server.url);
    const socket = connect(Number(port), hostname);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      `POST /api/images HTTP/1.1\r\nHost: x\r\nx-api-key: ${server.adminKey}\r\ncontent-type: multipart/form-data; boundary=XB\r\n` +
        `content-length: 100000\r\n\r\n${part('file', 'a.png', 'image/png')}${'x'.repeat(1000)}`,
    );
    // The file is being saved…
    await expect.poll(uploadTemps, { timeout: 20_000, interval: 50 }).toHaveLength(1);
    socket.destroy();
    // …and once its client is gone, dropped rather than waited on forever.
    await expect.poll(uploadTemps, { timeout: 20_000, interval: 50 }).toHaveLength(0);
    expect(await alive()).toBe(200);
  });
});

describe('deeply nested JSON', () => {
  const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

  it('a body nested thousands of levels deep is a 400 naming the body, and nothing is stored', async () => {
    // Record counts only: the health body's uptimeSeconds ticks on its own.
    const counts = async () => ((await server.http('GET', '/_admin/health')).body as { records: unknown }).records;
    const before = await counts();
    const result = await server.http('POST', DET, { body: `{"code":"deep","deep":${nested(20_000)}}` });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ errors: [{ path: 'body', message: 'nested more than 512 levels deep' }] });
    const image = await server.http('POST', '/api/images', {
      body: `${part('file', 'a.png', 'image/png')}png\r\n${part('image', 'image.json', 'application/json')}{"content":${nested(20_000)}}\r\n--XB--\r\n`,
      headers: { 'content-type': 'multipart/form-data; boundary=XB' },
    });
    expect(image.status).toBe(400);
    expect(image.text).toContain('image: nested more than 512 levels deep');
    expect(await counts()).toEqual(before);
  });

  it('a body nested a few hundred levels deep is kept', async () => {
    const result = await server.http('POST', DET, { body: `{"code":"deep enough","deep":${nested(500)}}` });
    expect(result.status).toBe(200);
  });
});

describe('notification ids', () => {
  it('a path id that is not plain digits names no notification, however Number would read it', async () => {
    const before = await server.http('GET', '/api/notifications/alice?size=100');
    for (const id of ['0x1', '1e0', '%201', '1.0']) {
      expect((await server.http('POST', `/api/notifications/${id}/read`)).status).toBe(404);
      expect((await server.http('DELETE', `/api/notifications/${id}`)).status).toBe(404);
    }
    expect((await server.http('GET', '/api/notifications/alice?size=100')).body).toEqual(before.body);
  });

  it('so is an API key id: DELETE /_admin/keys/0x1 revokes nothing', async () => {
    for (const id of ['0x1', '1e0', '%201']) expect((await server.http('DELETE', `/_admin/keys/${id}`)).status).toBe(404);
    expect((await server.http('GET', '/api/topics/lease')).status).toBe(200);
  });
});

describe('restart after a crash mid-upload', () => {
  it('removes the partial upload files an earlier run left', async () => {
    await mkdir(join(server.dataDir, 'images'), { recursive: true });
    await writeFile(join(server.dataDir, 'images', '.upload-0123456789ab'), 'half an image');
    await server.restart();
    expect(await uploadTemps()).toEqual([]);
    expect(server.stderr()).toContain('removed 1 partial upload(s)');
  });
});

describe('admin reset', () => {
  it('never answers 401 to a valid key while a reset runs', async () => {
    const statuses = new Map<number, number>();
    for (let round = 0; round < 5; round++) {
      let done = false;
      const reset = server.http('POST', '/_admin/reset').then((result) => {
        done = true;
        return result.status;
      });
      const reader = async () => {
        while (!done) {
          const { status } = await server.http('GET', '/api/topics/lease');
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      };
      const [resetStatus] = await Promise.all([reset, reader(), reader()]);
      expect(resetStatus).toBe(200);
    }
    expect([...statuses.keys()]).toEqual([200]);
  });
});

describe('names that are Object.prototype members are data', () => {
  it('count-by-type counts types named constructor, toString and __proto__ as numbers', async () => {
    for (const type of ['constructor', 'toString', '__proto__', 'constructor']) {
      expect((await server.http('POST', '/api/notifications', { body: { forUserId: 'proto-user', type } })).status).toBe(201);
    }
    const result = await server.http('GET', '/api/notifications/proto-user/count-by-type');
    expect(JSON.parse(result.text)).toEqual(JSON.parse('{"constructor":2,"toString":1,"__proto__":1}'));
  });

  it('keeps a record field named __proto__ as sent', async () => {
    const created = await server.http('POST', DET, { body: '{"code":"P","__proto__":{"x":1}}' });
    expect(created.status).toBe(200);
    expect(created.text).toContain('"__proto__":{"x":1}');
    const id = (created.body as { data: { id: number } }).data.id;
    expect((await server.http('GET', `${DET}/${id}`)).text).toContain('"__proto__":{"x":1}');
  });

  it('a task search on constructor matches only tasks that have that field', async () => {
    const result = await server.http('POST', `${TASKS}/search`, { body: { constructor: { from: 'a' } } });
    expect(result.status).toBe(200);
    expect((result.body as { content: unknown[] }).content).toEqual([]);
  });
});
