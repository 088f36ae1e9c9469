// Child process of bench/server.mjs: fills a pla data folder through the store's own
// API (bundled by the parent with esbuild), or writes the same records as a
// json-server db.json. Runs apart so its memory is gone before anything is measured.
//   node bench/server-prepare.mjs store <store bundle> <data dir> <count>
//   node bench/server-prepare.mjs json-server <db.json> <count>
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { determination } from './server-records.mjs';

async function fillStore(bundle, dir, count) {
  const { openFileTables: openStore } = await import(bundle);
  // One compaction at close instead of several while loading.
  const store = await openStore({ dir, compactAfterBytes: Number.MAX_SAFE_INTEGER, compactAfterEntries: Number.MAX_SAFE_INTEGER });
  const batch = 10_000;
  for (let start = 1; start <= count; start += batch) {
    const changes = [];
    for (let i = start; i < Math.min(count + 1, start + batch); i++) {
      changes.push({ op: 'put', collection: 'determinations', record: determination(store.allocateId('determinations')) });
    }
    await store.commit(changes);
  }
  await store.close();
}

async function writeDbJson(path, count) {
  const out = createWriteStream(path);
  const write = async (text) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('{"determinations":[\n');
  for (let i = 1; i <= count; i++) await write(`${JSON.stringify(determination(i))}${i < count ? ',' : ''}\n`);
  await write(']}\n');
  out.end();
  await once(out, 'finish');
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'store') await fillStore(args[0], args[1], Number(args[2]));
else if (mode === 'json-server') await writeDbJson(args[0], Number(args[1]));
