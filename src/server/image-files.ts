/**
 * Image bytes, content-addressed: `<data>/images/<sha256>`. An upload streams
 * into a temporary file while it is hashed and is made durable (`save`); the
 * handler then `place`s it under its hash in the same step as it stores the record,
 * and `release`s a hash no record refers to any more. Identical uploads share one
 * file. Placing and releasing a hash are each done holding the store's lock on that
 * hash (see handlers/images.ts), so a delete never removes bytes an upload of the
 * same bytes is about to refer to. Metadata lives in the store.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobStore, Transaction } from '../store/types.js';
import { fsyncDir } from '../store/durable-fs.js';
import { tooLarge } from './body.js';

export interface SavedImage {
  sha256: string;
  size: number;
  /** The temporary file holding the bytes until `place` names them by their hash (a name of the bytes in memory for the database's image files). */
  temp: string;
}

export interface ImageFiles {
  readonly dir: string;
  /** Writes the bytes of `stream` to a durable temporary file; 413 when busboy cut it at `limit` (it then marks the stream truncated). */
  save(stream: Readable & { truncated?: boolean }, limit: number): Promise<SavedImage>;
  /**
   * Names saved bytes by their hash (replacing identical bytes already there), as a
   * step of `tx`, the transaction storing the image record (the database's bytes
   * commit with it; a folder's file is renamed at once). Called again when the
   * transaction is run again.
   */
  place(saved: SavedImage, tx: Transaction): Promise<void>;
  /** Drops what `save` kept of the bytes: the temporary file when not placed, the bytes held in memory. Called once the upload is done, placed or not. */
  discard(saved: SavedImage): Promise<void>;
  /** Removes the bytes of a hash no image refers to any more. */
  release(sha256: string): Promise<void>;
  /**
   * Removes the placed bytes no record refers to (after an admin reset); the temporary
   * files of uploads in flight are theirs and stay. Answers how many went.
   */
  releaseUnreferenced(isReferenced: (sha256: string) => Promise<boolean>): Promise<number>;
  /**
   * At start-up: removes the temporary files of uploads a crash interrupted, and the
   * files of hashes no record refers to (a kill -9 between a delete and its release).
   */
  sweep(isReferenced: (sha256: string) => Promise<boolean>): Promise<{ partial: number; orphans: number }>;
}

const TEMP_PREFIX = '.upload-';
/** The name of a placed file: its sha-256, hex. */
const SHA256 = /^[0-9a-f]{64}$/;

/** The image files of a data folder (`<data>/images/`). */
export function createImageFiles(dataDir: string): ImageFiles {
  const dir = join(dataDir, 'images');
  const releaseUnreferenced = async (isReferenced: (sha256: string) => Promise<boolean>): Promise<number> => {
    let released = 0;
    for (const name of await readdir(dir).catch(() => [])) {
      if (!SHA256.test(name) || (await isReferenced(name))) continue;
      await rm(join(dir, name), { force: true });
      released += 1;
    }
    return released;
  };
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
        return { sha256: hash.digest('hex'), size, temp };
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },
    async place(saved) {
      await rename(saved.temp, join(dir, saved.sha256));
      await fsyncDir(dir);
    },
    async discard(saved) {
      await rm(saved.temp, { force: true });
    },
    async release(sha256) {
      await rm(join(dir, sha256), { force: true });
    },
    releaseUnreferenced,
    async sweep(isReferenced) {
      let partial = 0;
      for (const name of await readdir(dir).catch(() => [])) {
        if (!name.startsWith(TEMP_PREFIX)) continue;
        await rm(join(dir, name), { force: true });
        partial += 1;
      }
      return { partial, orphans: await releaseUnreferenced(isReferenced) };
    },
  };
}

/**
 * Image bytes kept by the store (PostgreSQL), so that every server process on the
 * database can serve and delete them. An upload is held in memory (at most the image
 * limit) while it is hashed, and written to the database in the transaction that
 * stores its record. Bytes are removed by the database itself, in the transaction
 * that deletes the last record referring to them (see `BlobStore`): a process killed
 * at any moment leaves no bytes without a record, nor a record without its bytes.
 */
export function createStoredImageFiles(_blobs: BlobStore): ImageFiles {
  /** Uploads saved and not yet discarded, by the name `save` gave them (the handler copies the `SavedImage`). */
  const held = new Map<string, Buffer>();
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
      const saved: SavedImage = { sha256: hash.digest('hex'), size: bytes.length, temp: `memory:${randomBytes(6).toString('hex')}` };
      held.set(saved.temp, bytes);
      return saved;
    },
    async place(saved, tx) {
      const bytes = held.get(saved.temp);
      if (bytes === undefined || !tx.blobs)
        throw new Error(`image bytes ${saved.sha256} cannot be placed: ${bytes === undefined ? 'already discarded' : 'the store keeps no bytes'}`);
      // Kept in memory until discarded: a transaction run again after a deadlock places them again.
      await tx.blobs.put(saved.sha256, bytes);
    },
    async discard(saved) {
      held.delete(saved.temp);
    },
    // The transaction that deleted the last record removed the bytes (a trigger); a reset's TRUNCATE did too.
    async release() {},
    async releaseUnreferenced() {
      return 0;
    },
    async sweep() {
      return { partial: 0, orphans: 0 }; // nothing is written but with its record
    },
  };
}
