// Child process of bench/server.mjs: one autocannon run, so the load generator does
// not share a process (or an event loop) with anything it measures. Options come in
// the BENCH_LOAD environment variable (they may hold an API key, which stays out of
// the process list); the result goes to stdout as one JSON line.
import autocannon from 'autocannon';

const options = JSON.parse(process.env.BENCH_LOAD ?? '{}');
const result = await autocannon({ ...options, headers: { 'content-type': 'application/json', ...options.headers } });
const ok = result.requests.total - result.non2xx;
process.stdout.write(
  `${JSON.stringify({
    perSecond: ok / result.duration,
    ok,
    non2xx: result.non2xx,
    errors: result.errors,
    p50: result.latency.p50,
    p99: result.latency.p99,
  })}\n`,
);
