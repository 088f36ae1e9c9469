// Leaves V8 code caches beside a freshly built bundle (see bin/run-cli.js): runs
// the commands whose start-up matters once each, one after another, against a
// small local server, so each run's caches add to the previous one's. A command
// that fails here costs only its cache, never the build.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const runCli = fileURLToPath(new URL('../bin/run-cli.js', import.meta.url));
const KEY = 'warm-up-key-0000';

/** Answers every request with one record in the local server's envelope. */
function startServer() {
  const server = createServer((req, res) => {
    const body = JSON.stringify({ success: true, message: 'ok', data: { id: 1, name: 'warm-up', status: 'ACTIVE' } });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

function run(dist, finalDist, args, env) {
  const script = `require(${JSON.stringify(runCli)}).runCli(${JSON.stringify(dist)}, ['node', 'pla', ...process.argv.slice(1)], { writeCodeCache: ${JSON.stringify(finalDist)} })`;
  return new Promise((resolve) => {
    execFile(process.execPath, ['-e', script, ...args], { env, timeout: 30_000 }, (error, _stdout, stderr) => {
      if (error) process.stderr.write(`warm-code-cache: pla ${args.join(' ')} failed (its chunks stay uncached): ${stderr || error.message}\n`);
      resolve();
    });
  });
}

/** Runs the warm-up commands against the bundle in `dist`, which will be moved to `finalDist`. */
export async function warmCodeCache(dist, finalDist = dist) {
  let server;
  try {
    server = await startServer();
  } catch (error) {
    process.stderr.write(`warm-code-cache: no local server (${error.message}); the bundle stays uncached\n`);
    return;
  }
  const configDir = await mkdtemp(join(tmpdir(), 'pla-warm-up-'));
  try {
    const url = `http://127.0.0.1:${server.address().port}`;
    await writeFile(join(configDir, 'config.json'), JSON.stringify({ environments: { local: { baseUrl: url, apiKey: KEY } } }), { mode: 0o600 });
    const base = { PATH: process.env.PATH ?? '', HOME: configDir, PLA_CONFIG_DIR: configDir, NO_COLOR: '1' };
    const withVariables = { ...base, PLA_BASE_URL: url, PLA_API_KEY: KEY };
    await run(dist, finalDist, ['--help'], base);
    await run(dist, finalDist, ['determinations', 'get', '1', '2', '-o', 'table'], withVariables);
    await run(dist, finalDist, ['determinations', 'get', '1', '-o', 'json'], base);
    await run(dist, finalDist, ['determinations', 'get', '1', '-o', 'json'], withVariables);
  } finally {
    server.close();
    await rm(configDir, { recursive: true, force: true });
  }
}
