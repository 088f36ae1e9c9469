/** JSON given on the command line (`--filter`, `--data`, `--image`) or in a file (`-` = stdin). */
import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { UsageError } from '../../errors.js';

/**
 * Parses the JSON of an option or of a file; `undefined` when neither is given.
 * `name` is how the user wrote it, for the error message.
 */
export async function readJsonArg(source: { inline?: string; file?: string; name: string }): Promise<unknown> {
  if (source.inline !== undefined && source.file !== undefined) throw new UsageError(`pass ${source.name} or a file, not both`);
  const raw = source.file === undefined ? source.inline : source.file === '-' ? await text(process.stdin) : await readFile(source.file, 'utf8');
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch (error) {
    throw new UsageError(`${source.file ?? source.name} is not valid JSON: ${(error as Error).message}`);
  }
}

/** Like `readJsonArg`, and insists on a JSON object. */
export async function readJsonObject(source: { inline?: string; file?: string; name: string }): Promise<Record<string, unknown> | undefined> {
  const value = await readJsonArg(source);
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new UsageError(`${source.name} must be a JSON object`);
  return value as Record<string, unknown>;
}
