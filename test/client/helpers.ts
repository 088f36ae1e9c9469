/** Shared set-up for the client tests: a fake server per test file and a client pointed at it. */
import { afterAll, beforeAll } from 'vitest';
import { createClient } from '../../src/client/index.js';
import type { ClientOptions, PlaClient } from '../../src/client/index.js';
import { startFakeServer, type FakeServer } from '../support/fake-server.js';

export const KEY = 'test-secret-key-abcd';

/** Starts one fake server for the file; `client()` makes clients for it that are closed afterwards. */
export function useFakeServer(): { server: () => FakeServer; client: (options?: Partial<ClientOptions>) => PlaClient } {
  let server: FakeServer | undefined;
  const clients: PlaClient[] = [];
  beforeAll(async () => {
    server = await startFakeServer();
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await server?.close();
  });
  const current = () => {
    if (!server) throw new Error('fake server not started');
    return server;
  };
  return {
    server: current,
    client(options = {}) {
      const made = createClient({ baseUrl: current().url, apiKey: KEY, retries: 0, ...options });
      clients.push(made);
      return made;
    },
  };
}

/** The rejection of a promise, failing the test when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error('expected a rejection');
}
