// The ceiling for bench/server.mjs: a bare node:http server answering each path with
// fixed bytes (a JSON object of path → body, read once from the file in argv[2]):
// the very bytes pla answers a page and a get with, and nothing else.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const bodies = new Map(Object.entries(JSON.parse(readFileSync(process.argv[2], 'utf8'))).map(([path, body]) => [path, Buffer.from(body)]));
const server = createServer((request, response) => {
  const body = bodies.get(request.url);
  if (!body) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
});
