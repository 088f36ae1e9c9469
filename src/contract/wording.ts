/**
 * The words messages are made of, each written once: the nouns of the contract's
 * resources with their plurals, and `counted` to put a number before one. The
 * past tense of each writing operation is its row's `done` (operations.ts).
 * Plain data, no imports beyond types: the CLI, the bulk runner and the server
 * all word their messages with it.
 */
import type { Resource } from './types.js';

/** A noun with its plural: `['determination', 'determinations']`. */
export type Noun = readonly [singular: string, plural: string];

/** What one record of each resource is called, and several. */
export const NOUNS = {
  determinations: ['determination', 'determinations'],
  settings: ['setting', 'settings'],
  tasks: ['task', 'tasks'],
  notifications: ['notification', 'notifications'],
  'email-notifications': ['e-mail notification', 'e-mail notifications'],
  images: ['image', 'images'],
  topics: ['topic', 'topics'],
} as const satisfies Record<Resource, Noun>;

/** "3 determinations", "1 determination". */
export function counted(n: number, noun: Noun): string {
  return `${n} ${n === 1 ? noun[0] : noun[1]}`;
}

/** "deleted" → "Deleted": the first letter upper-cased, for the start of a sentence. */
export function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
