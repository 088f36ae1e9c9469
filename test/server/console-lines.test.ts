/**
 * The server's console lines show what a client chose (its path) without letting
 * it drive the terminal: control characters visibly in text, as JSON escapes in
 * JSON lines (the same JSON when read back).
 */
import { describe, expect, it } from 'vitest';
import { consoleLine, type RequestLogEntry } from '../../src/server/request-log.js';

const PATH = '/api/v1/asset-transaction-type-determinations/x\u001b]0;owned\u0007-\u009b2J-\u202e';
const ENTRY: RequestLogEntry = {
  at: Date.UTC(2026, 10, 24, 7),
  method: 'GET',
  path: PATH,
  status: 404,
  ms: 3,
  key: { name: 'ops\u001b[2K', last4: 'abcd' },
  idempotencyKey: undefined,
  replayed: false,
};

describe('console lines', () => {
  it('text: control characters shown in caret notation, bidirectional controls named', () => {
    expect(consoleLine(ENTRY, 'text')).toBe(
      '2026-11-24T07:00:00.000Z GET /api/v1/asset-transaction-type-determinations/x^[]0;owned^G-^[[2J-<U+202E> 404 3 ms  ops^[[2K (••••abcd)',
    );
  });

  it('json: C0 escaped by JSON, C1 and bidirectional controls as \\u escapes; the same data read back', () => {
    const line = consoleLine(ENTRY, 'json');
    // eslint-disable-next-line no-control-regex -- the characters this test is about
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(line).toContain('\\u009b2J-\\u202e');
    expect((JSON.parse(line) as { path: string }).path).toBe(PATH);
  });
});
