/**
 * What a command prints after a bulk run: what the service returned for each
 * record, in input order (the bulk runner hands answers over in order), in the
 * chosen format. One input record prints as one record, as its single endpoint's
 * answer would; several as rows (a json array, ndjson, csv, `-q` ids).
 */
import type { Accepted } from '../../bulk/split.js';
import { asRow } from '../../io/output/fields.js';
import { createRowWriter, renderRecord, renderRows } from '../../io/output/index.js';
import type { CommandContext } from '../context.js';

/** The records an accepted request answered with (bulk operations answer a list); none for a void answer. */
export function answeredRecords(answer: Accepted): unknown[] {
  return Array.isArray(answer.result.data) ? answer.result.data : [];
}

/** Takes values as they come and prints them; `end` once the run is over (also after a failure). */
export interface AnswerWriter {
  write(values: readonly unknown[]): Promise<void>;
  end(): Promise<void>;
}

/**
 * A writer for a run's answers. With `one` (a single input record sent through
 * the bulk endpoint for --rejects/--checkpoint) its answer prints as one record.
 */
export async function createAnswerWriter(ctx: CommandContext, options: { one?: boolean } = {}): Promise<AnswerWriter> {
  if (options.one) {
    const held: unknown[] = [];
    return {
      write: async (values) => void held.push(...values),
      end: () => (held.length === 1 ? renderRecord(held[0], ctx.output) : held.length > 1 ? renderRows(held, ctx.output) : Promise.resolve()),
    };
  }
  let writer: Awaited<ReturnType<typeof createRowWriter>> | undefined;
  return {
    async write(values) {
      if (values.length === 0) return;
      writer ??= await createRowWriter(ctx.output);
      for (const value of values) await writer.write(asRow(value));
    },
    // A run that answered nothing (deletes, cancels) prints nothing, not an empty array.
    end: async () => writer?.end(),
  };
}
