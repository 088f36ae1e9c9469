/**
 * Option groups shared by the command trees (docs/commands.md), declared once.
 * Only commander is imported here: declaring options costs nothing at start-up.
 * Each returns the command with its options' types added, so a handler that
 * reads them is checked against the declaration (src/cli/invocation.ts).
 */
import { type Command, Option, type OptionValues } from '@commander-js/extra-typings';
import { BULK_DEFAULTS } from '../src/bulk/defaults.js';
import { INPUT_FORMATS } from '../src/io/input/types.js';
import { collect, wholeNumber } from './option-parsers.js';

function pageAndSize<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return command.option('--page <n>', 'page number, zero-based', wholeNumber(0)).option('--size <n>', 'records per page', wholeNumber(1));
}

function allOrMaxItems<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return command.option('--all', 'stream every page').option('--max-items <n>', 'stop after this many records (implies --all)', wholeNumber(1));
}

/** `--page`, `--size`, `--sort` (repeatable), `--all`, `--max-items`. */
export function addPagingOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return allOrMaxItems(pageAndSize(command).option('--sort <field,asc|desc>', 'sort criterion, repeatable', collect));
}

/**
 * `--page`, `--size`, `--all`, `--max-items`, without `--sort`: for the
 * notification lists, whose endpoints take page and size only.
 */
export function addPageOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return allOrMaxItems(pageAndSize(command));
}

/** `--data`, `--file`, `--format`, `--raw`, `--delimiter`, `--strict`. */
export function addRecordInputOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return command
    .option('--data <json>', 'the record (or a JSON array of records)')
    .option('--file <path>', 'records from a file: json, ndjson or csv (- for stdin)')
    .addOption(new Option('--format <format>', 'input format when the extension does not say').choices(INPUT_FORMATS))
    .option('--raw', 'keep csv cells as strings')
    .option('--delimiter <char>', 'csv cell separator: , ; or tab (default: detected from the header)')
    .option('--strict', 'stop at the first bad input row instead of skipping it');
}

/** `--batch-size`, `--concurrency`, `--rejects`, `--unknown-outcome`, `--checkpoint` for runs through a bulk endpoint. */
export function addBulkOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return command
    .option('--batch-size <n>', `records or ids per bulk request (default ${BULK_DEFAULTS.batchSize})`, wholeNumber(1))
    .option('--concurrency <n>', `bulk requests in flight (default ${BULK_DEFAULTS.concurrency})`, wholeNumber(1))
    .option('--rejects <file>', 'write failed records here, each with its error')
    .option('--unknown-outcome <file>', 'records the service may or may not have created go here (default unknown-outcome-<run>.<format>)')
    .option('--checkpoint <file>', 'record finished batches here; a re-run resumes');
}

/** `--ids 1,2,3`, `--ids-file F|-`, `--id-field`, next to positional ids. */
export function addIdOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return command
    .option('--ids <list>', 'comma-separated ids')
    .option('--ids-file <file>', 'ids from a file, one a line, or a column of json/ndjson/csv (- for stdin)')
    .option('--id-field <name>', 'the id column in --ids-file (default id)');
}

/**
 * `--plan`, `--plan-out FILE` on commands that write records (read the current
 * state, show what would change, change nothing).
 */
export function addPlanOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return command
    .option('--plan', 'show what would change (current state read, each changed field old → new); change nothing')
    .option('--plan-out <file>', 'save the plan (implies --plan); send exactly it later with `pla apply FILE`');
}

/** `--skip-unchanged` on updates and upserts (after the plan options). */
export function addSkipUnchangedOption<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return command.option('--skip-unchanged', 'leave out records identical to the stored ones (reads the current state first)');
}

/** `-y/--yes`, `--dry-run` on destructive commands. */
export function addSafetyOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return command.option('-y, --yes', 'do not ask for confirmation (needed when stdin is not a terminal)').option('--dry-run', 'show what would change, change nothing');
}

/** Adds an "Examples:" section to a command's help. */
export function examples<C extends Command<unknown[], OptionValues, OptionValues>>(command: C, ...lines: string[]): C {
  command.addHelpText('after', `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}`);
  return command;
}
