/**
 * A service with one large listing, generated as it is sent: `pages` pages of
 * `perPage` records (or the `size` asked), each record padded to about
 * `recordBytes` bytes of JSON, in the local server's envelope with shape-B pages.
 * Each page is written in pieces as the socket drains, so a client reads it as it
 * would read a large page from the service. `refuseRecord` makes the page holding
 * that record put its verdict after its records: `"success":false` and the errors
 * follow `content` (a page of one record read before it, as pla's probe of the page
 * base does, is answered).
 * For the client's streamed pages (test/cli/streamed-pages.test.ts, bench/pages.mjs).
 */
import { createServer, type ServerResponse } from 'node:http';
import { listenLocal } from './listen.js';

export interface PagedServiceOptions {
  pages: number;
  perPage: number;
  /** About how many bytes of JSON each record takes (its `note` makes up the rest). */
  recordBytes?: number;
  /** A record (ids count from 1) whose page's envelope says `success: false` after its records. */
  refuseRecord?: number;
  /**
   * Pages without an envelope, shape A (`flat`: paging fields beside `content`) or
   * shape B (`nested`: `page{}`); the refused page's own fields `before` its
   * `content` and `after` its paging fields (JSON members, e.g. `"success":false`).
   */
  bare?: { shape: 'flat' | 'nested'; before?: string; after?: string };
}

export interface PagedService {
  url: string;
  /** Listing requests received so far. */
  readonly requests: number;
  close(): Promise<void>;
}

/** The listing's path (determinations.list). */
export const PAGED_PATH = '/api/v1/asset-transaction-type-determinations';

function record(id: number, noteLength: number): string {
  return JSON.stringify({ id, code: `D-${id}`, name: `determination ${id}`, status: 'ACTIVE', note: 'n'.repeat(noteLength) });
}

/** Writes `pieces()` one after the other, waiting for the socket to drain, then ends. */
function send(res: ServerResponse, pieces: Iterator<string>): void {
  const pump = () => {
    for (let next = pieces.next(); !next.done; next = pieces.next()) {
      if (res.destroyed) return;
      if (!res.write(next.value)) {
        res.once('drain', pump);
        return;
      }
    }
    res.end();
  };
  pump();
}

/** Starts the service on a free port. */
export async function startPagedService(options: PagedServiceOptions): Promise<PagedService> {
  const noteLength = Math.max(0, (options.recordBytes ?? 120) - record(0, 0).length);
  const total = options.pages * options.perPage;
  let requests = 0;
  const server = createServer((req, res) => {
    req.resume();
    const url = new URL(req.url ?? '/', 'http://paged');
    if (url.pathname !== PAGED_PATH) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"status":404,"title":"Not Found"}');
      return;
    }
    requests += 1;
    const number = Number(url.searchParams.get('page') ?? 0);
    const size = Number(url.searchParams.get('size') ?? options.perPage);
    const first = number * size;
    const count = Math.max(0, Math.min(size, total - first));
    const refused = options.refuseRecord !== undefined && first < options.refuseRecord && options.refuseRecord <= first + count;
    function* barePieces(bare: NonNullable<PagedServiceOptions['bare']>): Generator<string> {
      yield `{${refused && bare.before ? `${bare.before},` : ''}"content":[`;
      for (let i = 0; i < count; i += 1) yield `${i === 0 ? '' : ','}${record(first + i + 1, noteLength)}`;
      const paging = `"size":${size},"number":${number},"totalElements":${total},"totalPages":${Math.ceil(total / size)}`;
      yield bare.shape === 'flat' ? `],${paging},"last":${first + count >= total}` : `],"page":{${paging}}`;
      yield refused && bare.after ? `,${bare.after}}` : '}';
    }
    function* pieces(): Generator<string> {
      yield refused ? '{"data":{"content":[' : '{"success":true,"message":"ok","data":{"content":[';
      for (let i = 0; i < count; i += 1) yield `${i === 0 ? '' : ','}${record(first + i + 1, noteLength)}`;
      yield `],"page":{"size":${size},"number":${number},"totalElements":${total},"totalPages":${Math.ceil(total / size)}}}`;
      yield refused ? ',"success":false,"message":"page refused","errors":[{"path":"page","message":"refused after its records"}]}' : '}';
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    send(res, options.bare ? barePieces(options.bare) : pieces());
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
