/**
 * Input rows refused or unreadable where no bulk run takes them (verbs sent one
 * call each): they still go to a rejects file, each once with its line and why,
 * and make the exit 9. No row vanishes because its command has no bulk endpoint.
 */
import { PartialFailureError } from '../../errors.js';
import type { BadRow } from '../../io/input/types.js';
import type { CommandContext } from '../context.js';

/**
 * Writes `rows` to `--rejects` (else `rejects-<run>.ndjson` beside `input`, else
 * here), says each on stderr, and gives the partial failure that names the file;
 * `undefined` when there are none.
 */
export async function refuseRows(
  ctx: CommandContext<{ rejects?: string }>,
  rows: readonly BadRow[],
  options: { input?: string; feedBack: '--file' | '--ids-file' },
): Promise<PartialFailureError | undefined> {
  if (rows.length === 0) return undefined;
  const [{ RejectsFile, defaultRejectsPath }, { newRunId }, { formatFromPath }] = await Promise.all([
    import('../../bulk/rejects.js'),
    import('../../runs/run-id.js'),
    import('../../io/input/format.js'),
  ]);
  const beside = options.input === '-' ? undefined : options.input;
  const path = ctx.opts.rejects ?? defaultRejectsPath(newRunId(), 'ndjson', beside, ctx.cwd);
  const rejects = new RejectsFile(path, formatFromPath(path) ?? 'ndjson');
  await rejects.open();
  for (const row of rows) {
    ctx.warn(`${row.record ? 'refused' : 'skipped'} line ${row.line}: ${row.message}`);
    if (row.record) await rejects.write([{ value: row.record, line: row.line, error: row.message }]);
    else await rejects.writeUnreadable(row);
  }
  await rejects.close();
  return new PartialFailureError(`${rows.length} input row(s) were refused or unreadable and not sent: see ${path}`, {
    hint: `fix them there and feed the file back with ${options.feedBack} ${path} (the _error, _line and _raw fields are ignored)`,
  });
}
