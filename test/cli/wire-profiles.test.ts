/**
 * `pla server start --wire PROFILE`: the local server answers in another plausible
 * form of the real service, and the built CLI gives the same results against
 * each: ids from `get -q` and `create -q`, a missing id exit 4, a refusal exit 5
 * with nothing changed, a bulk cancel item by item (exit 9, the refused task in
 * the rejects), and what the server holds afterwards.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WIRE_PROFILES, type WireProfileName } from '../../src/contract/wire-profile.js';
import { type HttpResult, type LocalServer, startLocalServer } from '../support/local-server.js';
import { tempDir } from './support.js';

const DET = '/api/v1/asset-transaction-type-determinations';
const TASKS = '/api/v1/batch/mass-inter-company-transfer/tasks';

/** The record a raw answer of `profile` holds (its envelope taken off by hand, not by pla). */
function heldRecord(profile: WireProfileName, answer: HttpResult): Record<string, unknown> | null {
  const { envelope } = WIRE_PROFILES[profile];
  const body = answer.body as Record<string, unknown>;
  // A refusal inside a 200 has no data key: nothing held.
  return ((envelope === 'none' ? body : body[envelope.key]) ?? null) as Record<string, unknown> | null;
}

describe.each(Object.keys(WIRE_PROFILES) as WireProfileName[])('--wire %s', (profile) => {
  let server: LocalServer;
  let dir: { path: string; remove: () => Promise<void> };

  beforeAll(async () => {
    server = await startLocalServer({ args: ['--wire', profile] });
    dir = await tempDir('pla-wire-');
  });
  afterAll(async () => {
    await server.stop();
    await dir.remove();
  });

  it('get -q and create -q print the ids; the created record is held; delete removes it', async () => {
    const got = await server.pla(['det', 'get', '1', '-q']);
    expect([got.exitCode, got.stdout]).toEqual([0, '1']);

    const created = await server.pla(['det', 'create', '--data', '{"code":"W-1","name":"wired"}', '-q']);
    expect(created.exitCode).toBe(0);
    expect(created.stdout).toMatch(/^\d+$/);
    const id = created.stdout;
    expect(heldRecord(profile, await server.http('GET', `${DET}/${id}`))).toMatchObject({ code: 'W-1' });

    const csv = await server.pla(['det', 'list', '--fields', 'id,code', '-o', 'csv', '--size', '2']);
    expect(csv.stdout.split('\n').slice(0, 3)).toEqual(['id,code', '1,ATD-ACQ', '2,ATD-RET']);

    const deleted = await server.pla(['det', 'delete', id, '--yes']);
    expect(deleted.exitCode).toBe(0);
    expect(deleted.stderr).toContain(`deleted determination ${id}`);
    const after = await server.http('GET', `${DET}/${id}`);
    expect(after.status === 404 || heldRecord(profile, after) === null).toBe(true);
  });

  it('a missing id is not found (exit 4), however the server says it', async () => {
    const result = await server.pla(['det', 'get', '999999', '-q']);
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toBe('');
  });

  it('a refused update is exit 5 and changes nothing', async () => {
    const result = await server.pla(['tasks', 'update', '4', '--data', '{"status":"PENDING"}', '-o', 'json']);
    expect(result.exitCode).toBe(5);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('COMPLETED');
    expect(heldRecord(profile, await server.http('GET', `${TASKS}/4`))).toMatchObject({ status: 'COMPLETED' });
  });

  it('a bulk cancel counts what was cancelled item by item', async () => {
    const rejects = join(dir.path, 'rejects.ndjson');
    const result = await server.pla(['tasks', 'cancel', '1', '4', '--yes', '--rejects', rejects]);
    expect(result.exitCode).toBe(9);
    expect(result.stderr).toMatch(/cancelled 1, failed 1/);
    const [rejected] = (await readFile(rejects, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rejected).toMatchObject({ id: 4 });
    expect(heldRecord(profile, await server.http('GET', `${TASKS}/1`))).toMatchObject({ status: 'CANCELLED' });
    expect(heldRecord(profile, await server.http('GET', `${TASKS}/4`))).toMatchObject({ status: 'COMPLETED' });
  });

  it('a bulk update with one refused record: the others updated, the refused one in the rejects and unchanged', async () => {
    const rejects = join(dir.path, 'update-rejects.ndjson');
    const records = [
      { id: 2, note: 'a' },
      { id: 5, status: 'PENDING', note: 'x' },
      { id: 3, note: 'b' },
    ];
    const result = await server.pla(['tasks', 'update', '--data', JSON.stringify(records), '--rejects', rejects, '-o', 'json']);
    expect(result.exitCode).toBe(9);
    expect(result.stderr).toMatch(/updated 2, failed 1/);
    expect((JSON.parse(result.stdout) as Array<{ id: number }>).map((task) => task.id)).toEqual([2, 3]);
    const [rejected] = (await readFile(rejects, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rejected).toMatchObject({ id: 5, status: 'PENDING' });
    expect(heldRecord(profile, await server.http('GET', `${TASKS}/2`))).toMatchObject({ note: 'a' });
    expect(heldRecord(profile, await server.http('GET', `${TASKS}/3`))).toMatchObject({ note: 'b' });
    const five = heldRecord(profile, await server.http('GET', `${TASKS}/5`));
    expect(five).toMatchObject({ status: 'FAILED' });
    expect(five).not.toHaveProperty('note');
  });
});

describe('the forms the server speaks', () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startLocalServer({ args: ['--wire', 'soft-fail'] });
  });
  afterAll(() => server.stop());

  it('soft-fail: a refusal is 200 {"success": false, "message"} without data, a missing record 200 {"data": null}, bulk results per item', async () => {
    const refused = await server.http('PUT', `${TASKS}/4`, { body: { status: 'PENDING' } });
    expect(refused.status).toBe(200);
    expect(refused.body).toEqual({ success: false, message: expect.stringContaining('COMPLETED') });
    const missing = await server.http('GET', `${DET}/999999`);
    expect([missing.status, (missing.body as { data: unknown }).data]).toEqual([200, null]);
    const bulk = await server.http('POST', `${TASKS}/cancel/bulk`, { body: [2, 5] });
    expect((bulk.body as { data: unknown }).data).toEqual([
      { id: 2, cancelled: true },
      { id: 5, cancelled: false, reason: expect.stringContaining('FAILED') },
    ]);
  });
});

describe('a profile file', () => {
  it('extends a named profile with fields of its own', async () => {
    const dir = await tempDir('pla-wire-file-');
    const file = join(dir.path, 'wire.json');
    await writeFile(file, JSON.stringify({ extends: 'code-msg', envelope: { key: 'body', code: true }, failure: 'status-error' }));
    const server = await startLocalServer({ args: ['--wire', file] });
    try {
      const raw = await server.http('GET', `${DET}/1`);
      expect(raw.body).toMatchObject({ code: 0, body: { id: 1 } });
      const got = await server.pla(['det', 'get', '1', '-q']);
      expect([got.exitCode, got.stdout]).toEqual([0, '1']);
      const raw409 = await server.http('PUT', `${TASKS}/4`, { body: { status: 'PENDING' } });
      expect([raw409.status, (raw409.body as { status: string }).status]).toEqual([200, 'ERROR']);
      const refused = await server.pla(['tasks', 'update', '4', '--data', '{"status":"PENDING"}']);
      expect(refused.exitCode).toBe(5);
      expect(refused.stderr).toContain('task 4 cannot go from COMPLETED to PENDING');
      // A missing id answers 200 {"code": 0, "body": null} (soft 404): not found.
      const missing = await server.pla(['det', 'get', '999999']);
      expect(missing.exitCode).toBe(4);
    } finally {
      await server.stop();
      await dir.remove();
    }
  });

  it('settings as text change a named profile: soft-fail with its data under result', async () => {
    const server = await startLocalServer({ args: ['--wire', 'soft-fail,envelope.key=result'] });
    try {
      expect((await server.http('GET', `${DET}/1`)).body).toMatchObject({ success: true, result: { id: 1 } });
      const got = await server.pla(['det', 'get', '1', '-q']);
      expect([got.exitCode, got.stdout]).toEqual([0, '1']);
    } finally {
      await server.stop();
    }
  });

  it('a profile that is neither a name nor a readable file stops the start with a clear error', async () => {
    const dir = await tempDir('pla-wire-bad-');
    const file = join(dir.path, 'wire.json');
    await writeFile(file, JSON.stringify({ envelope: { key: 'data' }, failure: 'quietly' }));
    try {
      await expect(startLocalServer({ args: ['--wire', 'nope'] })).rejects.toThrow(/--wire nope: no such profile/);
      await expect(startLocalServer({ args: ['--wire', file] })).rejects.toThrow(
        /failure=quietly: expected problem \| success-false \| status-error \| code-msg/,
      );
    } finally {
      await dir.remove();
    }
  });
});
