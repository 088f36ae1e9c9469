/**
 * Option groups shared by the command trees (docs/commands.md), declared once.
 * Only commander is imported here: declaring options costs nothing at start-up.
 */
import { type Command, Option } from 'commander';
import { BULK_DEFAULTS } from '../src/bulk/defaults.js';
import { collect, wholeNumber } from './option-parsers.js';

/**
 * `--page`, `--size`, `--sort` (repeatable), `--all`, `--max-items`. Without `sort`
 * (the notification lists, whose endpoints take page and size only) no `--sort`.
 */
export function addPagingOptions(command: Command, { sort = true }: { sort?: boolean } = {}): Command {
  command.option('--page <n>', 'page number, zero-based', wholeNumber(0)).option('--size <n>', 'records per page', wholeNumber(1));
  if (sort) command.option('--sort <field,asc|desc>', 'sort criterion, repeatable', collect);
  return command
    .option('--all', 'stream every page')
    .option('--max-items <n>', 'stop after this many records (implies --all)', wholeNumber(1));
}

/** `--data`, `--file`, `--format`, `--raw`, `--delimiter`, `--strict`. */
export function addRecordInputOptions(command: Command): Command {
  return command
    .option('--data <json>', 'the record (or a JSON array of records)')
    .option('--file <path>', 'records from a file: json, ndjson or csv (- for stdin)')
    .addOption(new Option('--format <format>', 'input format when the extension does not say').choices(['json', 'ndjson', 'csv']))
    .option('--raw', 'keep csv cells as strings')
    .option('--delimiter <char>', 'csv cell separator: , ; or tab (default: detected from the header)')
    .option('--strict', 'stop at the first bad input row instead of skipping it');
}

/** `--batch-size`, `--concurrency`, `--rejects`, `--unknown-outcome`, `--checkpoint` for runs through a bulk endpoint. */
export function addBulkOptions(command: Command): Command {
  return command
    .option('--batch-size <n>', `records or ids per bulk request (default ${BULK_DEFAULTS.batchSize})`, wholeNumber(1))
    .option('--concurrency <n>', `bulk requests in flight (default ${BULK_DEFAULTS.concurrency})`, wholeNumber(1))
    .option('--rejects <file>', 'write failed records here, each with its error')
    .option('--unknown-outcome <file>', 'records the service may or may not have created go here (default unknown-outcome-<run>.<format>)')
    .option('--checkpoint <file>', 'record finished batches here; a re-run resumes');
}

/** `--ids 1,2,3`, `--ids-file F|-`, `--id-field`, next to positional ids. */
export function addIdOptions(command: Command): Command {
  return command
    .option('--ids <list>', 'comma-separated ids')
    .option('--ids-file <file>', 'ids from a file, one a line, or a column of json/ndjson/csv (- for stdin)')
    .option('--id-field <name>', 'the id column in --ids-file (default id)');
}

/**
 * `--plan`, `--plan-out FILE` on commands that write records (read the current
 * state, show what would change, change nothing); `--skip-unchanged` on updates
 * and upserts.
 */
export function addPlanOptions(command: Command, options: { skipUnchanged?: boolean } = {}): Command {
  command
    .option('--plan', 'show what would change (current state read, each changed field old → new); change nothing')
    .option('--plan-out <file>', 'save the plan (implies --plan); send exactly it later with `pla apply FILE`');
  if (options.skipUnchanged) command.option('--skip-unchanged', 'leave out records identical to the stored ones (reads the current state first)');
  return command;
}

/** `-y/--yes`, `--dry-run` on destructive commands. */
export function addSafetyOptions(command: Command): Command {
  return command.option('-y, --yes', 'do not ask for confirmation (needed when stdin is not a terminal)').option('--dry-run', 'show what would change, change nothing');
}

/** Adds an "Examples:" section to a command's help. */
export function examples(command: Command, ...lines: string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}`);
}
