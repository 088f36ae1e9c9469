/** Starting and stopping a test's own HTTP server on a free port of 127.0.0.1. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  url: string;
  /** Stops the server, ending its open connections (a body still being sent included). */
  close(): Promise<void>;
}

/** Listens on a free port; resolves once it does. */
export async function listenLocal(server: Server): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
