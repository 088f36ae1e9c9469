/**
 * Crash safety through the real server: concurrent HTTP creates (single and bulk),
 * kill -9 of `pla server start`, a restart on the same folder, and every record a 2xx
 * acknowledged is there; a bulk create is all there or not at all. Uses the built CLI.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../support/local-server.js';
import type { LocalServer } from '../support/local-server.js';
import { tempDir } from './temp-dirs.js';

const DETERMINATIONS = '/api/v1/asset-transaction-type-determinations';
const servers: LocalServer[] = [];

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop('SIGKILL').catch(() => {})));
});

interface Acks {
  ids: number[];
  batches: string[];
}

/** Keeps creating until `stop` says so; a request the kill cuts off is simply not acknowledged. */
async function createLane(server: LocalServer, lane: number, acks: Acks, stop: () => boolean): Promise<void> {
  for (let n = 0; !stop(); n++) {
    try {
      if (lane % 2 === 0) {
        const response = await server.http('POST', DETERMINATIONS, { body: { name: `lane ${lane} #${n}`, lane } });
        if (response.status >= 200 && response.status < 300) acks.ids.push((response.body as { data: { id: number } }).data.id);
      } else {
        const batch = `${lane}-${n}`;
        const records = Array.from({ length: 5 }, (_, part) => ({ name: `batch ${batch}/${part}`, batch }));
        const response = await server.http('POST', `${DETERMINATIONS}/bulk`, { body: records });
        if (response.status >= 200 && response.status < 300) acks.batches.push(batch);
      }
    } catch {
      return; // the server is gone
    }
  }
}

async function everyRecord(server: LocalServer): Promise<Array<{ id: number; batch?: string }>> {
  const records: Array<{ id: number; batch?: string }> = [];
  for (let page = 0; ; page++) {
    const response = await server.http('GET', `${DETERMINATIONS}?page=${page}&size=1000`);
    expect(response.status).toBe(200);
    const body = response.body as { content?: typeof records; data?: { content: typeof records } };
    const content = body.content ?? body.data?.content ?? [];
    records.push(...content);
    if (content.length < 1000) return records;
  }
}

describe('kill -9 of the local server under concurrent creates', () => {
  it('keeps every acknowledged create, and each bulk create whole', async () => {
    const dataDir = await tempDir();
    const configDir = await tempDir();
    const server = await startLocalServer({ seed: false, dataDir, configDir });
    servers.push(server);
    const acks: Acks = { ids: [], batches: [] };
    let killed = false;
    const lanes = Array.from({ length: 12 }, (_, lane) => createLane(server, lane, acks, () => killed));
    while (acks.ids.length < 150 || acks.batches.length < 50) await new Promise((resolve) => setTimeout(resolve, 20));
    await server.stop('SIGKILL');
    killed = true;
    await Promise.all(lanes);
    expect(server.exitCode).not.toBe(0);

    const restarted = await startLocalServer({ seed: false, dataDir, configDir });
    servers.push(restarted);
    const records = await everyRecord(restarted);
    const ids = new Set(records.map((record) => record.id));
    for (const id of acks.ids) expect(ids.has(id), `acknowledged id ${id}`).toBe(true);
    const batchSizes = new Map<string, number>();
    for (const record of records) if (record.batch) batchSizes.set(record.batch, (batchSizes.get(record.batch) ?? 0) + 1);
    for (const batch of acks.batches) expect(batchSizes.get(batch), `acknowledged batch ${batch}`).toBe(5);
    for (const [batch, size] of batchSizes) expect(size, `batch ${batch}`).toBe(5);
    // New ids carry on after everything recovered.
    const created = await restarted.http('POST', DETERMINATIONS, { body: { name: 'after restart' } });
    expect((created.body as { data: { id: number } }).data.id).toBeGreaterThan(Math.max(...ids));
    await restarted.stop();
  });
});

describe('kill -9 of the local server during admin resets', () => {
  it('never leaves the folder without its API keys', async () => {
    const dataDir = await tempDir();
    const configDir = await tempDir();
    const server = await startLocalServer({ dataDir, configDir });
    servers.push(server);
    const created = await server.http('POST', '/_admin/keys', { body: { name: 'survivor' } });
    const survivor = (created.body as { data: { secret: string } }).data.secret;
    let resets = 0;
    let killed = false;
    const resetLane = async () => {
      while (!killed) {
        try {
          if ((await server.http('POST', '/_admin/reset')).status === 200) resets++;
        } catch {
          return; // the server is gone
        }
      }
    };
    const lanes = [resetLane(), resetLane(), resetLane()];
    while (resets < 5) await new Promise((resolve) => setTimeout(resolve, 5));
    await server.stop('SIGKILL');
    killed = true;
    await Promise.all(lanes);

    const restarted = await startLocalServer({ dataDir, configDir });
    servers.push(restarted);
    expect(restarted.stderr()).not.toContain('New admin key');
    expect((await restarted.http('GET', '/api/topics/lease', { key: survivor })).status).toBe(200);
    expect((await restarted.http('GET', '/api/topics/lease')).status).toBe(200);
    await restarted.stop();
  });
});
