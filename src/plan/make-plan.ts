/**
 * Making a plan: the watermark first (so any change after the read is seen by
 * apply), then the current state of the records named, then one entry per record
 * by the service's own rules.
 */
import { randomUUID } from 'node:crypto';
import type { RecordId } from '../contract/ids.js';
import { bulkOperation } from '../contract/operations.js';
import type { BadRow, RepeatedRow, SheetForm } from '../io/input/types.js';
import type { PlaClient } from '../client/types.js';
import { type IdInputItem, type IdVerb, type RecordInputItem, type RecordVerb, idsOfRecords, planIds, planRecords, SheetReading } from './build.js';
import { type ReadStateOptions, probeWatermark, readCurrentState, stateOf } from './current-state.js';
import { withDigest } from './plan-digest.js';
import { countActions, type Plan, type PlanEntry, type Watermark } from './types.js';

/** Where and for what a plan is made. */
export interface PlanTarget extends ReadStateOptions {
  client: PlaClient;
  env: string;
  baseUrl: string;
  /** Resource group: `determinations`, `settings`, `tasks`. */
  resource: string;
  /** The command line, secrets masked. */
  command: string;
}

/** Assembles a plan from its entries, with the digest of what it shows (what `pla apply` checks it against). */
export function assemblePlan(
  target: PlanTarget,
  operations: Plan['operations'],
  entries: PlanEntry[],
  watermark: Watermark | undefined,
  createdAt: string,
  extra: Pick<Plan, 'undoOf' | 'input' | 'guessed' | 'dropped' | 'match'> = {},
): Plan {
  return withDigest({
    kind: 'pla-plan',
    version: 1,
    id: randomUUID(),
    createdAt,
    env: target.env,
    baseUrl: target.baseUrl,
    resource: target.resource,
    command: target.command,
    operations,
    ...(watermark ? { watermark } : {}),
    ...extra,
    counts: countActions(entries),
    entries,
  });
}

/** The bulk operation each record verb's entries go through. */
function recordOperations(resource: string, verb: RecordVerb): Plan['operations'] {
  const bulk = bulkOperation(resource, verb);
  if (verb === 'create') return { create: bulk };
  if (verb === 'update') return { update: bulk };
  return { create: bulk, update: bulk };
}

/** Reads the watermark and the records `ids` name, as a plan needs them. */
async function readForPlan(target: PlanTarget, ids: RecordId[]) {
  const createdAt = new Date().toISOString();
  const source = stateOf(target.resource);
  const watermark = ids.length > 0 ? await probeWatermark(target.client, source.list, target.signal) : undefined;
  const current = await readCurrentState(target.client, source, ids, target);
  return { createdAt, watermark, current };
}

/** Of a record plan: the natural key rows find their records by, and the form of the sheet read. */
export interface RecordPlanOptions {
  match?: string;
  sheetForm?: SheetForm;
}

/** How the plan reads sheet rows: the declared field types (when any row is a sheet's) and the natural-key index (`--match`). */
async function sheetReading(target: PlanTarget, items: readonly RecordInputItem[], match: string | undefined): Promise<SheetReading | undefined> {
  if (match === undefined && !items.some((item) => item.cells !== undefined)) return undefined;
  const [{ readFieldTypes }, { NO_TYPES }, { NaturalKeyIndex }] = await Promise.all([
    import('./declared-types.js'),
    import('./field-types.js'),
    import('./match.js'),
  ]);
  const types = items.some((item) => item.cells !== undefined) ? await readFieldTypes(target.client, target.resource, target.signal) : NO_TYPES;
  const index = match === undefined ? undefined : await NaturalKeyIndex.read(target.client, stateOf(target.resource).list, match, target.signal);
  return new SheetReading(types, index);
}

/** The plan of a create, update or upsert of `items`. */
export async function planRecordWrite(
  target: PlanTarget,
  verb: RecordVerb,
  items: RecordInputItem[],
  problems: readonly BadRow[] = [],
  repeats: readonly RepeatedRow[] = [],
  options: RecordPlanOptions = {},
): Promise<Plan> {
  const createdAt = new Date().toISOString();
  // With --match every record may be named: the watermark comes first, as for ids.
  const ids = verb === 'create' || options.match !== undefined ? [] : idsOfRecords(items);
  const read = await readForPlan(target, ids);
  const watermark = options.match !== undefined ? await probeWatermark(target.client, stateOf(target.resource).list, target.signal) : read.watermark;
  const sheet = await sheetReading(target, items, options.match);
  const entries = planRecords(verb, items, read.current, problems, repeats, sheet);
  // The sheet's form and typing are part of what is reviewed: inside the digest.
  return assemblePlan(target, recordOperations(target.resource, verb), entries, watermark, options.match !== undefined ? createdAt : read.createdAt, {
    ...(options.sheetForm ? { input: options.sheetForm } : {}),
    ...(sheet && sheet.guessed.size > 0 ? { guessed: [...sheet.guessed] } : {}),
    ...(sheet && sheet.dropped.size > 0 ? { dropped: [...sheet.dropped] } : {}),
    ...(options.match !== undefined ? { match: options.match } : {}),
  });
}

/**
 * The plan of a delete, remove, decommission or cancel of `items`' ids; the ids
 * file's rows that name none are listed as refused. `goneIsDone`: see `planIds`.
 */
export async function planIdAction(
  target: PlanTarget,
  verb: IdVerb,
  items: readonly IdInputItem[],
  problems: readonly BadRow[] = [],
  goneIsDone = false,
): Promise<Plan> {
  const { createdAt, watermark, current } = await readForPlan(
    target,
    items.map((item) => item.value),
  );
  return assemblePlan(target, { [verb]: bulkOperation(target.resource, verb) }, planIds(verb, items, current, problems, goneIsDone), watermark, createdAt);
}
