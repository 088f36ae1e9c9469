/**
 * Shell completion: the script `pla completion bash` prints, sourced in a real bash
 * that calls the completion function the script registered, with `pla` on PATH as
 * the built CLI. Expected candidates come from the commander program itself.
 */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProgram } from '../../src/cli/program.js';
import { fakeIO } from '../support/fake-io.js';
import { BIN, pla, tempDir } from './support.js';

// Set by the build in dist/; the program built here for the expected names needs it too.
(globalThis as { __PLA_VERSION__?: string }).__PLA_VERSION__ = '0.0.0-test';

let dir: Awaited<ReturnType<typeof tempDir>>;
let env: Record<string, string>;

beforeAll(async () => {
  dir = await tempDir('pla-completion-');
  const bin = join(dir.path, 'bin');
  await mkdir(bin);
  await writeFile(join(bin, 'pla'), `#!/bin/sh\nexec node ${JSON.stringify(BIN)} "$@"\n`);
  await chmod(join(bin, 'pla'), 0o755);
  const configDir = join(dir.path, 'config');
  env = { PATH: `${bin}:${process.env.PATH ?? ''}`, PLA_CONFIG_DIR: configDir, HOME: dir.path, NO_COLOR: '1' };
  await pla(['config', 'set-url', 'https://staging.example.com', '--env', 'staging'], { configDir });
  await mkdir(join(dir.path, 'work'));
  await writeFile(join(dir.path, 'work', 'records.csv'), 'id\n1\n');
  await writeFile(join(dir.path, 'work', 'rejects.ndjson'), '');
});

afterAll(async () => {
  await dir.remove();
});

/** Completes `line` (the cursor at its end) in bash with the sourced script; returns COMPREPLY. */
async function complete(line: string): Promise<string[]> {
  const script = `
source <(pla completion bash)
fn=$(complete -p pla | sed -E 's/.*-F ([^ ]+).*/\\1/')
COMP_LINE=$1
COMP_POINT=\${#COMP_LINE}
read -ra COMP_WORDS <<< "$COMP_LINE"
[[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 ))
"$fn" pla "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\\n' "\${COMPREPLY[@]}"
`;
  const result = await execa('bash', ['-c', script, 'complete-test', line], { env, extendEnv: false, cwd: join(dir.path, 'work') });
  return String(result.stdout).split('\n').filter(Boolean).sort();
}

/** Names of the subcommands of `path` in the real program. */
function subcommands(...path: string[]): string[] {
  let command = createProgram(fakeIO().io);
  for (const name of path) command = command.commands.find((c) => c.name() === name || c.aliases().includes(name)) ?? command;
  return command.commands.map((c) => c.name());
}

describe('bash completion', () => {
  it('completes subcommands: pla det de', async () => {
    const expected = subcommands('determinations')
      .filter((n) => n.startsWith('de'))
      .sort();
    expect(expected).toContain('decommission');
    expect(await complete('pla det de')).toEqual(expected);
    expect(await complete('pla con')).toEqual(['config']);
  });

  it('completes environment names after -e, and for config use', async () => {
    expect(await complete('pla -e ')).toEqual(['development', 'local', 'production', 'qa', 'staging']);
    expect(await complete('pla --env st')).toEqual(['staging']);
    expect(await complete('pla config use p')).toEqual(['production']);
  });

  it.each([
    ['a list', '{"environments":["x","y"]}'],
    ['a string', '{"environments":"abc"}'],
    ['names -e refuses', '{"environments":{"a\\nb":{},"__proto__":{},"Upper":{},"ok-1":{}}}'],
  ])('offers after -e only the names -e takes when the config holds environments as %s', async (_, config) => {
    const damaged = join(dir.path, 'damaged-config');
    await mkdir(damaged, { recursive: true });
    await writeFile(join(damaged, 'config.json'), config);
    const result = await execa('node', [BIN, '__complete', '-e', ''], { env: { PATH: process.env.PATH ?? '', PLA_CONFIG_DIR: damaged }, extendEnv: false });
    const names = String(result.stdout).split('\n').sort();
    expect(names).toEqual(['development', 'local', ...(config.includes('ok-1') ? ['ok-1'] : []), 'production', 'qa']);
  });

  it('completes flags, the choices of enum flags, and file paths for --file', async () => {
    expect(await complete('pla det list --so')).toEqual(['--sort']);
    expect(await complete('pla det list -o ')).toEqual(['csv', 'json', 'ndjson', 'table', 'xlsx']);
    expect(await complete('pla det upsert --file rec')).toEqual(['records.csv']);
    expect(await complete('pla det upsert --file records.csv --rejects re')).toEqual(['records.csv', 'rejects.ndjson']);
    expect(await complete('pla completion ')).toEqual(['bash', 'fish', 'zsh']);
  });

  it('completes plan files after pla apply, and the kept run ids after runs show|undo', async () => {
    await writeFile(join(dir.path, 'work', 'cleanup.plan.json'), '{}');
    expect(await complete('pla apply cle')).toEqual(['cleanup.plan.json']);
    const runs = join(env.PLA_CONFIG_DIR as string, 'runs');
    await mkdir(runs, { recursive: true });
    await Promise.all(['20261124T070000-aaaa', '20261124T080000-bbbb'].map((id) => writeFile(join(runs, `${id}.ndjson`), '')));
    expect(await complete('pla runs show ')).toEqual(['20261124T070000-aaaa', '20261124T080000-bbbb', 'last']);
    expect(await complete('pla runs undo 20261124T08')).toEqual(['20261124T080000-bbbb']);
  });
});

describe('completion scripts', () => {
  it('prints a script for each shell, and refuses another', async () => {
    const config = await tempDir();
    try {
      const runs = await Promise.all(['bash', 'zsh', 'fish', 'tcsh'].map((shell) => pla(['completion', shell], { configDir: config.path })));
      expect(runs.map((r) => r.exitCode)).toEqual([0, 0, 0, 2]);
      expect(runs[0]?.stdout).toContain('complete -F _pla_complete pla');
      expect(runs[1]?.stdout).toMatch(/^#compdef pla/);
      expect(runs[2]?.stdout).toContain("complete -c pla -f -a '(__pla_complete)'");
    } finally {
      await config.remove();
    }
  });
});
