/**
 * What was reviewed is what is applied. A plan carries a digest of each of its
 * entries, of each of its other fields (environment, base URL, operations, …) and
 * of the readable diff it showed; `pla apply` computes them again from the file
 * and refuses a plan that no longer matches, naming the first part that differs.
 *
 * A digest shows a plan was changed by hand or by accident after it was made; it
 * is not a signature: someone who edits the plan and computes its digests again
 * is not stopped by it (keep a plan where only its reviewers can write it).
 */
import { createHash } from 'node:crypto';
import { UsageError } from '../errors.js';
import { jsonText } from '../json/json-text.js';
import { renderPlanText } from './render.js';
import type { Plan, PlanDigest, PlanEntry } from './types.js';

/** Hex digits kept of each sha-256 (128 bits): a plan of a million entries carries 32 MB of them less than whole ones. */
const KEPT = 32;

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, KEPT);
}

/** The plan's fields the digest covers one by one: all but its entries and the digest itself. */
type DigestedField = Exclude<keyof Plan, 'entries' | 'digest'>;

function ownFields(plan: Plan): DigestedField[] {
  return Object.keys(plan).filter((key): key is DigestedField => key !== 'entries' && key !== 'digest');
}

/** The digest of `plan` as it is now (JSON text of each part: what the file holds, read back as written). */
export function digestOf(plan: Omit<Plan, 'digest'>): PlanDigest {
  // Built with fromEntries: a field named `__proto__` in a hand-made file is a field like any other.
  const fields = Object.fromEntries(ownFields(plan).map((field) => [field, sha256(jsonText(plan[field] ?? null))]));
  const entries = plan.entries.map((entry) => sha256(jsonText(entry)));
  const shown = sha256(renderPlanText(plan, false));
  const whole = sha256(jsonText({ fields, entries, shown }));
  return { algorithm: 'sha256', plan: whole, shown, fields, entries };
}

/** `plan` with its digest. */
export function withDigest(plan: Omit<Plan, 'digest'>): Plan {
  return { ...plan, digest: digestOf(plan) };
}

/** How an entry is named in a refusal: its position, action, id and line. */
function entryName(index: number, entry: PlanEntry | undefined): string {
  if (!entry || typeof entry !== 'object') return `entry ${index + 1}`;
  const id = entry.id !== undefined ? ` of id ${String(entry.id)}` : '';
  const line = entry.line !== undefined ? `, line ${String(entry.line)}` : '';
  return `entry ${index + 1} (${String(entry.action)}${id}${line})`;
}

/** Whether `digest` read from a file has the shape `digestOf` writes. */
function isDigest(digest: unknown): digest is PlanDigest {
  if (typeof digest !== 'object' || digest === null) return false;
  const d = digest as Partial<Record<keyof PlanDigest, unknown>>;
  return (
    typeof d.plan === 'string' &&
    typeof d.shown === 'string' &&
    Array.isArray(d.entries) &&
    d.entries.every((hash) => typeof hash === 'string') &&
    typeof d.fields === 'object' &&
    d.fields !== null &&
    Object.values(d.fields).every((hash) => typeof hash === 'string')
  );
}

/**
 * The first part of `plan` that is not what its digest says was reviewed, in
 * words (`entry 3 (update of id 7, line 4)`), or `undefined` when it all matches.
 */
export function firstDifference(plan: Plan): string | undefined {
  const stated = plan.digest;
  if (!isDigest(stated)) return 'its digest (missing or not one pla writes: the plan was made by an older pla, or edited)';
  const now = digestOf(plan);
  const statedFields = new Map(Object.entries(stated.fields));
  for (const field of ownFields(plan)) {
    if (!statedFields.has(field)) return `its field "${field}" (added after the plan was made)`;
    if (statedFields.get(field) !== now.fields[field]) return `its field "${field}"`;
  }
  for (const field of statedFields.keys()) if (!Object.hasOwn(now.fields, field)) return `its field "${field}" (removed after the plan was made)`;
  const count = Math.max(stated.entries.length, now.entries.length);
  for (let i = 0; i < count; i++) {
    if (i >= stated.entries.length) return `${entryName(i, plan.entries[i])}, added after the plan was made`;
    if (i >= now.entries.length)
      return `entry ${i + 1}, removed after the plan was made (the plan had ${stated.entries.length} entries, the file has ${now.entries.length})`;
    if (stated.entries[i] !== now.entries[i]) return entryName(i, plan.entries[i]);
  }
  if (stated.shown !== now.shown) return 'the diff it shows (the plan was made by another version of pla, which shows it differently)';
  if (stated.plan !== now.plan) return 'its digest of the whole plan';
  return undefined;
}

/** Refuses (exit 2, nothing sent) a plan that is not what was reviewed. */
export function checkDigest(plan: Plan, path: string): void {
  const difference = firstDifference(plan);
  if (difference === undefined) return;
  throw new UsageError(`${path} is not the plan that was reviewed: ${difference} no longer matches the plan's digest; nothing was sent`, {
    hint: 'make the plan again (--plan-out FILE), review it, and apply that file unchanged',
  });
}

/** The digest as the prompt and the receipt name it: `sha256:` and 16 hex digits of the whole plan's. */
export function shortDigest(plan: Plan): string | undefined {
  return plan.digest ? `sha256:${plan.digest.plan.slice(0, 16)}` : undefined;
}
