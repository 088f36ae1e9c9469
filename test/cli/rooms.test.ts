/**
 * The CLI's rooms keep to themselves: `commands/` declares and `src/cli`
 * implements, with imports pointing one way (src/cli → commands), no module
 * circle anywhere in src/ and commands/, and the process's streams read in one
 * place only (src/cli/system-io.ts, plus main.ts for signals and the exit code).
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

  it('commands/ imports nothing from src/cli (the registry points the other way)', () => {
    const backwards = [...graph].flatMap(([file, imports]) => (file.startsWith('commands/') ? imports.filter((i) => i.startsWith('src/cli/')).map((i) => `${file} → ${i}`) : []));
    expect(backwards).toEqual([]);
    // …while src/cli does build on commands/, so the direction is real, not vacuous.
    expect(graph.get('src/cli/program.ts')).toContain('commands/index.ts');
  });

  it('reads process.stdin/stdout/stderr and calls process.exit only in the one place', () => {
    const allowed = new Set(['src/cli/system-io.ts', 'src/cli/main.ts']);
    const rooms = ['commands', 'src/cli', 'src/io', 'src/bulk', 'src/client', 'src/config', 'src/contract', 'src/server'];
    const readers = rooms
      .flatMap(sourceFiles)
      .filter((file) => !allowed.has(file))
      .filter((file) => /process\.(stdin|stdout|stderr|exit)\b/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(readers).toEqual([]);
  });
});
