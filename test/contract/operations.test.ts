import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { OPERATIONS, expandPath, operation } from '../../src/contract/operations.js';

/**
 * The method + path pairs of spec sections 4.1–4.4, read from the spec's own
 * tables (docs/spec/service-interface.md, the copy kept in the repository), so the table cannot drift from it.
 */
function specOperations(): string[] {
  const spec = readFileSync(new URL('../../docs/spec/service-interface.md', import.meta.url), 'utf8');
  const pairs: string[] = [];
  let prefix = '';
  for (const line of spec.split('\n')) {
    const heading = /^### 4\.\d .*\(prefix (\S+)\)/.exec(line);
    if (heading) prefix = heading[1] ?? '';
    if (/^### 4\.4/.test(line)) prefix = '';
    if (/^### 4\.5/.test(line)) break;
    const cells = line.split('|').map((c) => c.trim());
    const method = cells.find((c) => /^(GET|POST|PUT|DELETE)$/.test(c));
    if (!method) continue;
    const pathCell = cells[cells.indexOf(method) + 1] ?? '';
    const path = pathCell === '(none)' ? prefix : pathCell.startsWith('/api') ? pathCell : prefix + pathCell;
    pairs.push(`${method} ${path}`);
  }
  return pairs;
}

describe('contract', () => {
  it('declares exactly the 52 operations of the spec, each method and path as written', () => {
    const fromSpec = specOperations();
    expect(fromSpec).toHaveLength(52);
    const declared = OPERATIONS.map((op) => `${op.method} ${op.path}`);
    expect(declared).toHaveLength(52);
    expect([...declared].sort()).toEqual([...fromSpec].sort());
  });

  it('has unique ids and method+path pairs', () => {
    expect(new Set(OPERATIONS.map((op) => op.id)).size).toBe(OPERATIONS.length);
    expect(new Set(OPERATIONS.map((op) => `${op.method} ${op.path}`)).size).toBe(OPERATIONS.length);
  });

  it('names every path parameter of each template', () => {
    for (const op of OPERATIONS) {
      const inPath = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(
        op.pathParams.map((p) => p.name),
        op.id,
      ).toEqual(inPath);
    }
  });

  it('uses the success statuses of the spec', () => {
    const created = OPERATIONS.filter((op) => op.status === 201)
      .map((op) => op.id)
      .sort();
    expect(created).toEqual(['email-notifications.create', 'images.upload', 'notifications.create']);
    const noContent = OPERATIONS.filter((op) => op.status === 204)
      .map((op) => op.id)
      .sort();
    expect(noContent).toEqual(['email-notifications.delete', 'images.delete']);
  });

  it('expands and encodes path parameters', () => {
    expect(expandPath(operation('notifications.list'), { userName: 'a b/c' })).toBe('/api/notifications/a%20b%2Fc');
    expect(() => expandPath(operation('determinations.get'))).toThrow(/missing path parameter id/);
  });
});
