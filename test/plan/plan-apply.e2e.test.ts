/**
 * Plans, apply, receipts and undo end to end: the built CLI against the real local
 * server. Exports are compared without `updatedAt`: the service stamps every write
 * and no operation can set the stamp back, so an undone record differs only there.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';
import { tempDir } from '../bulk/helpers.js';
import { withDigest } from '../../src/plan/plan-digest.js';
import type { Plan } from '../../src/plan/types.js';

type Row = Record<string, unknown>;

let server: LocalServer;
let temp: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  server = await startLocalServer({ seed: false });
  temp = await tempDir();
});
afterAll(async () => {
  await server?.stop();
  await temp?.cleanup();
});

async function pla(args: string[]) {
  return server.pla(args);
}

async function exportAll(resource = 'determinations'): Promise<Row[]> {
  const result = await pla([resource, 'list', '--all', '--size', '1000', '-o', 'ndjson']);
  expect(result.exitCode, String(result.stderr)).toBe(0);
  return String(result.stdout)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Row);
}

/** An export as it can be compared after an undo: without the stamp only the service sets. */
function withoutStamps(rows: Row[]): Row[] {
  return rows.map(({ updatedAt: _stamp, ...rest }) => rest);
}

async function ndjson(name: string, rows: Row[]): Promise<string> {
  const path = temp.path(name);
  await writeFile(path, rows.map((row) => JSON.stringify(row)).join('\n'));
  return path;
}

interface ReceiptJson {
  run: string;
  env: string;
  command: string;
  keyFingerprint: string;
  records: Array<{ action: string; id?: number; before?: Row; after?: Row }>;
  end: { exitCode: number; counts: Record<string, number> } | null;
}

/** The last run's receipt on `env` (runs … last follows the chosen environment). */
async function lastReceipt(env?: string): Promise<ReceiptJson> {
  const shown = await pla([...(env ? ['-e', env] : []), 'runs', 'show', 'last', '-o', 'json']);
  expect(shown.exitCode, String(shown.stderr)).toBe(0);
  return JSON.parse(String(shown.stdout)) as ReceiptJson;
}

describe('plan → review → apply → receipt → undo', () => {
  it('leaves the data as it was before (a full export before equals one after the undo)', async () => {
    const seed = await ndjson(
      'seed.ndjson',
      Array.from({ length: 300 }, (_, i) => ({ ref: `e2e-${i}`, amount: i, tags: { group: i % 3 } })),
    );
    expect((await pla(['determinations', 'create', '--file', seed])).exitCode).toBe(0);
    const before = await exportAll();
    expect(before).toHaveLength(300);

    // 20 records change (a field each), 5 nested values change, 10 are new, the rest are sent unchanged.
    const sheet = before.map((row, i) => {
      const { createdAt: _c, updatedAt: _u, status: _s, ...fields } = row;
      if (i < 20) return { ...fields, amount: Number(fields.amount) + 1000 };
      if (i < 25) return { ...fields, tags: { group: 'moved' } };
      return fields;
    });
    const file = await ndjson('sheet.ndjson', [...sheet, ...Array.from({ length: 10 }, (_, i) => ({ ref: `new-${i}`, amount: -i }))]);
    const planFile = temp.path('plan.json');

    const review = await pla(['determinations', 'upsert', '--file', file, '--plan-out', planFile, '-o', 'table']);
    expect(review.exitCode, String(review.stderr)).toBe(0);
    expect(review.stdout).toContain(`~ update ${String(before[0]?.id)}`);
    expect(review.stdout).toContain('amount: 0 → 1000');
    expect(review.stdout).toContain('tags: {"group":2} → {"group":"moved"}');
    expect(review.stdout).toContain('Plan: 10 to create, 25 to update, 275 unchanged (not sent).');
    expect(withoutStamps(await exportAll())).toEqual(withoutStamps(before)); // --plan changed nothing

    const plan = JSON.parse(await readFile(planFile, 'utf8')) as { env: string; baseUrl: string; counts: Row; entries: Array<{ action: string }> };
    expect(plan).toMatchObject({ env: 'local', baseUrl: server.url, counts: { create: 10, update: 25, unchanged: 275 } });

    const apply = await pla(['apply', planFile, '--batch-size', '7']);
    expect(apply.exitCode, String(apply.stderr)).toBe(0);
    const applied = await exportAll();
    expect(applied).toHaveLength(310);
    expect(applied.filter((row) => Number(row.amount) >= 1000)).toHaveLength(20);

    const receipt = await lastReceipt();
    expect(receipt).toMatchObject({ env: 'local', command: `apply ${planFile} --batch-size 7`, end: { exitCode: 0, counts: { create: 10, update: 25 } } });
    expect(receipt.keyFingerprint).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(JSON.stringify(receipt)).not.toContain(server.adminKey);
    const updated = receipt.records.find((line) => line.action === 'update' && line.id === before[0]?.id);
    expect(updated?.before).toEqual(before[0]);
    expect(updated?.after).toMatchObject({ id: before[0]?.id, amount: 1000 });
    expect(receipt.records.filter((line) => line.action === 'create').every((line) => typeof line.id === 'number' && line.after?.id === line.id)).toBe(true);

    const undoPlan = await pla(['runs', 'undo', receipt.run, '--plan', '-o', 'json']);
    expect(undoPlan.exitCode, String(undoPlan.stderr)).toBe(0);
    expect(JSON.parse(String(undoPlan.stdout)).counts).toEqual({ delete: 10, update: 25 });

    const refused = await pla(['runs', 'undo', receipt.run]);
    expect(refused.exitCode).toBe(2); // an undo asks first; no terminal, no --yes
    const undo = await pla(['runs', 'undo', receipt.run, '--yes']);
    expect(undo.exitCode, String(undo.stderr)).toBe(0);
    expect(withoutStamps(await exportAll())).toEqual(withoutStamps(before));

    const undoReceipt = await lastReceipt();
    expect(undoReceipt).toMatchObject({ end: { exitCode: 0, counts: { delete: 10, update: 25 } } });
    const list = await pla(['runs', 'list', '-o', 'json']);
    expect((JSON.parse(String(list.stdout)) as Row[]).find((row) => row.run === undoReceipt.run)).toMatchObject({ undoOf: receipt.run });
  });
});

describe('pla apply', () => {
  async function fresh(prefix: string, n: number): Promise<Row[]> {
    const file = await ndjson(
      `${prefix}.ndjson`,
      Array.from({ length: n }, (_, i) => ({ ref: `${prefix}-${i}`, amount: i })),
    );
    expect((await pla(['determinations', 'create', '--file', file])).exitCode).toBe(0);
    return (await exportAll()).filter((row) => String(row.ref).startsWith(`${prefix}-`));
  }

  it('reports a record changed since the plan as a conflict and does not overwrite it (exit 9)', async () => {
    const rows = await fresh('conflict', 40);
    const file = await ndjson(
      'conflict-sheet.ndjson',
      rows.map((row) => ({ id: row.id, amount: 'planned' })),
    );
    const planFile = temp.path('conflict-plan.json');
    expect((await pla(['determinations', 'upsert', '--file', file, '--plan-out', planFile, '-o', 'json'])).exitCode).toBe(0);

    const victim = rows[17] as Row;
    const other = await pla(['determinations', 'update', String(victim.id), '--data', '{"amount": "someone else"}']);
    expect(other.exitCode, String(other.stderr)).toBe(0);

    const rejects = temp.path('conflicts.ndjson');
    const apply = await pla(['apply', planFile, '--rejects', rejects, '--batch-size', '10']);
    expect(apply.exitCode).toBe(9);
    expect(apply.stderr).toContain('1 record(s) changed since the plan was made and were not written');
    const after = (await exportAll()).filter((row) => String(row.ref).startsWith('conflict-'));
    expect(after.find((row) => row.id === victim.id)?.amount).toBe('someone else');
    expect(after.filter((row) => row.amount === 'planned')).toHaveLength(39);
    const conflicts = (await readFile(rejects, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Row);
    expect(conflicts).toEqual([{ id: victim.id, amount: 'planned', _line: 18, _error: expect.stringContaining('conflict: changed since the plan was made') }]);
    expect((await lastReceipt()).end).toMatchObject({ exitCode: 9, counts: { update: 39, conflicts: 1 } });
  });

  it('refuses a plan made for another environment or base URL, sending nothing', async () => {
    const rows = await fresh('elsewhere', 2);
    const planFile = temp.path('elsewhere-plan.json');
    const ids = rows.map((row) => String(row.id));
    expect((await pla(['determinations', 'delete', ...ids, '--plan-out', planFile, '-o', 'json'])).exitCode).toBe(0);
    const { digest: _digest, ...plan } = JSON.parse(await readFile(planFile, 'utf8')) as Plan;
    // As a plan made there would be (a plan edited by hand is refused for that: reviewed-once.e2e.test.ts).
    await writeFile(planFile, JSON.stringify(withDigest({ ...plan, env: 'production' })));
    const other = await pla(['apply', planFile, '--yes']);
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toContain('the plan was made for production');
    await writeFile(planFile, JSON.stringify(withDigest({ ...plan, baseUrl: 'http://127.0.0.1:1' })));
    expect((await pla(['apply', planFile, '--yes'])).exitCode).toBe(2);
    expect((await exportAll()).filter((row) => String(row.ref).startsWith('elsewhere-'))).toHaveLength(2);
  });

  it('plans deletes and decommissions with what the service would refuse (a record already decommissioned is unchanged), and applies them', async () => {
    const rows = await fresh('lifecycle', 4);
    const [a, b, c] = rows.map((row) => Number(row.id));
    expect((await pla(['determinations', 'decommission', String(a), '--yes'])).exitCode).toBe(0);
    const plan = await pla(['determinations', 'decommission', String(a), String(b), '987654', '--plan', '-o', 'json']);
    expect(plan.exitCode, String(plan.stderr)).toBe(9);
    const parsed = JSON.parse(String(plan.stdout)) as { counts: Row; entries: Row[] };
    expect(parsed.counts).toEqual({ unchanged: 1, refused: 1, decommission: 1 });
    expect(parsed.entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'unchanged', id: a, reason: 'already decommissioned' }),
        expect.objectContaining({ action: 'refused', id: 987654, reason: 'unknown id 987654' }),
      ]),
    );
    const planFile = temp.path('delete-plan.json');
    expect((await pla(['determinations', 'delete', String(c), '--plan-out', planFile, '-o', 'json'])).exitCode).toBe(0);
    expect((await pla(['apply', planFile])).exitCode).toBe(2); // a delete asks first
    expect((await pla(['apply', planFile, '--yes'])).exitCode).toBe(0);
    expect((await exportAll()).some((row) => row.id === c)).toBe(false);
  });

  it('plans a remove by the rule the service enforces: an in-use record already decommissioned is unchanged, and the real call counts it done', async () => {
    const rows = await fresh('remove-rule', 2);
    const [kept, loose] = rows.map((row) => Number(row.id));
    expect((await pla(['determinations', 'update', String(kept), '--data', '{"inUse": true}'])).exitCode).toBe(0);
    expect((await pla(['determinations', 'decommission', String(kept), '--yes'])).exitCode).toBe(0);
    const plan = await pla(['determinations', 'remove', String(kept), String(loose), '--plan', '-o', 'json']);
    // Nothing would be refused: the record already as asked is unchanged.
    expect(plan.exitCode, String(plan.stderr)).toBe(0);
    const parsed = JSON.parse(String(plan.stdout)) as { counts: Row; entries: Row[] };
    expect(parsed.counts).toEqual({ unchanged: 1, remove: 1 });
    expect(parsed.entries).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: 'unchanged', id: kept, reason: 'in use and already decommissioned' })]),
    );
    // A record left in place is confirmed decommissioned only in the state the wire profile names (pla names none of its own).
    expect((await pla(['config', 'set-wire', 'decommissioned=DECOMMISSIONED'])).exitCode).toBe(0);
    const real = await pla(['determinations', 'remove', String(kept), '--yes']);
    expect(real.exitCode, String(real.stderr)).toBe(0);
    expect(String(real.stderr)).toContain('decommissioned 1 (in use)');
    expect((await exportAll()).find((row) => row.id === kept)).toMatchObject({ status: 'DECOMMISSIONED', inUse: true });
  });

  it('plans cancels: a finished task would be refused', async () => {
    const made = await pla(['tasks', 'upsert', '--file', await ndjson('tasks.ndjson', [{ ref: 'task-a' }, { ref: 'task-b' }]), '-o', 'json']);
    expect(made.exitCode, String(made.stderr)).toBe(0);
    const [a, b] = (await exportAll('tasks')).filter((row) => String(row.ref).startsWith('task-')).map((row) => Number(row.id));
    expect((await pla(['tasks', 'update', String(b), '--data', '{"status": "RUNNING"}'])).exitCode).toBe(0);
    expect((await pla(['tasks', 'update', String(b), '--data', '{"status": "COMPLETED"}'])).exitCode).toBe(0);
    const plan = await pla(['tasks', 'cancel', String(a), String(b), '--plan', '-o', 'table']);
    expect(plan.exitCode, String(plan.stderr)).toBe(9);
    expect(plan.stdout).toContain(`- cancel ${a}`);
    expect(plan.stdout).toContain(`! refused ${b}: task already finished (COMPLETED)`);
    expect(plan.stdout).toContain('Plan: 1 to cancel, 1 would be refused.');
  });
});

describe('--skip-unchanged and --dry-run', () => {
  it('--skip-unchanged sends only the records that differ', async () => {
    const file = await ndjson(
      'daily.ndjson',
      Array.from({ length: 500 }, (_, i) => ({ ref: `daily-${i}`, amount: i })),
    );
    expect((await pla(['determinations', 'create', '--file', file])).exitCode).toBe(0);
    const stored = (await exportAll()).filter((row) => String(row.ref).startsWith('daily-'));
    const sheet = await ndjson(
      'daily-2.ndjson',
      stored.map((row, i) => ({ id: row.id, ref: row.ref, amount: i % 40 === 0 ? -1 : row.amount })),
    );
    const run = await pla(['determinations', 'upsert', '--file', sheet, '--skip-unchanged']);
    expect(run.exitCode, String(run.stderr)).toBe(0);
    expect(run.stderr).toContain('upserted 13');
    expect(run.stderr).toContain('not sent: 487 unchanged');
    expect((await lastReceipt()).end?.counts).toEqual({ update: 13 });
  });

  it('--dry-run of many ids reads pages, not a GET per id, and its counts match the real run', async () => {
    const file = await ndjson(
      'dry.ndjson',
      Array.from({ length: 300 }, (_, i) => ({ ref: `dry-${i}` })),
    );
    expect((await pla(['determinations', 'create', '--file', file])).exitCode).toBe(0);
    const ids = (await exportAll()).filter((row) => String(row.ref).startsWith('dry-')).map((row) => Number(row.id));
    expect((await pla(['determinations', 'decommission', ...ids.slice(0, 7).map(String), '--yes'])).exitCode).toBe(0);
    const idsFile = temp.path('dry-ids.txt');
    await writeFile(idsFile, [...ids, 999_001, 999_002].join('\n'));

    const logBefore = ((await server.http('GET', '/_admin/requests?limit=500')).body as { data: unknown[] }).data.length;
    const dry = await pla(['determinations', 'decommission', '--ids-file', idsFile, '--dry-run', '-o', 'json']);
    expect(dry.exitCode, String(dry.stderr)).toBe(9);
    const log = ((await server.http('GET', '/_admin/requests?limit=500')).body as { data: Array<{ method: string; path: string }> }).data;
    // GETs of this test's ids only: the log holds the earlier tests' requests too.
    const named = new Set([...ids, 999_001, 999_002].map(String));
    const reads = log
      .slice(Math.max(0, logBefore - 500))
      .filter((request) => request.method === 'GET' && named.has(/determinations\/(\d+)$/.exec(request.path)?.[1] ?? ''));
    expect(reads.length).toBeLessThan(10);
    expect(dry.stderr).toContain('would decommission 300 determinations');
    expect(dry.stderr).toContain('7 of them already decommissioned, 2 would be refused');

    const real = await pla(['determinations', 'decommission', '--ids-file', idsFile, '--yes', '--rejects', temp.path('dry-rejects.ndjson')]);
    expect(real.exitCode).toBe(9);
    expect(real.stderr).toMatch(/decommissioned 300 \(7 of them already decommissioned\), failed 2/);
  });
});

describe('protected environments', () => {
  it('record the records before on every run, so a delete can be undone (re-created with a new id)', async () => {
    expect((await pla(['config', 'protect', 'local'])).exitCode).toBe(0);
    try {
      const created = await pla(['determinations', 'create', '--data', '{"ref": "guarded", "amount": 1}', '-o', 'json']);
      const id = Number((JSON.parse(String(created.stdout)) as Row).id);
      expect((await pla(['determinations', 'update', String(id), '--data', '{"amount": 2}'])).exitCode).toBe(0);
      expect((await lastReceipt()).records).toEqual([
        expect.objectContaining({ action: 'update', id, before: expect.objectContaining({ amount: 1 }), after: expect.objectContaining({ amount: 2 }) }),
      ]);
      expect((await pla(['determinations', 'delete', String(id), '--yes'])).exitCode).toBe(0);
      const deletion = await lastReceipt();
      expect(deletion.records).toEqual([expect.objectContaining({ action: 'delete', id, before: expect.objectContaining({ ref: 'guarded', amount: 2 }) })]);
      const undo = await pla(['runs', 'undo', deletion.run, '--yes']);
      expect(undo.exitCode, String(undo.stderr)).toBe(0);
      const back = (await exportAll()).filter((row) => row.ref === 'guarded');
      expect(back).toEqual([expect.objectContaining({ ref: 'guarded', amount: 2 })]);
      expect(back[0]?.id).not.toBe(id);
    } finally {
      expect((await pla(['config', 'unprotect', 'local'])).exitCode).toBe(0);
    }
  });

  it('refuse a record whose id cannot be read before it changes, and send the others with their records before', async () => {
    const seed = await ndjson('spelled.ndjson', [
      { ref: 'spelled-1', amount: 1 },
      { ref: 'spelled-2', amount: 2 },
    ]);
    const created = await pla(['determinations', 'create', '--file', seed, '-o', 'ndjson']);
    expect(created.exitCode, String(created.stderr)).toBe(0);
    const ids = String(created.stdout)
      .split('\n')
      .filter(Boolean)
      .map((line) => Number((JSON.parse(line) as Row).id));
    expect((await pla(['config', 'protect', 'local'])).exitCode).toBe(0);
    try {
      const refused = await pla(['determinations', 'update', '--data', '{"id": "abc", "amount": 1}']);
      expect([refused.exitCode, refused.stderr]).toEqual([2, expect.stringContaining("error: line 1: 'abc' is not an id: ids are positive integers")]);

      const sheet = await ndjson('spelled-ids.ndjson', [
        { id: ids[0], ref: 'spelled-1', amount: 10 },
        { id: 'abc', ref: 'no-id', amount: 40 },
        { id: ids[1], ref: 'spelled-2', amount: 20 },
      ]);
      const rejects = temp.path('spelled-rejects.ndjson');
      const many = await pla(['determinations', 'upsert', '--file', sheet, '--rejects', rejects]);
      expect(many.exitCode, String(many.stderr)).toBe(9);
      const receipt = await lastReceipt();
      expect(receipt.records).toEqual([
        expect.objectContaining({
          action: 'update',
          id: ids[0],
          before: expect.objectContaining({ amount: 1 }),
          after: expect.objectContaining({ amount: 10 }),
        }),
        expect.objectContaining({
          action: 'update',
          id: ids[1],
          before: expect.objectContaining({ amount: 2 }),
          after: expect.objectContaining({ amount: 20 }),
        }),
      ]);
      // The id rule refuses it before anything is read or sent, on any environment.
      expect(await readFile(rejects, 'utf8')).toContain("'abc' is not an id: ids are positive integers");
      expect((await exportAll()).filter((row) => row.ref === 'no-id')).toEqual([]);

      // Undone from the records before, the two are as they were.
      expect((await pla(['runs', 'undo', receipt.run, '--yes'])).exitCode).toBe(0);
      const back = (await exportAll()).filter((row) => String(row.ref).startsWith('spelled-'));
      expect(back.map((row) => row.amount).sort()).toEqual([1, 2]);
    } finally {
      expect((await pla(['config', 'unprotect', 'local'])).exitCode).toBe(0);
    }
  });

  it('go with the environment: renamed, it still records the records before; removed and added again, it does not', async () => {
    const inBooks = (env: string, args: string[]) => pla(['-e', env, ...args]);
    expect((await pla(['config', 'set-url', server.url, '-e', 'books'])).exitCode).toBe(0);
    expect((await server.pla(['config', 'set-key', '-e', 'books'], { input: server.adminKey })).exitCode).toBe(0);
    expect((await pla(['config', 'protect', 'books'])).exitCode).toBe(0);
    expect((await pla(['config', 'rename', 'books', 'ledger'])).exitCode).toBe(0);
    const deleteOne = async (env: string, ref: string) => {
      const created = await inBooks(env, ['determinations', 'create', '--data', JSON.stringify({ ref, amount: 5 }), '-o', 'json']);
      const id = Number((JSON.parse(String(created.stdout)) as Row).id);
      const deleted = await inBooks(env, ['determinations', 'delete', String(id), '--yes']);
      expect(deleted.exitCode, String(deleted.stderr)).toBe(0);
      return { id, receipt: (await lastReceipt(env)) as ReceiptJson & { protected?: boolean } };
    };
    try {
      const renamed = await deleteOne('ledger', 'renamed-guarded');
      expect(renamed.receipt).toMatchObject({ env: 'ledger', protected: true });
      expect(renamed.receipt.records).toEqual([
        expect.objectContaining({ action: 'delete', id: renamed.id, before: expect.objectContaining({ ref: 'renamed-guarded', amount: 5 }) }),
      ]);

      expect((await pla(['config', 'remove', 'ledger'])).exitCode).toBe(0);
      expect((await pla(['config', 'set-url', server.url, '-e', 'ledger'])).exitCode).toBe(0);
      expect((await server.pla(['config', 'set-key', '-e', 'ledger'], { input: server.adminKey })).exitCode).toBe(0);
      const readded = await deleteOne('ledger', 'readded-unguarded');
      expect(readded.receipt).toMatchObject({ env: 'ledger', protected: false });
      expect(readded.receipt.records).toEqual([expect.not.objectContaining({ before: expect.anything() })]);
    } finally {
      await pla(['config', 'remove', 'ledger']);
    }
  });

  it('lists what cannot be undone instead of skipping it', async () => {
    const created = await pla(['determinations', 'create', '--data', '{"ref": "retired"}', '-o', 'json']);
    const id = Number((JSON.parse(String(created.stdout)) as Row).id);
    expect((await pla(['determinations', 'decommission', String(id), '--yes'])).exitCode).toBe(0);
    const run = (await lastReceipt()).run;
    const undo = await pla(['runs', 'undo', run, '--plan', '-o', 'table']);
    expect(undo.exitCode).toBe(0);
    expect(undo.stdout).toContain(`? irreversible ${id}: a decommission cannot be undone`);
    expect(undo.stdout).toContain('1 cannot be undone');
  });

  it('prunes receipts', async () => {
    expect((await pla(['runs', 'prune'])).exitCode).toBe(2);
    const pruned = await pla(['runs', 'prune', '--all']);
    expect(pruned.stderr).toMatch(/removed \d+ receipt/);
    expect(JSON.parse(String((await pla(['runs', 'list', '-o', 'json'])).stdout))).toEqual([]);
  });
});

// Last in the file: its reads by id would count in the --dry-run test's request-log window.
describe('apply names file lines', () => {
  it("names a conflict's line in the file the plan was made from (a csv's header is line 1)", async () => {
    const created = await pla(['determinations', 'create', '--data', '[{"ref": "csvline-0"}, {"ref": "csvline-1"}]', '-o', 'json']);
    expect(created.exitCode, String(created.stderr)).toBe(0);
    const [first, second] = (await exportAll()).filter((row) => String(row.ref).startsWith('csvline-'));
    const file = temp.path('csvline.csv');
    await writeFile(file, `id,amount\r\n${String(first?.id)},planned\r\n${String(second?.id)},planned\r\n`);
    const planFile = temp.path('csvline-plan.json');
    expect((await pla(['determinations', 'upsert', '--file', file, '--plan-out', planFile, '-o', 'json'])).exitCode).toBe(0);
    expect((await pla(['determinations', 'update', String(second?.id), '--data', '{"amount": "someone else"}'])).exitCode).toBe(0);
    const rejects = temp.path('csvline-rejects.ndjson');
    const apply = await pla(['apply', planFile, '--rejects', rejects]);
    expect(apply.exitCode).toBe(9);
    const [conflict] = (await readFile(rejects, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Row);
    expect(conflict).toMatchObject({ id: second?.id, _line: 3 });
  });
});
