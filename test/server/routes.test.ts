/** The router and handler table are generated from the contract: every row is routed and handled. */
import { describe, expect, it } from 'vitest';
import { OPERATIONS, expandPath } from '../../src/contract/operations.js';
import type { PathParam } from '../../src/contract/types.js';
import { createRouter } from '../../src/server/routes.js';

const SAMPLE: Record<PathParam['type'], string> = {
  int64: '7',
  integer: '7',
  string: 'alice',
  'date-time': '2024-05-01T00:00:00Z',
  'int64-or-string': '7',
};

describe('routes from the contract', () => {
  const router = createRouter();

  it('routes each of the 52 operations to itself with its parameters under the contract names', () => {
    expect(OPERATIONS).toHaveLength(52);
    for (const op of OPERATIONS) {
      const params = Object.fromEntries(op.pathParams.map((p) => [p.name, SAMPLE[p.type]]));
      const match = router.match(op.method, expandPath(op, params));
      expect('target' in match && match.target.kind === 'operation' ? match.target.op.id : match, op.id).toBe(op.id);
      if ('params' in match) expect(match.params).toEqual(params);
    }
  });

  it('tells an unknown path from a wrong method', () => {
    expect(router.match('GET', '/api/nothing')).toEqual({ allowed: [] });
    expect(router.match('PATCH', '/api/topics/lease')).toEqual({ allowed: ['GET', 'HEAD'] });
  });
});
