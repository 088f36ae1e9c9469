/** Help: every tree lists its verbs, every command shows an example, exit codes are documented. */
import { describe, expect, it } from 'vitest';
import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { TREES } from '../../commands/index.js';
import { EXIT_CODE_HELP } from '../../src/errors.js';
import { fakeIO } from '../support/fake-io.js';
import { pla, tempDir } from './support.js';

/** The built CLI's version constant, for building the program in this process. */
(globalThis as { __PLA_VERSION__?: string }).__PLA_VERSION__ = '0.0.0-test';
const { createProgram } = await import('../../src/cli/program.js');

function leaves(command: Command, path: string[] = []): Array<[string, Command]> {
  if (command.commands.length === 0) return [[path.join(' '), command]];
  return command.commands.flatMap((sub) => leaves(sub, [...path, sub.name()]));
}

function helpOf(command: Command): string {
  let text = '';
  command.configureOutput({ writeOut: (s) => (text += s) });
  command.outputHelp();
  return text;
}

describe('help', () => {
  it('lists every command tree, and each tree lists its verbs', async () => {
    const config = await tempDir();
    try {
      const [top, det, notif, tasks] = await Promise.all(
        [['--help'], ['det', '--help'], ['help', 'notifications'], ['tasks', '--help']].map((args) => pla(args, { configDir: config.path })),
      );
      for (const tree of ['determinations|det', 'settings|set', 'tasks', 'notifications|notif', 'images', 'topics', 'config', 'api', 'server', 'openapi']) {
        expect(top?.stdout).toContain(tree);
      }
      for (const verb of ['get', 'list', 'create', 'update', 'upsert', 'delete', 'meta', 'remove', 'decommission'])
        expect(det?.stdout).toMatch(new RegExp(`\\n  ${verb} `));
      for (const verb of ['list', 'count', 'read', 'create', 'delete', 'clear', 'work-order', 'email'])
        expect(notif?.stdout).toMatch(new RegExp(`\\n  ${verb} `));
      for (const verb of ['get', 'list', 'update', 'upsert', 'search', 'cancel', 'watch']) expect(tasks?.stdout).toMatch(new RegExp(`\\n  ${verb} `));
      expect(tasks?.stdout).not.toMatch(/\n {2}create /);
    } finally {
      await config.remove();
    }
  });

  it('gives every command a real example', () => {
    const program = createProgram(fakeIO().io);
    const missing = leaves(program)
      .filter(([path]) => !path.startsWith('server') && path !== 'help')
      .filter(([, command]) => !/Examples?:\n {2}pla /.test(helpOf(command)))
      .map(([path]) => path);
    expect(missing).toEqual([]);
  });

  it('builds only the tree the command line names, under the names it answers to', () => {
    for (const tree of TREES) {
      const built = tree.create();
      expect([built.name(), ...built.aliases()]).toEqual(tree.names);
      expect(tree.summary ?? built.description()).toBe(built.description());
    }
    const outlines = createProgram(fakeIO().io, ['node', 'pla', '--help']);
    expect(outlines.commands.find((c) => c.name() === 'determinations')?.commands).toEqual([]);
    const only = createProgram(fakeIO().io, ['node', 'pla', '-e', 'qa', '-o', 'json', 'det', 'get', '1']);
    expect(only.commands.map((c) => c.name())).toEqual(['determinations', 'openapi', 'help']);
    expect(createProgram(fakeIO().io, ['node', 'pla', 'nonsense']).commands).toHaveLength(TREES.length + 2);
  });

  it('documents the exit codes and prints the version', async () => {
    const config = await tempDir();
    try {
      const [codes, version] = await Promise.all([pla(['help', 'exit-codes'], { configDir: config.path }), pla(['--version'], { configDir: config.path })]);
      for (const [code, text] of EXIT_CODE_HELP) expect(codes.stdout).toContain(`${String(code).padStart(3)}  ${text}`);
      expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    } finally {
      await config.remove();
    }
  });
});
