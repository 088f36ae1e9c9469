// The README's quick start: start the local server on its JSON-file store
// (./pla-data, seeded with demo data on first start), run a first few `pla`
// commands against it, and stop the server cleanly.
//
// On first start the server creates an admin key, stores it in pla's config for
// environment `local` (masked everywhere), and points `local` at its URL, so the
// commands below need no set-up.
import { spawn, execFileSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const pla = fileURLToPath(new URL('../bin/pla.js', import.meta.url));
const server = spawn(process.execPath, [pla, 'server', 'start', '--port', '0', '--data', 'pla-data', '--env-name', 'local'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});

const url = await new Promise((resolve, reject) => {
  server.once('exit', (code) => reject(new Error(`pla server exited with code ${code}`)));
  createInterface({ input: server.stdout }).on('line', (line) => {
    const match = /listening on (\S+)/.exec(line);
    if (match) resolve(match[1]);
  });
});

// Each argument as a POSIX shell reads it back: the echoed command pastes as shown.
const quoted = (arg) => (/^[\w./:=,@%+-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`);

const run = (...args) => {
  process.stdout.write(`\n$ pla ${args.map(quoted).join(' ')}\n`);
  execFileSync(process.execPath, [pla, ...args], { stdio: 'inherit', env: { ...process.env, PLA_ENV: 'local' } });
};

try {
  process.stdout.write(`local server at ${url}\n`);
  run('determinations', 'list', '--size', '5', '-o', 'table');
  run('tasks', 'search', '--filter', '{"status":"PENDING"}', '-o', 'table');
  run('notifications', 'count', 'alice', '--unread', '-o', 'table');
  run('config', 'show', '-o', 'table');
} finally {
  server.kill('SIGTERM');
}
