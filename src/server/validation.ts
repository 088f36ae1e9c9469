/**
 * Runs a contract schema and turns its failure into a 400 problem naming every
 * field path (`body[0].id`, `size`, …).
 */
import type { z } from 'zod';
import { HttpProblem } from './problem.js';

/** `['body', 0, 'id']` → `body[0].id`. */
function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else text += text ? `.${String(part)}` : String(part);
  }
  return text;
}

/** Parses `value` with `schema`; 400 listing each issue under `location` (e.g. `body`) otherwise. */
export function validate<T>(schema: z.ZodType<T>, value: unknown, location?: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const at = (path: readonly PropertyKey[]) => formatPath(location ? [location, ...path] : path) || 'body';
  // An unknown field is reported at its own path, not at the object holding it.
  const errors = result.error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ path: at([...issue.path, key]), message: 'unknown field' }))
      : [{ path: at(issue.path), message: issue.message }],
  );
  const detail = errors.map((e) => `${e.path}: ${e.message}`).join('; ');
  throw new HttpProblem(400, detail, { slug: 'validation', errors });
}
