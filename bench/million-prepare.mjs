// Child process of bench/million.mjs: fills a data folder with COUNT determinations
// written through the server's own write path, as users make them: `pla server start`
// of the given checkout, bulk creates of 1,000 records (POST …/bulk, as `pla det
// upsert --file` sends them), each record stamped by the server (id, createdAt,
// updatedAt, status). Then the server is stopped (SIGTERM: a clean close compacts into
// a snapshot), started again, TAIL more records created one request each, 10 at a
// time, and the server killed (SIGKILL): the folder is left as a running server
// leaves it, a snapshot plus a journal to replay.
//   node bench/million-prepare.mjs <pla root> <data dir> <count> <tail>
import { join } from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { userDetermination } from './million-records.mjs';
import { killAll, startNode } from './server-processes.mjs';

const [root, dir, count, tail] = process.argv.slice(2);
const DET = '/api/v1/asset-transaction-type-determinations';
const config = await mkdtemp(join(tmpdir(), 'pla-million-config-'));

async function start() {
  let key;
  const server = await startNode([join(root, 'bin/pla.js'), 'server', 'start', '--port', '0', '--data', dir, '--no-seed', '--quiet'], {
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

try {
  // The admin key is printed once, on the first start of a folder: keep it for the second.
  const first = await start();
  const key = first.key;
  if (!key) throw new Error('the server printed no admin key (is the data folder new?)');
  let made = 0;
  while (made < Number(count)) {
    const batch = [];
    for (let i = 0; i < 1000 && made < Number(count); i++) batch.push(userDetermination(++made));
    await send(`${first.url}${DET}/bulk`, key, 'POST', batch);
    if (made % 100_000 === 0) process.stderr.write(`  ${made.toLocaleString('en-US')} …\n`);
  }
  await first.server.stop('SIGTERM');

  const second = await start();
  let next = 0;
  const worker = async () => {
    while (next < Number(tail)) await send(`${second.url}${DET}`, key, 'POST', userDetermination(Number(count) + ++next));
  };
  await Promise.all(Array.from({ length: 10 }, worker));
  // No clean stop: it would fold the journal into the snapshot.
  await second.server.stop('SIGKILL');
} finally {
  killAll();
  await rm(config, { recursive: true, force: true });
}
