/**
 * Answers nested deeper than pla reads. V8's `JSON.parse` takes any depth, but
 * what walks a value afterwards recurses (the exact number reader, envelopes,
 * `-o json`, `--verbose`), and a call stack holds a few thousand levels: an answer
 * nested 5,000 deep ended in "Maximum call stack size exceeded", exit 1, "a bug".
 * Records nest a few levels; an answer past `MAX_ANSWER_DEPTH` is the service's
 * fault, said as such by answer.ts (exit 11).
 */

/** Containers inside containers an answer may hold (1,000, as Python's json reads by default). */
export const MAX_ANSWER_DEPTH = 1000;

/** What an answer too deep for the exact reader is read as: a stand-in that says so, never its content. */
export class TooDeepAnswer {
  toJSON(): string {
    return `(JSON nested deeper than pla reads: not read)`;
  }
}

/** Whether `value` holds containers nested more than `limit` deep; level by level, so the walk itself cannot overflow. */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  let level: object[] = typeof value === 'object' && value !== null ? [value] : [];
  for (let depth = 1; level.length > 0; depth++) {
    if (depth > limit) return true;
    const next: object[] = [];
    for (const container of level) {
      const children: unknown[] = Array.isArray(container) ? container : Object.values(container);
      for (const child of children) if (typeof child === 'object' && child !== null) next.push(child);
    }
    level = next;
  }
  return false;
}
