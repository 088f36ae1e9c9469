/**
 * What a remove's answer says it did to each id: the local server's message names
 * them ("deleted 1, 2; decommissioned 3 (in use, kept)"). The spec leaves a
 * remove's answer open (ResponseVoid), so ids a message does not name are read
 * back: by the bulk runner's confirmation (src/confirm/item-results.ts) and by
 * `pla det remove`'s report of each id (src/cli/handlers/remove-outcomes.ts).
 */
import { type RecordId, parseId } from '../io/input/typed-ids.js';

/** What a message can say of one id. */
export type NamedOutcome = 'deleted' | 'decommissioned (in use)';

/** The ids a message lists after `word` ("deleted 1, 2", "Deleted ids: 1, 2"). */
export function idsAfter(word: string, message: string): RecordId[] {
  const listed = new RegExp(`\\b${word}(?:\\s+(?:ids?|records?))?(?:\\s*:\\s*|\\s+)(\\d+(?:\\s*,\\s*\\d+)*)`, 'i').exec(message)?.[1];
  return (listed ?? '').split(',').flatMap((text) => parseId(text) ?? []);
}

/** The count a message gives before `word` ("2 records deleted", "3 deleted"), if it gives one. */
export function countBefore(word: string, message: string): number | undefined {
  const count = new RegExp(`\\b(\\d+)\\s+(?:[a-z]+\\s+)?${word}\\b`, 'i').exec(message)?.[1];
  return count === undefined ? undefined : Number(count);
}

/** The outcomes a message names, by id. */
export function outcomesNamed(message: string | undefined): Map<RecordId, NamedOutcome> {
  const named = new Map<RecordId, NamedOutcome>();
  if (!message) return named;
  for (const id of idsAfter('deleted', message)) named.set(id, 'deleted');
  for (const id of idsAfter('decommissioned', message)) named.set(id, 'decommissioned (in use)');
  return named;
}
