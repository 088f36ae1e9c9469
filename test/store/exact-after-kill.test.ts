/**
 * Numbers a double cannot hold, written through the real server and read back after a
 * kill -9: the restart replays them from the journal, whose lines are checked by
 * their checksum and stepped through without parsing (journal-frame.ts), the records
 * left in the journal file. Each must come back with the digits it was sent with
 * (docs/exact-numbers.md).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lineKind, readFramedLine } from '../../src/store/journal-frame.js';
import { startLocalServer, type LocalServer } from '../support/local-server.js';

const DET = '/api/v1/asset-transaction-type-determinations';
const SENT = [
  '"amount":12345678901234567.89',
  '"big":123456789012345678901234567890',
  '"long":9007199254740993',
  '"half":-0.5',
  '"note":"tab\\there \\u0000 é ✓ 😀 \\ud800"',
];

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.stop('SIGKILL');
  server = undefined;
});

describe('exact numbers through a kill -9 of the server', () => {
  it('read back with the digits they were sent with, by id and in a page', async () => {
    server = await startLocalServer({ seed: false });
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await server.http('POST', DET, { body: `{"name":"exact ${i}","transactionType":"LEASE",${SENT.join(',')}}` });
      expect(created.status, created.text).toBe(200);
      ids.push((created.body as { data: { id: number } }).data.id);
    }
    const lines = (await readFile(join(server.dataDir, 'journal.ndjson'), 'utf8')).split('\n').filter((line) => line.includes('"exact '));
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      const bytes = Buffer.from(line);
      expect(lineKind(bytes, 0, bytes.length), line).toBe('framed');
      expect(readFramedLine(bytes, 0, bytes.length, 0), line).toBeDefined();
    }
    await server.restart('SIGKILL');
    for (const id of ids) {
      const got = await server.http('GET', `${DET}/${id}`);
      expect(got.status).toBe(200);
      for (const member of SENT) expect(got.text).toContain(member);
    }
    const page = await server.http('GET', `${DET}?size=10`);
    expect(page.text.split('"amount":12345678901234567.89').length - 1).toBe(3);
    expect(page.text.split('"big":123456789012345678901234567890').length - 1).toBe(3);
  }, 60_000);
});
