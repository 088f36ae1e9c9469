/**
 * `snapshot.idx`, beside `snapshot.pla`: per record of the snapshot, its id, where its
 * JSON starts in the snapshot and its length in bytes, as arrays of numbers — what
 * start-up otherwise finds by reading every line of the snapshot (`snapshot.ts`). With
 * it, a start reads 20 bytes per record instead of the whole snapshot, and the
 * snapshot's checksum is verified on another thread meanwhile (`snapshot-check.ts`).
 *
 * It is a cache: written with each snapshot, used only when it belongs to the snapshot
 * there (its size, checksum and header line are recorded in it) and is whole (its own
 * checksum), else ignored, and the snapshot read line by line as before. A crash while
 * a snapshot is replaced leaves no index or the new one (see `writeSnapshot`). Older
 * pla versions read the snapshot and never look at it.
 *
 *   {"format":"pla-index/1","endian":"LE","snapshot":{…},"collections":[["tasks",2],…]}   (spaces up to a multiple of 8 bytes, then a newline)
 *   ids: float64 × records · starts: float64 × records · lengths: uint32 × records
 *   CRC-32 of all the bytes before it: uint32
 *
 * in the machine's byte order (`endian`; another machine ignores it).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { endianness } from 'node:os';
import { crc32 } from 'node:zlib';
import { isCollectionName } from './journal-entry.js';
import type { CollectionName } from './types.js';

export const SNAPSHOT_INDEX_FILE = 'snapshot.idx';
export const SNAPSHOT_INDEX_TEMP_FILE = 'snapshot.idx.tmp';

const FORMAT = 'pla-index/1';

/** What ties an index to one snapshot: its size in bytes, its checksum (as its end line writes it) and its header line. */
export interface SnapshotIdentity {
  bytes: number;
  crc: string;
  header: string;
}

/** The records of a snapshot, found through its index. */
export interface SnapshotSlots {
  /** Each collection's name and count, in the file's order: its records are the next `count` slots. */
  collections: Array<[CollectionName, number]>;
  ids: Float64Array;
  starts: Float64Array;
  lengths: Uint32Array;
}

/** Notes where each record goes while a snapshot is written. */
export class SnapshotIndexBuilder {
  /** Bytes of the snapshot so far. */
  bytes = 0;
  private slot = 0;
  private readonly ids: Float64Array;
  private readonly starts: Float64Array;
  private readonly lengths: Uint32Array;
  private readonly collections: Array<[CollectionName, number]> = [];
  /** False once an id past 2^53 was written: a double cannot hold it, so no index. */
  usable = true;

  constructor(records: number) {
    this.ids = new Float64Array(records);
    this.starts = new Float64Array(records);
    this.lengths = new Uint32Array(records);
  }

  /** A line that is not a record's (the header), of this many bytes with its newline. */
  line(bytes: number): void {
    this.bytes += bytes;
  }

  collection(name: CollectionName, count: number): void {
    this.collections.push([name, count]);
    this.bytes += name.length + 2;
  }

  /** A record line: its id's digits, a tab, `length` bytes of JSON and a newline. */
  record(id: number | bigint, digits: number, length: number): void {
    if (typeof id !== 'number') this.usable = false;
    this.ids[this.slot] = Number(id);
    this.starts[this.slot] = this.bytes + digits + 1;
    this.lengths[this.slot] = length;
    this.slot++;
    this.bytes += digits + length + 2;
  }

  /** The index file's bytes, for the snapshot `identity`. */
  contents(identity: SnapshotIdentity): Buffer[] {
    const header = Buffer.from(JSON.stringify({ format: FORMAT, endian: endianness(), snapshot: identity, collections: this.collections }));
    const line = Buffer.alloc(header.length + 8 - (header.length % 8), ' ');
    header.copy(line);
    line[line.length - 1] = 0x0a;
    const parts = [line, arrayBytes(this.ids), arrayBytes(this.starts), arrayBytes(this.lengths)];
    const crc = Buffer.alloc(4);
    crc.writeUInt32LE(parts.reduce((sum, part) => crc32(part, sum), 0));
    return [...parts, crc];
  }
}

function arrayBytes(array: Float64Array | Uint32Array): Buffer {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength);
}

/** Writes an index file (not fsynced: a torn one fails its checksum and is ignored). */
export async function writeSnapshotIndex(path: string, parts: readonly Buffer[]): Promise<void> {
  const handle = await open(path, 'w');
  try {
    await handle.writev(parts);
  } finally {
    await handle.close();
  }
}

/** The slots of the snapshot `identity` from the index at `path`; undefined when there is none, or it is not whole or not that snapshot's. */
export function readSnapshotIndex(path: string, identity: SnapshotIdentity): SnapshotSlots | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const { size } = fstatSync(fd);
    // Its own ArrayBuffer, from offset 0: the arrays are views of it, 8-byte aligned.
    const bytes = Buffer.from(new ArrayBuffer(size));
    for (let done = 0; done < size;) {
      const read = readSync(fd, bytes, done, size - done, done);
      if (read === 0) return undefined;
      done += read;
    }
    return slotsOf(bytes, identity);
  } finally {
    closeSync(fd);
  }
}

function slotsOf(bytes: Buffer, identity: SnapshotIdentity): SnapshotSlots | undefined {
  if (bytes.length < 12 || crc32(bytes.subarray(0, bytes.length - 4)) !== bytes.readUInt32LE(bytes.length - 4)) return undefined;
  const newline = bytes.indexOf(0x0a);
  if (newline === -1 || (newline + 1) % 8 !== 0) return undefined;
  let header: unknown;
  try {
    header = JSON.parse(bytes.toString('utf8', 0, newline));
  } catch {
    return undefined;
  }
  const { format, endian, snapshot, collections } = (header ?? {}) as Record<string, unknown>;
  if (format !== FORMAT || endian !== endianness() || !Array.isArray(collections)) return undefined;
  const recorded = (snapshot ?? {}) as Partial<SnapshotIdentity>;
  if (recorded.bytes !== identity.bytes || recorded.crc !== identity.crc || recorded.header !== identity.header) return undefined;
  let records = 0;
  for (const collection of collections) {
    if (!Array.isArray(collection) || !isCollectionName(collection[0]) || !Number.isSafeInteger(collection[1]) || collection[1] < 0) return undefined;
    records += collection[1] as number;
  }
  const at = newline + 1;
  if (bytes.length !== at + records * 20 + 4) return undefined;
  return {
    collections: collections as Array<[CollectionName, number]>,
    ids: new Float64Array(bytes.buffer, at, records),
    starts: new Float64Array(bytes.buffer, at + records * 8, records),
    lengths: new Uint32Array(bytes.buffer, at + records * 16, records),
  };
}
