/** Saving a plan (`--plan-out`) and reading it back (`pla apply`), refusing anything else. */
import { isOperationId } from '../contract/operations.js';
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { jsonText } from '../json/json-text.js';
import { parseJson } from '../json/json-parse.js';
import { replacePrivateFile } from '../io/private-files.js';
import { checkDigest } from './plan-digest.js';
import type { Plan } from './types.js';

/** Writes the plan atomically (temporary file, then rename), readable by its owner only, never through a link. */
export async function savePlan(path: string, plan: Plan): Promise<void> {
  await replacePrivateFile(path, `${jsonText(plan, 1)}\n`, { what: 'plan file' });
}

/** Reads a plan written by `--plan-out`; a file that is not one, or not as it was reviewed (plan-digest.ts), is a usage error (exit 2). */
export async function loadPlan(path: string): Promise<Plan> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read plan ${path}: ${(error as Error).message}`);
  }
  let plan: Plan;
  try {
    plan = parseJson(text) as Plan;
  } catch {
    throw new UsageError(`${path} is not a plan (not JSON)`, { hint: 'make one with --plan-out FILE on a write command' });
  }
  if (plan?.kind !== 'pla-plan' || plan.version !== 1 || !Array.isArray(plan.entries) || typeof plan.env !== 'string' || typeof plan.baseUrl !== 'string') {
    throw new UsageError(`${path} is not a pla plan`, { hint: 'make one with --plan-out FILE on a write command' });
  }
  // The file is data from disk: every operation it names must be one of the contract's.
  const unknown = Object.values(plan.operations ?? {}).filter((id) => typeof id !== 'string' || !isOperationId(id));
  if (unknown.length > 0) throw new UsageError(`${path} names operations this pla does not have: ${unknown.join(', ')}`);
  checkDigest(plan, path);
  return plan;
}
