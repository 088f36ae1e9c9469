/**
 * Handlers driven in-process through `runPla` with a fake IO object (buffers and
 * chosen terminal flags) against a real local server: what the IO object says
 * about the terminal decides the output format, colour, prompts and stdin, with
 * no process streams involved.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createIOStreams } from '../../src/io/streams.js';
import { fakeIO, type FakeIOOptions } from '../support/fake-io.js';
import { type LocalServer, startLocalServer } from '../support/local-server.js';

/** The bundled CLI's version constant, for building the program in this process. */
(globalThis as { __PLA_VERSION__?: string }).__PLA_VERSION__ = '0.0.0-test';
const { runPla } = await import('../../src/cli/main.js');

let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer({ seed: false });
  // Commands that resolve the environment's name read the server's config folder.
  vi.stubEnv('PLA_CONFIG_DIR', server.configDir);
}, 60_000);

afterAll(async () => {
  vi.unstubAllEnvs();
  await server?.stop();
});

/** Runs `pla args…` in this process against the local server; returns the code and what each stream got. */
async function run(args: string[], options: FakeIOOptions = {}) {
  const fake = fakeIO(options);
  const code = await runPla(['node', 'pla', '--base-url', server.url, '--api-key', server.adminKey, ...args], fake.io);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

describe('handlers in-process with a fake IO object', () => {
  it('prints json when stdout is not a terminal, a table when it is, colour only when allowed', async () => {
    const created = await run(['det', 'create', '--data', '{"name": "in-process", "inUse": false}']);
    expect(created.code, created.stderr).toBe(0);
    const { id } = JSON.parse(created.stdout) as { id: number };

    const piped = await run(['det', 'get', String(id)]);
    expect(JSON.parse(piped.stdout)).toMatchObject({ id, name: 'in-process' });

    const terminal = await run(['det', 'get', String(id)], { stdoutIsTTY: true, noColor: true });
    expect(terminal.stdout).toMatch(/│ name\s+│ in-process\s+│/);
    expect(terminal.stdout).not.toContain('\x1b[');

    const coloured = await run(['det', 'get', String(id)], { stdoutIsTTY: true });
    expect(coloured.stdout).toContain('\x1b[');
  });

  it('refuses a destructive command when it cannot prompt, and asks on stderr when it can', async () => {
    const { stdout } = await run(['det', 'create', '--data', '{"name": "to delete"}']);
    const { id } = JSON.parse(stdout) as { id: number };

    const refused = await run(['det', 'delete', String(id)], { input: 'y\n' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('stdin is not a terminal');
    expect((await run(['det', 'get', String(id)])).code).toBe(0);

    const asked = await run(['det', 'delete', String(id)], { input: 'y\n', stdinIsTTY: true, stderrIsTTY: true });
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stderr).toContain(`Delete 1 determination on local? [y/N]`);
    expect(asked.stdout).toBe('');
    expect((await run(['det', 'get', String(id)])).code).toBe(4);
  });

  it('reads --file - and --ids-file - from the IO object’s stdin', async () => {
    const input = '{"name": "from stdin 1"}\n{"name": "from stdin 2"}\n';
    const created = await run(['det', 'create', '--file', '-', '-q'], { input });
    expect(created.code, created.stderr).toBe(0);
    const ids = created.stdout.trim().split('\n');
    expect(ids).toHaveLength(2);

    const shown = await run(['det', 'get', '--ids-file', '-', '-o', 'ndjson'], { input: ids.join('\n') });
    expect(
      shown.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { name: string }).name),
    ).toEqual(['from stdin 1', 'from stdin 2']);
  });

  it('a get that reads no input never touches stdin (the process builds its stream on first touch)', async () => {
    const { stdout } = await run(['det', 'create', '--data', '{"name": "stdin untouched"}']);
    const { id } = JSON.parse(stdout) as { id: number };
    const fake = fakeIO();
    let touched = false;
    const io = createIOStreams({
      get stdin() {
        touched = true;
        return fake.io.stdin;
      },
      stdout: fake.io.stdout,
      stderr: fake.io.stderr,
    });
    const code = await runPla(['node', 'pla', '--base-url', server.url, '--api-key', server.adminKey, 'det', 'get', String(id), '-o', 'json'], io);
    expect(code, fake.stderr()).toBe(0);
    expect(JSON.parse(fake.stdout())).toMatchObject({ id, name: 'stdin untouched' });
    expect(touched).toBe(false);
  });
});
