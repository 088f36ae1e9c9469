/**
 * How the shared test helpers run `pla` (`server.pla`, test/cli/support.ts's `pla`):
 * in this process by default, through `runPla` with an IO object over buffers
 * (fake-io.ts), so a run costs no process start; with `PLA_TEST_PROCESS=1`, as
 * the built CLI in a child process (`node bin/pla.js`), as a user runs it. Both
 * give the same result: the exit code and what each stream got, so every test
 * of behaviour can be run both ways.
 *
 * Tests of what only a process shows (signals and Ctrl-C, terminals, start-up,
 * closed pipes, memory peaks, NODE_EXTRA_CA_CERTS, the installed package) run it
 * with execa themselves, or with `runCliProcess`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { fakeIO } from './fake-io.js';

export const BIN = fileURLToPath(new URL('../../bin/pla.js', import.meta.url));

/** True unless PLA_TEST_PROCESS=1 asks for the built CLI in a child process. */
export const IN_PROCESS = process.env.PLA_TEST_PROCESS !== '1';

export interface CliRunOptions {
  /** The run's whole environment: nothing of the test's own process is added. */
  env: Record<string, string | undefined>;
  /** Text on stdin (a pipe, ended after it); undefined: stdin is empty (/dev/null for a process). */
  input?: string;
  /** The folder it runs in: files a run writes without being told where land here. */
  cwd?: string;
}

/** What a run gave: its exit code and everything each stream got (final newline kept). */
export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** The version the bundle is built with (esbuild defines `__PLA_VERSION__`), for the program built here: `pla --version` prints it. */
function defineVersion(): void {
  const holder = globalThis as { __PLA_VERSION__?: string };
  holder.__PLA_VERSION__ = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/** Runs `pla args…` in this process, through `runPla` and a fake IO object. */
export async function runCliInProcess(args: string[], options: CliRunOptions): Promise<CliResult> {
  defineVersion();
  const { runPla } = await import('../../src/cli/main.js');
  const { env } = options;
  const fake = fakeIO({
    ...(options.input !== undefined ? { input: options.input } : {}),
    noColor: Boolean(env.NO_COLOR),
    ...(env.PAGER !== undefined ? { pager: env.PAGER } : {}),
  });
  const exitCode = await runPla(['node', BIN, ...args], fake.io, { env, ...(options.cwd !== undefined ? { cwd: options.cwd } : {}) });
  return { exitCode, stdout: fake.stdout(), stderr: fake.stderr() };
}

/** Runs `pla args…` as the built CLI in a child process (stdin and stdout pipes). */
export async function runCliProcess(args: string[], options: CliRunOptions & { uid?: number; bin?: string }): Promise<CliResult> {
  const result = await execa('node', [options.bin ?? BIN, ...args], {
    env: options.env,
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
    ...(options.input !== undefined ? { input: options.input } : { stdin: 'ignore' as const }),
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    ...(options.uid !== undefined ? { uid: options.uid, gid: options.uid } : {}),
  });
  return { exitCode: result.exitCode ?? 1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** Variables Node reads only when a process starts: a run that sets other values than this process has needs a process of its own. */
const READ_AT_START = ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS'] as const;

/**
 * Runs `pla args…` in this process, or as a process with PLA_TEST_PROCESS=1 or
 * when its environment sets a variable only a starting process reads.
 */
export function runCli(args: string[], options: CliRunOptions): Promise<CliResult> {
  // Only a value the run sets counts: a machine's own NODE_EXTRA_CA_CERTS (Debian's bundle, say) left out of
  // a test's environment would otherwise send every run to a process.
  const needsProcess = READ_AT_START.some((name) => options.env[name] !== undefined && options.env[name] !== process.env[name]);
  return IN_PROCESS && !needsProcess ? runCliInProcess(args, options) : runCliProcess(args, options);
}

/** The text without its final newline, as execa gives it by default. */
export function withoutFinalNewline(text: string): string {
  return text.replace(/\r?\n$/, '');
}
