/**
 * Option groups shared by the command trees (docs/commands.md), declared once.
 * Only commander is imported here: declaring options costs nothing at start-up.
 * Each returns the command with its options' types added, so a handler that
 * reads them is checked against the declaration (src/cli/invocation.ts).
 */
import { type Command, type CommandUnknownOpts, Option, type OptionValues } from '@commander-js/extra-typings';
import { BULK_DEFAULTS } from '../src/bulk/defaults.js';
import { INPUT_FORMATS } from '../src/io/input/types.js';
import type { OperationId } from '../src/contract/operations.js';
import { LIST_FILTERS } from '../src/contract/list-filters.js';
import { collect, commaList, wholeNumber } from './option-parsers.js';

function pageAndSize<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return command.option('--page <n>', 'page number, zero-based', wholeNumber(0)).option('--size <n>', 'records per page', wholeNumber(1));
}

function allOrMaxItems<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return command
    .option('--all', 'stream every page, each record once; exits 9 if the records change meanwhile')
    .option('--max-items <n>', 'stop after this many records (implies --all)', wholeNumber(1))
    .option('--allow-drift', 'with --all: records added or removed meanwhile are a warning, not exit 9');
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

/** The filter flags of a list (src/contract/list-filters.ts), as the handler applies them. */
export function addFilterOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>, operationId: OperationId) {
  // Declared from the table (the handler reads them through it, src/contract/list-filters.ts), so their types stay the table's.
  for (const filter of LIST_FILTERS[operationId]?.filters ?? []) {
    if (filter.values) command.option(`--${filter.flag} <${filter.values.placeholder}>`, filter.description, commaList);
    else command.option(`--${filter.flag}`, filter.description);
  }
  return command;
}

/** `--data`, `--file`, `--format`, `--raw`, `--delimiter`, `--sheet`, `--strict`. */
export function addRecordInputOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return command
    .option('--data <json>', 'the record (or a JSON array of records)')
    .option('--file <path>', 'records from a file: json, ndjson, csv or an .xlsx workbook (- for stdin)')
    .addOption(new Option('--format <format>', 'input format when the extension does not say').choices(INPUT_FORMATS))
    .option('--raw', 'keep csv cells as strings')
    .option('--delimiter <char>', 'csv cell separator: , ; or tab (default: detected from the header)')
    .option('--sheet <name>', 'the sheet of an .xlsx workbook to read (default: its first)')
    .option('--strict', 'stop at the first bad input row instead of skipping it');
}

/** `--batch-size`, `--concurrency`, `--rejects`, `--unknown-outcome`, `--checkpoint` for runs through a bulk endpoint. */
export function addBulkOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return command
    .option('--batch-size <n>', `records or ids per bulk request (default ${BULK_DEFAULTS.batchSize})`, wholeNumber(1))
    .option('--concurrency <n>', `bulk requests in flight (default ${BULK_DEFAULTS.concurrency})`, wholeNumber(1))
    .option('--rejects <file>', 'write failed records here, each with its error')
    .option('--unknown-outcome <file>', 'records the service may or may not have created go here (default unknown-outcome-<run>.<format>)')
    .option('--checkpoint <file>', "the run's progress, on disk before it sends: a rerun with it finishes the job, never sending twice");
}

/** `--force` beside the bulk options: run again a run whose checkpoint says it finished. */
export function addRerunOption<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return command.option('--force', 'run again a run its --checkpoint says finished (a new run: every record is sent again)');
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

/** `--match FIELD` on updates and upserts: rows find their record by a natural key instead of its id. */
export function addMatchOption<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return command.option(
    '--match <field>',
    "find each row's record by this field (a natural key such as code): one match updates it, none creates one, several refuse the row",
  );
}

/** `-y/--yes`, `--dry-run` on destructive commands. */
export function addSafetyOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return command
    .option('-y, --yes', 'do not ask for confirmation (needed when stdin is not a terminal)')
    .option('--dry-run', 'show what would change, change nothing');
}

/** `--ignore-not-found` on delete and remove: an id not found is done, "already gone" (as `kubectl delete --ignore-not-found`). */
export function addIgnoreNotFoundOption<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return command.option('--ignore-not-found', 'an id not found counts as done, "already gone" (exit 0), not as exit 4: for reruns; a mistyped id passes too');
}

/** The examples each command was given, for the help of the group above it. */
const EXAMPLES = new WeakMap<CommandUnknownOpts, string[]>();

/** Adds an "Examples:" section to a command's help. */
export function examples<C extends Command<unknown[], OptionValues, OptionValues>>(command: C, ...lines: string[]): C {
  EXAMPLES.set(command, lines);
  command.addHelpText('after', `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}`);
  return command;
}

/**
 * Gives every group command without examples of its own an "Examples:" section
 * made of its verbs' first examples (a few), so every `--help` shows one.
 */
export function addGroupExamples(command: CommandUnknownOpts): void {
  for (const sub of command.commands) addGroupExamples(sub);
  if (command.commands.length === 0 || EXAMPLES.has(command) || !command.parent) return;
  const firsts = command.commands.flatMap((sub) => (EXAMPLES.get(sub) ?? []).slice(0, 1)).slice(0, 4);
  if (firsts.length > 0) examples(command, ...firsts);
}
