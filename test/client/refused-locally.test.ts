/**
 * A connection refused by this machine is not retried (nothing listens there and
 * waiting starts no server), one refused elsewhere is, as any failure before
 * sending: the rule of src/client/retry-policy.ts the transport asks each attempt.
 */
import { describe, expect, it } from 'vitest';
import { isLoopbackOrigin, retryDelay } from '../../src/client/retry-policy.js';

const refused = { repeatable: true, sent: false, code: 'ECONNREFUSED', attempt: 1, retries: 3 };

describe('a connection refused on this machine', () => {
  it('is final; elsewhere it is retried', () => {
    expect(retryDelay({ ...refused, local: true })).toBeUndefined();
    expect(retryDelay({ ...refused, local: false })).toBeTypeOf('number');
    // Other failures on this machine keep their rules.
    expect(retryDelay({ ...refused, code: 'ECONNRESET', local: true })).toBeTypeOf('number');
  });

  it('this machine is localhost, 127.x and ::1', () => {
    for (const origin of ['http://localhost:4010', 'http://127.0.0.1:1', 'http://127.1.2.3', 'http://[::1]:8080', 'http://api.localhost'])
      expect(isLoopbackOrigin(origin), origin).toBe(true);
    for (const origin of ['http://10.0.0.1', 'https://pla.example.com', 'not a url', 'http://localhost.example.com'])
      expect(isLoopbackOrigin(origin), origin).toBe(false);
  });
});
