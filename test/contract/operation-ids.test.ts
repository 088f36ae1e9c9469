/**
 * Operation ids are checked by the compiler, not found at run time: every
 * `@ts-expect-error` below is a place where an unknown id must not compile
 * (`npm test` runs `tsc --noEmit` over test/ first, and an expected error that
 * does not happen is itself a compile error). The run-time half checks that the
 * union, the table and the server's handler map hold the same ids.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { RecordVerbs } from '../../commands/record-verbs.js';
import type { PlaClient } from '../../src/client/types.js';
import { OPERATIONS, operation, type OperationId, type WritingOperationId } from '../../src/contract/operations.js';
import type { OperationHandler } from '../../src/server/context.js';
import { HANDLERS } from '../../src/server/handlers/index.js';

describe('operation ids', () => {
  it('an unknown id is a compile error wherever an operation is named', () => {
    expectTypeOf<'determinations.get'>().toExtend<OperationId>();
    expectTypeOf<'determinations.gett'>().not.toExtend<OperationId>();
    // A read is no writing operation: it has no past tense to confirm with.
    expectTypeOf<'determinations.get'>().not.toExtend<WritingOperationId>();
    expectTypeOf<'determinations.delete'>().toExtend<WritingOperationId>();

    // The contract's lookup.
    // @ts-expect-error -- no such operation
    expect(() => operation('determinations.nope')).toThrow(/unknown operation/);

    // The client.
    const misspeltCall = (client: PlaClient) =>
      // @ts-expect-error -- misspelt operation
      client.call('determinations.gett');
    expect(misspeltCall).toBeTypeOf('function');

    // A command declaration.
    // @ts-expect-error -- misspelt operation
    const verbs: RecordVerbs = { get: 'determinations.gett' };
    expect(verbs.get).toBe('determinations.gett');

    // The server's handler map must name every operation, and only those.
    const noop: OperationHandler = () => ({});
    // @ts-expect-error -- a map missing the other 51 operations
    const partial: Record<OperationId, OperationHandler> = { 'determinations.get': noop };
    expect(Object.keys(partial)).toHaveLength(1);
  });

  it('the handler map holds exactly the operations of the table', () => {
    expect(Object.keys(HANDLERS).sort()).toEqual(OPERATIONS.map((op) => op.id).sort());
  });

  it('every operation a row names (bulk, read, list) is in the table and fits its role', () => {
    for (const op of OPERATIONS) {
      if (op.bulk) expect(operation(op.bulk).body?.kind, `${op.id} → ${op.bulk}`).toMatch(/^(records|ids)$/);
      if (op.read) expect(operation(op.read).response, `${op.id} → ${op.read}`).toBe('single');
      if (op.list) expect(operation(op.list).paging, `${op.id} → ${op.list}`).toBeDefined();
      if (op.paging) expect(op.paging.defaultSize).toBe(op.resource === 'notifications' ? 10 : 100);
    }
  });
});
