/** Sheet cells read as the type the service declares for their field (issue 27 item 1). */
import { describe, expect, it } from 'vitest';
import { readCellAs, typeSheetRow, typesFromRecords, typesFromSchema } from '../../src/plan/field-types.js';

describe('readCellAs', () => {
  it("reads Excel's booleans in the common locales, any case", () => {
    for (const word of ['TRUE', 'wahr', 'VRAI', 'Vero', 'VERDADERO', 'WAAR', 'yes', '1']) expect(readCellAs(word, 'boolean')).toEqual({ value: true });
    for (const word of ['FALSE', 'FALSCH', 'faux', 'FALSO', 'ONWAAR', 'no', '0']) expect(readCellAs(word, 'boolean')).toEqual({ value: false });
    expect(readCellAs('maybe', 'boolean')).toEqual({ error: "'maybe' is not a boolean (TRUE or FALSE)" });
  });

  it('reads numbers-as-text, keeps text as written, and refuses what is no number of the type', () => {
    expect(readCellAs('007', 'number')).toEqual({ value: 7 });
    expect(readCellAs('12,5', 'number')).toEqual({ value: 12.5 });
    expect(readCellAs('1,000', 'number')).toHaveProperty('error');
    expect(readCellAs('1000', 'string')).toEqual({ value: '1000' });
    expect(readCellAs('1.23E+15', 'integer')).toMatchObject({ error: expect.stringContaining('exponent notation') });
    expect(readCellAs('2.5', 'integer')).toEqual({ error: "'2.5' is not an integer" });
    expect(readCellAs('18.11.2026 14:54', 'date-time')).toMatchObject({ error: expect.stringContaining('is not a date-time') });
    expect(readCellAs('2026-11-18T14:54:00Z', 'date-time')).toEqual({ value: '2026-11-18T14:54:00Z' });
  });
});

describe('typeSheetRow', () => {
  const schema = typesFromSchema({
    type: 'object',
    properties: { code: { type: 'string' }, inUse: { type: ['boolean', 'null'] }, validFrom: { type: 'string', format: 'date-time' }, id: { type: 'integer' } },
    'x-serverOwned': ['id', 'createdAt', 'updatedAt'],
  });

  it('types creates by the schema, leaves out the stamps the service sets, and names what it guessed', () => {
    if (!schema) throw new Error('not read as a schema');
    const record: Record<string, unknown> = { code: 1000, inUse: 'WAHR', colour: 7, updatedAt: 'x', decommissionedAt: '18.11.2026 14:54' };
    const typing = typeSheetRow(record, { code: '1000', colour: '7' }, schema);
    expect(record).toEqual({ code: '1000', inUse: true, colour: 7 });
    expect(typing).toEqual({ guessed: ['colour'], dropped: ['updatedAt', 'decommissionedAt'] });
  });

  it('takes the stored record first, and refuses a row naming every cell that cannot be read', () => {
    if (!schema) throw new Error('not read as a schema');
    const record: Record<string, unknown> = { code: 'A', inUse: 'perhaps', validFrom: '18.11.2026' };
    const typing = typeSheetRow(record, {}, schema, { code: 5 });
    expect(typing.refusal).toBe(
      "code: 'A' is not a number; inUse: 'perhaps' is not a boolean (TRUE or FALSE); validFrom: '18.11.2026' is not a date-time as the service writes them (2026-11-18T14:54:00Z): a spreadsheet may have reformatted it",
    );
  });

  it('reads types from existing records when there is no schema: one type a field, stamps as date-times', () => {
    const types = typesFromRecords([
      { code: 'A', n: 1, at: '2026-01-01T00:00:00Z', mixed: 1 },
      { code: 'B', n: 2.5, mixed: 'x' },
    ]);
    expect([...types.declared]).toEqual([
      ['code', 'string'],
      ['n', 'number'],
      ['at', 'date-time'],
    ]);
  });
});
