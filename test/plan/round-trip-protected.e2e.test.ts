/**
 * Issue 17's round trip on a protected environment, through the built CLI against
 * the real local server: a spreadsheet with creates from unknown ids, duplicate
 * ids (identical and not), an id that is no id, an unreadable row and a cell
 * that is not of its field's type is planned, applied, applied again and undone. Every input row is
 * accounted for in exactly one place, and the data ends as it began (but for
 * `updatedAt`, which only the service sets).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { serverWithFolder } from '../bulk/helpers.js';

type Row = Record<string, unknown>;

const files = serverWithFolder();
/** The built CLI, run in the temporary folder (where default rejects files land). */
const pla = files.pla;

const exportAll = files.determinations;

const withoutStamps = (rows: Row[]) => rows.map(({ updatedAt: _stamp, ...rest }) => rest);

describe('plan → apply → apply again → undo on a protected environment', () => {
  it('accounts for every row and record, and leaves the data as it was', async () => {
    const seed = Array.from({ length: 5 }, (_, i) => ({ ref: `rt-${i + 1}`, costCentre: String(1000 + i), qty: i + 1 }));
    expect((await pla(['determinations', 'create', '--data', JSON.stringify(seed)])).exitCode).toBe(0);
    const before = await exportAll();
    const id = (ref: string) => String(before.find((row) => row.ref === ref)?.id);
    expect((await pla(['config', 'protect', 'local'])).exitCode).toBe(0);

    // Eleven rows, as a spreadsheet writes them (CRLF, codes unquoted).
    const rows = [
      'id,ref,costCentre,qty',
      `${id('rt-1')},rt-1,1000,11`, //  2: update qty; costCentre stays the string "1000"
      `${id('rt-2')},rt-2,1001,n/a`, //  3: qty is stored a number, n/a is none → refused
      '999999,rt-new-a,2000,5', //          4: unknown id → a create, under the service's id
      ',rt-new-b,2001,6', //                5: no id → a create
      `${id('rt-3')},rt-3,1002,33`, //  6: update
      `${id('rt-3')},rt-3,1002,33`, //  7: the same again → sent once
      `${id('rt-4')},rt-4,1003,44`, //  8: the same id …
      `${id('rt-4')},rt-4,1003,45`, //  9: … with other values → both refused
      'abc,rt-x,1,1', //                   10: no id → refused
      `${id('rt-5')},rt-5,1004,5`, // 11: unchanged
      'rt-bad,"oops', //                   12: unreadable
    ];
    const sheet = files.temp().path('sheet.csv');
    await writeFile(sheet, `${rows.join('\r\n')}\r\n`);

    const planFile = files.temp().path('plan.json');
    const made = await pla(['determinations', 'upsert', '--file', sheet, '--plan-out', planFile, '-o', 'json']);
    // Rows refused or unreadable: the plan exits 9 after showing them.
    expect(made.exitCode, String(made.stderr)).toBe(9);
    const plan = JSON.parse(await readFile(planFile, 'utf8')) as { id: string; counts: Row; entries: Row[] };
    expect(plan.counts).toEqual({ update: 2, create: 2, repeat: 1, refused: 4, unchanged: 1, unreadable: 1 });
    // Every data row is one entry, on its own line of the file.
    expect(plan.entries.map((entry) => entry.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(plan.entries[0]).toMatchObject({ action: 'update', record: { costCentre: '1000', qty: 11 }, changes: [{ field: 'qty', old: 1, new: 11 }] });
    expect(plan.entries[1]).toMatchObject({ action: 'refused', reason: "qty: 'n/a' is not a number" });
    expect(withoutStamps(await exportAll())).toEqual(withoutStamps(before));

    const rejects = files.temp().path('rejects.ndjson');
    const applied = await pla(['apply', planFile, '--yes', '--rejects', rejects]);
    expect(applied.exitCode, String(applied.stderr)).toBe(9);
    expect(applied.stderr).toContain('upserted 4 (created 2, updated 2)');
    expect(applied.stderr).toContain('not sent: 1 unchanged, 1 repeating an earlier row exactly (sent once, as it), 5 refused or unreadable');
    const after = await exportAll();
    // Every record as the apply left it: two updated, two created under the service's ids, three untouched.
    const fields = (row: Row | undefined) => (row ? [row.ref, row.costCentre, row.qty] : undefined);
    expect(after.map(fields).sort()).toEqual(
      [
        ['rt-1', '1000', 11],
        ['rt-2', '1001', 2],
        ['rt-3', '1002', 33],
        ['rt-4', '1003', 4],
        ['rt-5', '1004', 5],
        // No stored record to follow: a new record's cells take the types the service's meta declares (costCentre a string).
        ['rt-new-a', '2000', 5],
        ['rt-new-b', '2001', 6],
      ].sort(),
    );
    const untouched = (ref: string) => withoutStamps(after.filter((row) => row.ref === ref));
    expect(untouched('rt-4')).toEqual(withoutStamps(before.filter((row) => row.ref === 'rt-4')));
    expect(untouched('rt-5')).toEqual(withoutStamps(before.filter((row) => row.ref === 'rt-5')));
    expect(after.find((row) => row.ref === 'rt-5')?.updatedAt).toBe(before.find((row) => row.ref === 'rt-5')?.updatedAt);
    expect(after.filter((row) => String(row.ref).startsWith('rt-new-')).map((row) => row.id)).not.toContain(999999);
    // Refused and unreadable rows: each once in the rejects file, with its line and why.
    const rejected = (await readFile(rejects, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Row);
    expect(
      rejected.map((row) => [row._line, row.ref ?? row._raw, String(row._error).replace(/id \d+/, 'id #')]).sort((a, b) => Number(a[0]) - Number(b[0])),
    ).toEqual([
      [3, 'rt-2', expect.stringContaining("'n/a' is not a number")],
      [8, 'rt-4', expect.stringContaining('ambiguous')],
      [9, 'rt-4', expect.stringContaining('ambiguous')],
      [10, 'rt-x', expect.stringContaining('is not an id')],
      [12, 'rt-bad,"oops', 'a quote opened on this line is never closed'],
    ]);

    const shown = await pla(['runs', 'show', 'last', '-o', 'json']);
    const receipt = JSON.parse(String(shown.stdout)) as { run: string; plan: string; protected: boolean; records: Row[] };
    expect(receipt).toMatchObject({ plan: plan.id, protected: true });
    const created = receipt.records.filter((line) => line.action === 'create');
    expect(created.map((line) => line.id).sort()).toEqual(
      after
        .filter((row) => String(row.ref).startsWith('rt-new-'))
        .map((row) => row.id)
        .sort(),
    );
    expect(receipt.records.filter((line) => line.action === 'update').every((line) => line.before !== undefined)).toBe(true);
    // Every row of the sheet in exactly one place: sent (the receipt), unchanged or repeated (the plan), refused or unreadable (the rejects).
    const sent = receipt.records.map((line) => Number(line.line));
    const notSent = plan.entries.filter((entry) => entry.action === 'unchanged' || entry.action === 'repeat').map((entry) => Number(entry.line));
    const places = [...sent, ...notSent, ...rejected.map((row) => Number(row._line))].sort((a, b) => a - b);
    expect(places).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(receipt.records.map((line) => [line.line, line.action]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
      [2, 'update'],
      [4, 'create'],
      [5, 'create'],
      [6, 'update'],
    ]);

    // Applied again: refused, nothing sent (no second set of creates).
    const again = await pla(['apply', planFile, '--yes']);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain('this plan was applied already');
    expect(withoutStamps(await exportAll())).toEqual(withoutStamps(after));

    // Undone: the creates (the new records under the service's ids) deleted, the updates put back.
    const undo = await pla(['runs', 'undo', receipt.run, '--yes']);
    expect(undo.exitCode, String(undo.stderr)).toBe(0);
    const back = await exportAll();
    expect(withoutStamps(back)).toEqual(withoutStamps(before));
    expect(back.map((row) => row.id)).toEqual(before.map((row) => row.id));
    // Undone twice: nothing left to undo changes anything.
    expect(withoutStamps(await exportAll())).toEqual(withoutStamps(back));
    expect((await pla(['config', 'unprotect', 'local'])).exitCode).toBe(0);
  });

  it('a plain upsert naming an unknown id counts a create, keeps the new id in the receipt, and undo deletes it', async () => {
    expect((await pla(['config', 'protect', 'local'])).exitCode).toBe(0);
    try {
      const before = await exportAll();
      const target = before[0] as Row;
      const sheet = files.temp().path('plain.ndjson');
      await writeFile(
        sheet,
        [
          { id: 888888, ref: 'plain-new' },
          { id: target.id, ref: target.ref, qty: 99 },
        ]
          .map((row) => JSON.stringify(row))
          .join('\n'),
      );
      const run = await pla(['determinations', 'upsert', '--file', sheet]);
      expect(run.exitCode, String(run.stderr)).toBe(0);
      expect(run.stderr).toContain('upserted 2 (created 1, updated 1)');
      const made = (await exportAll()).find((row) => row.ref === 'plain-new') as Row;
      expect(made.id).not.toBe(888888);
      const receipt = JSON.parse(String((await pla(['runs', 'show', 'last', '-o', 'json'])).stdout)) as { run: string; records: Row[] };
      expect(receipt.records.find((line) => line.action === 'create')).toMatchObject({ id: made.id });
      expect((await pla(['runs', 'undo', receipt.run, '--yes'])).exitCode).toBe(0);
      const back = await exportAll();
      expect(back.find((row) => row.ref === 'plain-new')).toBeUndefined();
      expect(withoutStamps(back)).toEqual(withoutStamps(before));
    } finally {
      expect((await pla(['config', 'unprotect', 'local'])).exitCode).toBe(0);
    }
  });
});
