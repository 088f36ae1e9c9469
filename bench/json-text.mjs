// What exact numbers cost (docs/exact-numbers.md): src/json/ (json-parse.ts, json-text.ts) against
// the built-ins it stands in for, measured in the same run, as ratios.
//   node bench/json-text.mjs [--records N] [--rounds N]
// - fast path: a page of ordinary records (no number a double would change), the
//   answer nearly every read gets: parseJson / JSON.parse and jsonText / JSON.stringify;
// - slow path: the same page whose ids are past 2^53 and amounts have 19 digits.
import { build } from 'esbuild';
import { ROOT, argValue } from './support.mjs';

const RECORDS = argValue('--records', 1000);
const ROUNDS = argValue('--rounds', 200);

// Both from one bundle: the exact numbers parseJson makes are the ones jsonText writes.
const entry = `export { parseJson } from '${ROOT}src/json/json-parse.ts'; export { jsonText } from '${ROOT}src/json/json-text.ts';`;
const bundled = await build({ stdin: { contents: entry, resolveDir: ROOT, loader: 'ts' }, bundle: true, write: false, format: 'esm', platform: 'node' });
const { parseJson, jsonText } = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`);

const record = (i, id, amount) =>
  `{"id":${id},"code":"ATD-${i}","status":"ACTIVE","amount":${amount},"inUse":false,"tags":["a","b"],"owner":{"name":"alice","region":"EU"},"createdAt":"2026-11-24T07:15:57.704Z","updatedAt":"2026-11-24T07:15:57.704Z"}`;
const page = (exact) =>
  `{"content":[${Array.from({ length: RECORDS }, (_, i) => record(i, exact ? `${9007199254740993n + BigInt(i)}` : i + 1, exact ? '12345678901234567.89' : '1234.5')).join(',')}],"page":{"size":${RECORDS},"number":0,"totalElements":${RECORDS},"totalPages":1}}`;

/** Median milliseconds of `fn` over ROUNDS runs (after a warm-up). */
function median(fn) {
  for (let i = 0; i < 20; i++) fn();
  const times = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    fn();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

const rows = [];
for (const exact of [false, true]) {
  const text = page(exact);
  const value = parseJson(text);
  const plainValue = JSON.parse(text);
  const parseRef = median(() => JSON.parse(text));
  const parse = median(() => parseJson(text));
  const writeRef = median(() => JSON.stringify(plainValue));
  const write = median(() => jsonText(value));
  const path = exact ? 'slow (ids past 2^53, 19-digit amounts)' : 'fast (ordinary numbers)';
  rows.push({
    path,
    'parseJson / JSON.parse': (parse / parseRef).toFixed(2),
    'jsonText / JSON.stringify': (write / writeRef).toFixed(2),
    'JSON.parse ms': parseRef.toFixed(2),
  });
}
console.log(`a page of ${RECORDS} records, median of ${ROUNDS} rounds; ratios against the built-in on the same text`);
console.table(rows);
