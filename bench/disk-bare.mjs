// The disk's limit for bench/million.mjs: one loop appending a line of a create's size
// to a file and fdatasync-ing it, one after the other, for argv[3] seconds, in the
// folder argv[2] (the same disk as the data folder). Prints appends per second.
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';

const [dir, seconds] = process.argv.slice(2);
const path = join(dir, 'disk-bare.ndjson');
const line = `${JSON.stringify({ seq: 1, changes: [{ op: 'put', collection: 'determinations', record: { id: 1_000_001, name: 'bench', transactionType: 'LEASE', createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() } }] })}\n`;
const handle = await open(path, 'a');
let count = 0;
const started = performance.now();
const until = started + Number(seconds) * 1000;
while (performance.now() < until) {
  await handle.appendFile(line);
  await handle.datasync();
  count++;
}
const elapsed = (performance.now() - started) / 1000;
await handle.close();
await rm(path);
process.stdout.write(`${JSON.stringify({ perSecond: count / elapsed, ok: count })}\n`);
