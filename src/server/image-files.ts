/**
 * Image bytes, content-addressed: `<data>/images/<sha256>`. An upload streams
 * into a temporary file while it is hashed, is made durable, then renamed to its
 * hash; identical uploads share one file. Metadata lives in the store.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { BlobStore } from '../store/types.js';
import { pipeline } from 'node:stream/promises';
import { tooLarge } from './body.js';

export interface SavedImage {
  sha256: string;
  size: number;
}

export interface ImageFiles {
  readonly dir: string;
  /** Stores the bytes of `stream`; 413 when busboy cut it at `limit` (it then marks the stream truncated). */
  save(stream: Readable & { truncated?: boolean }, limit: number): Promise<SavedImage>;
  /** Removes the bytes of a hash no image refers to any more. */
  release(sha256: string): Promise<void>;
  /** Removes every image file (admin reset). */
  clear(): Promise<void>;
  /** Removes the temporary files of uploads a crash interrupted (at start-up); returns how many. */
  sweep(): Promise<number>;
}

const TEMP_PREFIX = '.upload-';

/** The image files of a data folder (`<data>/images/`). */
export function createImageFiles(dataDir: string): ImageFiles {
  const dir = join(dataDir, 'images');
  return {
    dir,
    async save(stream, limit) {
      await mkdir(dir, { recursive: true });
      const temp = join(dir, `${TEMP_PREFIX}${randomBytes(6).toString('hex')}`);
      const hash = createHash('sha256');
      let size = 0;
      const hashing = async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          hash.update(chunk);
          size += chunk.length;
          yield chunk;
        }
      };
      try {
        await pipeline(stream, hashing, createWriteStream(temp));
        if (stream.truncated) throw tooLarge('image file', limit);
        const file = await open(temp, 'r+');
        await file.sync().finally(() => file.close());
        const sha256 = hash.digest('hex');
        await rename(temp, join(dir, sha256));
        return { sha256, size };
      } finally {
        await rm(temp, { force: true });
      }
    },
    async release(sha256) {
      await rm(join(dir, sha256), { force: true });
    },
    async clear() {
      await rm(dir, { recursive: true, force: true });
    },
    async sweep() {
      const names = await readdir(dir).catch(() => []);
      const temps = names.filter((name) => name.startsWith(TEMP_PREFIX));
      await Promise.all(temps.map((name) => rm(join(dir, name), { force: true })));
      return temps.length;
    },
  };
}


/**
 * Image bytes kept by the store (PostgreSQL), so that every server process on the
 * database can serve and delete them. An upload is held in memory (at most the
 * image limit) while it is hashed, then stored under its hash.
 */
export function createStoredImageFiles(blobs: BlobStore): ImageFiles {
  return {
    dir: 'the database',
    async save(stream, limit) {
      const hash = createHash('sha256');
      const chunks: Buffer[] = [];
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        hash.update(chunk);
        chunks.push(chunk);
      }
      if (stream.truncated) throw tooLarge('image file', limit);
      const bytes = Buffer.concat(chunks);
      const sha256 = hash.digest('hex');
      await blobs.put(sha256, bytes);
      return { sha256, size: bytes.length };
    },
    release: (sha256) => blobs.releaseIfUnused(sha256),
    clear: () => blobs.clear(),
    async sweep() {
      return 0; // nothing is written before the bytes are whole
    },
  };
}
