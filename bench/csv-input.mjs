// Csv input benchmark: what deciding duplicate ids costs the reading of an
// upsert's input. A create reads its csv once and sends as it reads; an upsert
// (update too) must know every id before the first batch goes, so it judges the
// whole input first (src/io/input/records.ts). This times the reader alone, in
// process (bundled from src/ with esbuild), so neither the service nor the
// network is in the numbers.
//
//   node bench/csv-input.mjs [--records 200000] [--runs 3] [--root DIR]
//
// `--root` reads the reader from another checkout (its src/ and node_modules/),
// to compare with an earlier version.
//
// Prints the best CPU time of each and the ratios (upsert's reading / create's, from
// a file and from stdin); no target, no timed assert.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { ROOT, argValue } from './support.mjs';

const RECORDS = argValue('--records', 200_000);
const RUNS = argValue('--runs', 3);
const rootAt = process.argv.indexOf('--root');
const root = rootAt === -1 ? ROOT : process.argv[rootAt + 1];

/** A csv as a spreadsheet writes it: CRLF, an id column, codes unquoted, Excel's TRUE/FALSE. */
async function writeCsv(path, n) {
  const out = createWriteStream(path);
  out.write('id,ref,companyCode,transactionType,amount,active\r\n');
  for (let i = 0; i < n; i++) {
    const line = `${i + 1},bench-${i},${1000 + (i % 97)},TRANSFER,${(i % 1000) + 0.25},${i % 2 === 0 ? 'TRUE' : 'FALSE'}\r\n`;
    if (!out.write(line)) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
}

/**
 * Reads every record; the best of RUNS, in seconds of this process's CPU (user +
 * system): on a shared machine the wall clock measures the neighbours as much.
 */
async function best(readRecords, file, options, stdinOf) {
  let fastest = Infinity;
  for (let run = 0; run < RUNS; run++) {
    const started = process.cpuUsage();
    let n = 0;
    for await (const _ of readRecords({ file }, { ...options, ...(stdinOf ? { stdin: stdinOf() } : {}) })) n += 1;
    const used = process.cpuUsage(started);
    fastest = Math.min(fastest, (used.user + used.system) / 1e6);
    if (n !== RECORDS) throw new Error(`read ${n} records, expected ${RECORDS}`);
  }
  return fastest;
}

const work = await mkdtemp(join(tmpdir(), 'pla-bench-csv-'));
try {
  const bundle = join(work, 'records.mjs');
  await build({
    entryPoints: [join(root, 'src/io/input/records.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: bundle,
    logLevel: 'error',
    // Its CommonJS dependencies (stream-json) require node's modules.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  const { readRecords } = await import(pathToFileURL(bundle).href);
  const csv = join(work, 'records.csv');
  await writeCsv(csv, RECORDS);
  console.log(`csv input bench: ${RECORDS.toLocaleString('en')} rows, best of ${RUNS}, reader of ${root}`);
  const fromStdin = () => createReadStream(csv);
  const create = await best(readRecords, csv, {});
  const upsert = await best(readRecords, csv, { recordIds: true });
  const createStdin = await best(readRecords, '-', {}, fromStdin);
  const upsertStdin = await best(readRecords, '-', { recordIds: true }, fromStdin);
  const line = (label, seconds, base) =>
    console.log(`  ${label.padEnd(26)} ${seconds.toFixed(2).padStart(6)} s CPU${base ? `   ×${(seconds / base).toFixed(2)} of create` : ''}`);
  line('create --file (one read)', create);
  line('upsert --file', upsert, create);
  line('create --file -', createStdin);
  line('upsert --file -', upsertStdin, createStdin);
} finally {
  await rm(work, { recursive: true, force: true });
}
