/**
 * The CLI's rooms keep to themselves: `commands/` declares each verb and names
 * its handler in `src/cli/handlers`, loaded only when the verb runs; handlers
 * never reach back into `commands/`; no module circle anywhere in src/ and
 * commands/; and the process's streams read in one place only
 * (src/cli/system-io.ts, plus main.ts for signals and the exit code).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, cycles, importGraph, sourceFiles } from '../support/import-graph.js';

describe('rooms of the CLI', () => {
  const graph = importGraph(['commands', 'src']);

  it('has no import circle among the modules of commands/ and src/', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('finds a circle when there is one (the check can fail)', () => {
    const circle = new Map([
      ['commands/a.ts', ['src/cli/b.ts']],
      ['src/cli/b.ts', ['src/cli/c.ts']],
      ['src/cli/c.ts', ['commands/a.ts']],
      ['src/cli/d.ts', ['commands/a.ts']],
    ]);
    expect(cycles(circle)).toEqual([['commands/a.ts', 'src/cli/b.ts', 'src/cli/c.ts']]);
  });

  it('commands/ loads handlers only when a verb runs, and handlers never import commands/', () => {
    // What commands/ takes from src/cli at start-up: only the wiring (runs, the program class).
    const eager = sourceFiles('commands').flatMap((file) =>
      [...readFileSync(join(ROOT, file), 'utf8').matchAll(/^import (?!type )[^;]*? from '(\.\.\/src\/cli\/[^']+)'/gm)].map((m) => `${file} → ${m[1]}`),
    );
    expect(eager.filter((edge) => !edge.endsWith('→ ../src/cli/invocation.js'))).toEqual([]);
    // …and handlers are named there, lazily, so the direction is real, not vacuous.
    expect(readFileSync(join(ROOT, 'commands/topics.ts'), 'utf8')).toContain("import('../src/cli/handlers/topics.js')");
    const backwards = [...graph].flatMap(([file, imports]) =>
      file.startsWith('src/cli/handlers/') ? imports.filter((i) => i.startsWith('commands/')).map((i) => `${file} → ${i}`) : [],
    );
    expect(backwards).toEqual([]);
    expect(graph.get('src/cli/program.ts')).toContain('commands/index.ts');
  });

  it('reads process.stdin/stdout/stderr and calls process.exit only in the one place', () => {
    // The process's entries: main.ts for the CLI, help-fast.ts for the help pages bin/pla.js answers without it.
    const allowed = new Set(['src/cli/system-io.ts', 'src/cli/main.ts', 'src/cli/help-fast.ts']);
    const rooms = ['commands', 'src/cli', 'src/io', 'src/bulk', 'src/client', 'src/config', 'src/contract', 'src/server'];
    const readers = rooms
      .flatMap(sourceFiles)
      .filter((file) => !allowed.has(file))
      .filter((file) => /process\.(stdin|stdout|stderr|exit)\b/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(readers).toEqual([]);
  });

  it('reads process.env and process.argv in the CLI only at its edge (main.ts, system-io.ts): handlers get them from their invocation', () => {
    // The process's entries: main.ts for the CLI, help-fast.ts for the help pages bin/pla.js answers without it.
    const allowed = new Set(['src/cli/system-io.ts', 'src/cli/main.ts', 'src/cli/help-fast.ts']);
    const readers = ['commands', 'src/cli']
      .flatMap(sourceFiles)
      .filter((file) => !allowed.has(file))
      .filter((file) => /process\.(env|argv)\b/.test(readFileSync(join(ROOT, file), 'utf8').replace(/^\s*(\/?\*|\/\/).*$/gm, '')));
    expect(readers).toEqual([]);
  });
});
