// Child process of bench/million.mjs: fills a data folder with COUNT determinations
// through the store's own API (bundled by the parent), in commits of 10,000, closes it
// (which compacts: a snapshot), then reopens it and commits TAIL more one record per
// entry, concurrently (group commit), and exits without closing: the folder is left
// as a running server leaves it, a snapshot plus a journal to replay.
//   node bench/million-prepare.mjs <store bundle> <data dir> <count> <tail>
import { shortDetermination } from './million-records.mjs';

const [bundle, dir, count, tail] = process.argv.slice(2);
const { openFileTables } = await import(bundle);
const never = { compactAfterBytes: Number.MAX_SAFE_INTEGER, compactAfterEntries: Number.MAX_SAFE_INTEGER };

let store = await openFileTables({ dir, ...never });
for (let start = 1; start <= Number(count); start += 10_000) {
  const changes = [];
  for (let i = start; i < Math.min(Number(count) + 1, start + 10_000); i++) {
    changes.push({ op: 'put', collection: 'determinations', record: shortDetermination(store.allocateId('determinations')) });
  }
  await store.commit(changes);
}
await store.close();

store = await openFileTables({ dir, ...never, warn: () => {} });
for (let done = 0; done < Number(tail); done += 1000) {
  const commits = [];
  for (let i = 0; i < 1000; i++) {
    commits.push(store.commit([{ op: 'put', collection: 'determinations', record: shortDetermination(store.allocateId('determinations')) }]));
  }
  await Promise.all(commits);
}
// No close: a clean close would fold the journal into the snapshot.
process.exit(0);
