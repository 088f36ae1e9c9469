// Plan and apply benchmark (issue 10), the built CLI against the real local server
// holding N determinations (default 100,000):
//
//   npm run bench:plan        (or: node bench/plan.mjs [--records 100000] [--rounds 3])
//
// - `--plan` of an N-record file where 1 % differ, against exporting the N records
//   (`list --all -o ndjson`): target ≤ 2× the export.
// - `pla apply` of a saved plan that updates every record, against the same upsert
//   sent without a plan: target within 10 %. Each round plans file A (amount + k),
//   applies it (timed), then upserts file B (amount + k + 0.5) without a plan
//   (timed): both send N updates. Medians of the rounds.
// Everything runs in a temporary folder removed at the end; children are stopped.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, argValue, startLocalServer, stopChildren, timed } from './support.mjs';

const RECORDS = argValue('--records', 100_000);
const ROUNDS = argValue('--rounds', 3);
const TARGETS = { planOverExport: 2.0, applyOverUpsert: 1.1 };

/** Writes the records (ids 1…n, as a fresh --no-seed server numbers them) as ndjson; `amount(i)` varies them. */
async function writeSheet(path, n, { withIds, amount }) {
  const out = createWriteStream(path);
  for (let i = 0; i < n; i++) {
    const record = {
      ...(withIds ? { id: i + 1 } : {}),
      ref: `bench-${i}`,
      companyCode: `C${i % 97}`,
      transactionType: 'TRANSFER',
      amount: amount(i),
      active: i % 2 === 0,
    };
    if (!out.write(`${JSON.stringify(record)}\n`)) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (n) => n.toLocaleString('en-US');
function verdict(label, ratio, target, detail) {
  const pass = ratio <= target;
  console.log(`${label.padEnd(58)} ${ratio.toFixed(2).padStart(6)}×  target ≤ ${target.toFixed(2)}×  ${pass ? 'PASS' : 'MISS'}   (${detail})`);
  return pass;
}

const work = await mkdtemp(join(tmpdir(), 'pla-bench-plan-'));
try {
  const configDir = join(work, 'config');
  const env = { PLA_CONFIG_DIR: configDir };
  const base = (i) => (i % 1000) + 0.25;
  console.log(`plan bench: ${fmt(RECORDS)} determinations in the local server, ${ROUNDS} rounds`);
  await startLocalServer(join(work, 'data'), configDir);
  const seed = join(work, 'seed.ndjson');
  await writeSheet(seed, RECORDS, { withIds: false, amount: base });
  await timed('seed', 'node', [BIN, 'determinations', 'create', '--file', seed], env);

  // --plan of a file where 1 % differ, against the export; interleaved, medians.
  const sheet = join(work, 'one-percent.ndjson');
  await writeSheet(sheet, RECORDS, { withIds: true, amount: (i) => (i % 100 === 0 ? base(i) + 1 : base(i)) });
  const planFile = join(work, 'one-percent.plan.json');
  const exports = [];
  const plans = [];
  let planNote = '';
  for (let round = 0; round < ROUNDS; round++) {
    const exported = await timed('export', 'node', [BIN, 'determinations', 'list', '--all', '-o', 'ndjson', '--size', '1000'], env);
    if (exported.lines !== RECORDS) throw new Error(`export gave ${exported.lines} records, expected ${RECORDS}`);
    exports.push(exported.seconds);
    const plan = await timed('plan', 'node', [BIN, 'determinations', 'upsert', '--file', sheet, '--plan-out', planFile, '-o', 'table'], env);
    planNote = /Plan: .*\./.exec(plan.stderr)?.[0] ?? '';
    plans.push(plan.seconds);
  }
  if (!planNote.includes(`${fmt(RECORDS / 100)} to update`)) throw new Error(`unexpected plan: ${planNote}`);
  const onePercentApply = await timed('apply 1 %', 'node', [BIN, 'apply', planFile], env);

  // apply of a plan updating every record, against the same upsert without a plan.
  const applies = [];
  const upserts = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const a = join(work, `all-${round}.ndjson`);
    const b = join(work, `all-${round}b.ndjson`);
    const full = join(work, `all-${round}.plan.json`);
    await writeSheet(a, RECORDS, { withIds: true, amount: (i) => base(i) + round });
    await writeSheet(b, RECORDS, { withIds: true, amount: (i) => base(i) + round + 0.5 });
    await timed('plan all', 'node', [BIN, 'determinations', 'upsert', '--file', a, '--plan-out', full, '-o', 'json'], env);
    applies.push((await timed('apply', 'node', [BIN, 'apply', full], env)).seconds);
    upserts.push((await timed('upsert', 'node', [BIN, 'determinations', 'upsert', '--file', b], env)).seconds);
  }

  const [exportS, planS, applyS, upsertS] = [median(exports), median(plans), median(applies), median(upserts)];
  console.log('');
  const results = [
    verdict(
      `--plan of ${fmt(RECORDS)} records, 1 % differ / export`,
      planS / exportS,
      TARGETS.planOverExport,
      `${planS.toFixed(2)} s vs ${exportS.toFixed(2)} s; ${planNote}`,
    ),
    verdict(
      `apply of a saved plan (${fmt(RECORDS)} updates) / same upsert`,
      applyS / upsertS,
      TARGETS.applyOverUpsert,
      `${applyS.toFixed(2)} s vs ${upsertS.toFixed(2)} s`,
    ),
  ];
  console.log(`\n(apply of the 1 % plan: ${onePercentApply.seconds.toFixed(2)} s for ${fmt(RECORDS / 100)} updates, conflicts checked before each batch)`);
  if (results.includes(false)) process.exitCode = 1;
} finally {
  await stopChildren();
  await rm(work, { recursive: true, force: true });
}
