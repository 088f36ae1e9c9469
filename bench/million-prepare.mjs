// Child process of bench/million.mjs: fills a data folder with COUNT determinations
// written through the server's own write path, as users make them: `pla server start`
// of the given checkout, records sent in bulk creates of 1,000 (POST …/bulk, as `pla
// det upsert --file` sends them) or one request each, every record stamped by the
// server (id, createdAt, updatedAt, status). First COUNT − BULK_TAIL − TAIL records in
// bulk, and the server stopped (SIGTERM: a clean close compacts them into a snapshot);
// then started again, BULK_TAIL records in bulk and TAIL one request each, 10 at a
// time, and the server killed (SIGKILL): the folder is left as a running server leaves
// it, a snapshot plus a journal of both kinds of entries to replay. The admin key is
// written to <data dir>.key.
//   node bench/million-prepare.mjs <pla root> <data dir> <count> <bulk tail> <tail>
import { join } from 'node:path';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { userDetermination } from './million-records.mjs';
import { killAll, startNode } from './server-processes.mjs';

const [root, dir, count, bulkTail, tail] = process.argv.slice(2).map((arg, i) => (i < 2 ? arg : Number(arg)));
const DET = '/api/v1/asset-transaction-type-determinations';
const config = await mkdtemp(join(tmpdir(), 'pla-million-config-'));

async function start() {
  let key;
  const server = await startNode([join(root, 'bin/pla.js'), 'server', 'start', '--port', '0', '--data', dir, '--no-seed', '--no-request-log'], {
    env: { PLA_CONFIG_DIR: config, NO_COLOR: '1' },
    ready: /listening on (http:\/\/\S+)/,
    watch: (line) => {
      key ??= /New admin key: (\S+)/.exec(line)?.[1];
    },
    timeoutMs: 600_000,
  });
  return { server, url: server.match[1], key };
}

async function send(url, key, method, body) {
  const response = await fetch(url, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
}

/** Sends records `first` to `last` in bulk creates of 1,000. */
async function bulk(url, key, first, last) {
  for (let start = first; start <= last; start += 1000) {
    const batch = [];
    for (let i = start; i <= Math.min(last, start + 999); i++) batch.push(userDetermination(i));
    await send(`${url}${DET}/bulk`, key, 'POST', batch);
    if (start % 100_000 === 1) process.stderr.write(`  ${(start - 1).toLocaleString('en-US')} …\n`);
  }
}

try {
  // The admin key is printed once, on the first start of a folder: kept for the second.
  const first = await start();
  const key = first.key;
  if (!key) throw new Error('the server printed no admin key (is the data folder new?)');
  await writeFile(`${dir}.key`, key);
  const snapshotted = count - bulkTail - tail;
  await bulk(first.url, key, 1, snapshotted);
  await first.server.stop('SIGTERM');

  const second = await start();
  await bulk(second.url, key, snapshotted + 1, snapshotted + bulkTail);
  let next = snapshotted + bulkTail;
  const worker = async () => {
    while (next < count) await send(`${second.url}${DET}`, key, 'POST', userDetermination(++next));
  };
  await Promise.all(Array.from({ length: 10 }, worker));
  // No clean stop: it would fold the journal into the snapshot.
  await second.server.stop('SIGKILL');
} finally {
  killAll();
  await rm(config, { recursive: true, force: true });
}
