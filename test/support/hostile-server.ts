/**
 * A service that misbehaves on purpose, for the client's bounds: it answers every
 * request with headers at once and then a body that never ends (as fast as the
 * socket drains), trickles a byte at a time, or declares a huge Content-Length.
 * A real HTTP server on port 0; counts the requests it received.
 */
import { createServer, type ServerResponse } from 'node:http';
import { listenLocal } from './listen.js';

export type HostileMode =
  /** 200 JSON whose array never closes, sent as fast as the client reads. */
  | 'endless'
  /** 200 JSON, then one space every `trickleMs`, forever. */
  | 'trickle'
  /** 200 announcing a 1 GB body, then sending it slowly. */
  | 'huge-length';

export interface HostileServer {
  url: string;
  /** Requests received so far. */
  readonly requests: number;
  close(): Promise<void>;
}

const RECORD_CHUNK = Buffer.from('{"id":1,"name":"a record that keeps coming"},'.repeat(1500));

function endless(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('[');
  const pump = () => {
    while (!res.destroyed && res.write(RECORD_CHUNK));
  };
  res.on('drain', pump);
  pump();
}

function trickle(res: ServerResponse, everyMs: number, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  res.write('[');
  const timer = setInterval(() => res.write(' '), everyMs);
  res.on('close', () => clearInterval(timer));
}

function hugeLength(res: ServerResponse, everyMs: number): void {
  trickle(res, everyMs, { 'content-length': String(1024 ** 3) });
}

/** Starts a server misbehaving in `mode`. */
export async function startHostileServer(mode: HostileMode, options: { trickleMs?: number } = {}): Promise<HostileServer> {
  let requests = 0;
  const everyMs = options.trickleMs ?? 1000;
  const server = createServer((req, res) => {
    requests += 1;
    req.resume();
    if (mode === 'endless') endless(res);
    else if (mode === 'trickle') trickle(res, everyMs);
    else hugeLength(res, everyMs);
  });
  const { url, close } = await listenLocal(server);
  return {
    url,
    get requests() {
      return requests;
    },
    close,
  };
}
