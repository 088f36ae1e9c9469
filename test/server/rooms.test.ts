/**
 * The server and the store keep to their rooms: they import nothing of the CLI
 * side (src/cli, commands/, the CLI's config, its errors with their exit codes,
 * the HTTP client, the bulk runner, input/output, plans and runs). What they share
 * with the CLI is the contract (src/contract). Every import specifier of every
 * module under src/server and src/store is read (static, dynamic and type-only).
 */
import { describe, expect, it } from 'vitest';
import { importGraph } from '../support/import-graph.js';

/** What the server and the store may not reach: the CLI side of the repository. */
const CLI_SIDE = ['src/cli/', 'commands/', 'src/config/', 'src/errors.ts', 'src/client/', 'src/bulk/', 'src/io/', 'src/plan/', 'src/runs/'];

/** `file → import` for each import of a module in `graph` that lands on the CLI side. */
function crossings(graph: ReadonlyMap<string, readonly string[]>): string[] {
  return [...graph].flatMap(([file, imports]) =>
    imports.filter((target) => CLI_SIDE.some((side) => target.startsWith(side))).map((target) => `${file} → ${target}`),
  );
}

describe('rooms of the server and the store', () => {
  it('src/server and src/store import nothing from the CLI side', () => {
    const graph = importGraph(['src/server', 'src/store']);
    // The walk sees the rooms' real imports (so an empty answer is not an empty graph).
    expect(graph.get('src/server/pipeline/operation-route.ts')).toContain('src/store/types.ts');
    expect(graph.get('src/server/pipeline/operation-route.ts')).toContain('src/contract/operations.ts');
    expect(crossings(graph)).toEqual([]);
  });

  it('would name a forbidden import (the check can fail)', () => {
    const graph = new Map([
      ['src/server/a.ts', ['src/contract/operations.ts', 'src/cli/context.ts']],
      ['src/store/b.ts', ['src/config/index.ts', 'src/store/types.ts']],
    ]);
    expect(crossings(graph)).toEqual(['src/server/a.ts → src/cli/context.ts', 'src/store/b.ts → src/config/index.ts']);
  });
});
