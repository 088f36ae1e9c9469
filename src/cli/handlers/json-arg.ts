/** JSON given on the command line (`--filter`, `--data`, `--image`) or in a file (`-` = stdin). */
import type { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { UsageError } from '../../errors.js';
import { openInput } from '../../io/input/source.js';
import { parseJson, UnrepresentableNumberError } from '../../json/json-parse.js';

/** JSON inline or in a file; `name` is how the user wrote the option, `stdin` what `-` reads. */
export interface JsonSource {
  inline?: string;
  file?: string;
  name: string;
  stdin?: Readable;
}

/** Parses the JSON of an option or of a file; `undefined` when neither is given. */
export async function readJsonArg(source: JsonSource): Promise<unknown> {
  if (source.inline !== undefined && source.file !== undefined) throw new UsageError(`pass ${source.name} or a file, not both`);
  // openInput: `-` is stdin, and a missing file is a usage error naming it (exit 2).
  const raw = source.file === undefined ? source.inline : await text(await openInput(source.file, source.stdin));
  if (raw === undefined) return undefined;
  try {
    return parseJson(raw, { input: true });
  } catch (error) {
    if (error instanceof UnrepresentableNumberError) throw new UsageError(`${source.file ?? source.name}: ${error.message}`);
    throw new UsageError(`${source.file ?? source.name} is not valid JSON: ${(error as Error).message}`);
  }
}

/** Like `readJsonArg`, and insists on a JSON object. */
export async function readJsonObject(source: JsonSource): Promise<Record<string, unknown> | undefined> {
  const value = await readJsonArg(source);
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new UsageError(`${source.name} must be a JSON object`);
  return value as Record<string, unknown>;
}
