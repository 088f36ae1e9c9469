/**
 * `--match FIELD`: rows find their record by a natural key the user names (a
 * `code`), as Salesforce Data Loader's external-id upsert does, instead of by an
 * id (which a sheet from another system carries as its own). The existing records
 * are read once by pages and indexed by the field's text; a row matching one
 * record updates it (under that record's id), none creates one (without the
 * sheet's id: the service assigns ids), several are refused.
 */
import type { PlaClient } from '../client/types.js';
import type { RecordId } from '../contract/ids.js';
import { toRecordId } from '../contract/ids.js';
import type { OperationId } from '../contract/operations.js';
import { jsonText } from '../json/json-text.js';
import type { StoredRecordLike } from './types.js';

/** Records of a page read to index. */
const PAGE_SIZE = 1000;

/** A value as the text a key is compared by (`1000` and "1000" are one code). */
function keyText(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return typeof value === 'string' ? value : (jsonText(value) ?? String(value));
}

/** What matching one row found. */
export type MatchResult =
  { kind: 'one'; id: RecordId; record: StoredRecordLike } | { kind: 'none' } | { kind: 'several'; ids: RecordId[] } | { kind: 'no key' };

/** The existing records by the text of one field. */
export class NaturalKeyIndex {
  private readonly byKey = new Map<string, StoredRecordLike[]>();

  constructor(readonly field: string) {}

  /** Reads every record of the listing by pages and indexes it. */
  static async read(client: PlaClient, list: OperationId, field: string, signal?: AbortSignal): Promise<NaturalKeyIndex> {
    const index = new NaturalKeyIndex(field);
    for await (const page of client.pages<StoredRecordLike>(list, { paging: { page: 0, size: PAGE_SIZE }, signal }))
      for (const record of page.items) index.add(record);
    return index;
  }

  add(record: StoredRecordLike): void {
    const key = keyText(record[this.field]);
    if (key === undefined) return;
    const records = this.byKey.get(key) ?? [];
    records.push(record);
    this.byKey.set(key, records);
  }

  /** The records a row names by its key (`cells`: its text as written, when a sheet's). */
  match(record: StoredRecordLike, cells?: Readonly<Record<string, string>>): MatchResult {
    const key = cells && Object.hasOwn(cells, this.field) ? cells[this.field] : keyText(record[this.field]);
    if (key === undefined || key === '') return { kind: 'no key' };
    const found = this.byKey.get(key) ?? [];
    const ids = found.map((one) => toRecordId(one.id)).filter((id): id is RecordId => id !== undefined);
    if (found.length === 0) return { kind: 'none' };
    if (found.length > 1 || ids.length !== 1) return { kind: 'several', ids };
    return { kind: 'one', id: ids[0] as RecordId, record: found[0] as StoredRecordLike };
  }
}
