/**
 * Issue 9 item 7: an acknowledged image never loses its bytes. Deleting an image
 * whose file is shared by hash races with an upload of the same bytes (300 rounds);
 * files no record refers to after a crash are collected at the next start; UTF-8
 * file names are kept as sent. Through the real server.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImageFiles } from '../../src/server/image-files.js';
import { resetStore } from '../../src/server/reset.js';
import { openJsonStore } from '../../src/store/index.js';
import { startLocalServer, type LocalServer } from '../support/local-server.js';

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer({ seed: false });
});
afterAll(async () => {
  await server?.stop();
});

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const fileOf = (hash: string) => join(server.dataDir, 'images', hash);
const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** Uploads `data` as an image; resolves with the new image's id. */
async function upload(data: string, filename = 'a.png'): Promise<number> {
  const body = Buffer.concat([
    Buffer.from(`--XB\r\nContent-Disposition: form-data; name="file"; filename="`),
    Buffer.from(filename, 'utf8'),
    Buffer.from(`"\r\nContent-Type: image/png\r\n\r\n${data}\r\n--XB\r\nContent-Disposition: form-data; name="image"\r\n\r\n{"service":"lease"}\r\n--XB--\r\n`),
  ]);
  const result = await server.http('POST', '/api/images', { body, headers: { 'content-type': 'multipart/form-data; boundary=XB' } });
  expect(result.status).toBe(201);
  return Number(result.headers.location?.split('/').pop());
}

describe('item 7: image bytes shared by hash', () => {
  it('300 rounds of deleting an image while the same bytes are uploaded again never leave a live image without its file', async () => {
    let lost = 0;
    for (let round = 0; round < 300; round += 1) {
      const bytes = `png-bytes-of-round-${round}`;
      const first = await upload(bytes);
      const [deleted] = await Promise.all([server.http('DELETE', `/api/images/${first}`), upload(bytes)]);
      expect(deleted.status).toBe(204);
      // The second image is live (acknowledged, not deleted): its bytes must be there.
      if (!(await exists(fileOf(sha256(bytes))))) lost += 1;
    }
    expect(lost).toBe(0);
  });

  it('deleting the last image of some bytes removes their file', async () => {
    const bytes = 'png-bytes-alone';
    const id = await upload(bytes);
    expect(await exists(fileOf(sha256(bytes)))).toBe(true);
    expect((await server.http('DELETE', `/api/images/${id}`)).status).toBe(204);
    expect(await exists(fileOf(sha256(bytes)))).toBe(false);
  });

  it('a UTF-8 file name is kept as sent', async () => {
    const name = 'Übersicht-報告-ø.png';
    await upload('png-utf8', name);
    const stored = await readdir(server.dataDir);
    // The record is in the store's own files; read them as text and look for the name as sent.
    const texts = await Promise.all(stored.filter((f) => /\.(ndjson|json)$/.test(f)).map((f) => readFile(join(server.dataDir, f), 'utf8')));
    expect(texts.join('\n')).toContain(`"fileName":"${name}"`);
  });

  it('files no record refers to (left by a kill -9 between a delete and its clean-up) are collected at the next start', async () => {
    const kept = 'png-kept-across-restart';
    await upload(kept);
    const orphan = Buffer.from('bytes whose record is gone');
    await writeFile(fileOf(sha256(orphan)), orphan);
    await server.restart();
    expect(server.stderr()).toContain('removed 1 image file(s) no image refers to any more');
    expect(await exists(fileOf(sha256(orphan)))).toBe(false);
    expect(await exists(fileOf(sha256(kept)))).toBe(true);
  });
});

describe('an admin reset racing an upload (JSON-file store)', () => {
  it('the upload whose transaction comes right after the reset keeps its file with its record', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pla-reset-race-'));
    const store = await openJsonStore({ dir, warn: () => {} });
    const images = createImageFiles(dir);
    try {
      const bytes = 'png-uploaded-during-a-reset';
      const saved = await images.save(Readable.from([Buffer.from(bytes)]), 1024);
      // Queued in this order: the reset's transaction, then the upload's (place, then the record), then whatever the reset does next.
      const resetting = resetStore(store, images);
      const uploading = store.transaction(async (tx) => {
        await images.place(saved, tx);
        const [id] = await tx.allocateIds('images', 1);
        tx.put('images', { id: id as number, sha256: saved.sha256 });
      });
      await Promise.all([resetting, uploading]);
      expect(await store.count('images', [{ field: 'sha256', equals: sha256(bytes) }])).toBe(1);
      expect(await exists(join(dir, 'images', sha256(bytes)))).toBe(true);
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
