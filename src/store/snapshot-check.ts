/**
 * The snapshot's checksum, over its first `end` bytes. A start that found the records
 * through the snapshot's index (`snapshot-index.ts`) reads no record at all; the
 * checksum still covers every byte, so a damaged snapshot is refused before anything
 * is served from it. Over a large snapshot it runs on a worker thread, reading the
 * file a megabyte at a time, while the main thread replays the journal and loads the
 * server's modules; the store opens only once it is known to match.
 */
import * as fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { crc32 } from 'node:zlib';

/** From this size on, the checksum is computed on a worker thread (starting one costs a few tens of ms of the other core). */
export const CHECK_IN_WORKER_FROM = 16 << 20;

type FileFunctions = Pick<typeof fs, 'closeSync' | 'fstatSync' | 'openSync' | 'readSync'>;

/**
 * The CRC-32 of the first `end` bytes of the file at `path`, if it is still the file
 * `ino` names. Self-contained (what it uses comes in as arguments), as the worker runs
 * its text.
 */
function checksumOf(files: FileFunctions, crc32Of: typeof crc32, path: string, end: number, ino: bigint): number {
  const fd = files.openSync(path, 'r');
  try {
    if (files.fstatSync(fd, { bigint: true }).ino !== ino) throw new Error(`${path} was replaced while it was read`);
    const buffer = Buffer.allocUnsafe(Math.min(end, 1 << 20) || 1);
    let crc = 0;
    for (let position = 0; position < end;) {
      const read = files.readSync(fd, buffer, 0, Math.min(buffer.length, end - position), position);
      if (read === 0) throw new Error(`${path} is shorter than when it was opened`);
      crc = crc32Of(buffer.subarray(0, read), crc);
      position += read;
    }
    return crc;
  } finally {
    files.closeSync(fd);
  }
}

// The worker's code: a script of its own (the bundle has no file to point a worker at).
const WORKER_SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const checksumOf = ${checksumOf.toString()};
parentPort.postMessage(checksumOf(require('node:fs'), require('node:zlib').crc32, workerData.path, workerData.end, BigInt(workerData.ino)));
`;

/**
 * The CRC-32 of the first `end` bytes of the open snapshot `fd` (at `path`): on a
 * worker thread from `workerFrom` bytes on, else here. A worker that cannot start or
 * fails hands the work back to this thread (which then fails the same way when the
 * file is at fault).
 */
export async function snapshotChecksum(fd: number, path: string, end: number, workerFrom = CHECK_IN_WORKER_FROM): Promise<number> {
  const ino = fs.fstatSync(fd, { bigint: true }).ino;
  const here = () => checksumOf(fs, crc32, path, end, ino);
  if (end < workerFrom) return here();
  try {
    return await new Promise<number>((resolve, reject) => {
      const worker = new Worker(WORKER_SCRIPT, { eval: true, workerData: { path, end, ino: String(ino) } });
      worker.once('message', (crc: number) => resolve(crc));
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the snapshot's checksum thread stopped (exit code ${code})`)));
    });
  } catch {
    return here();
  }
}
