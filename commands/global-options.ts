/**
 * Global options (docs/commands.md): declared on the program, recognised before or
 * after the subcommand, read by handlers through their invocation's `opts`.
 */
import { type Command, Option, type OptionValues } from '@commander-js/extra-typings';
import { CLIENT_DEFAULTS } from '../src/client/defaults.js';
import { OUTPUT_FORMATS } from '../src/io/output/types.js';
import { byteSize, commaList, seconds, wholeNumber } from './option-parsers.js';

/** Declares the global options on the program; their types follow from the declaration. */
export function addGlobalOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(program: Command<A, O, G>) {
  return program
    .option('-e, --env <name>', 'environment: local, development, qa, production or one you added (env PLA_ENV)')
    .option('--base-url <url>', "override the environment's base URL (env PLA_BASE_URL)")
    .option('--api-key <key>', 'override the API key; visible in the process list (env PLA_API_KEY)')
    .addOption(new Option('-o, --output <format>', 'table (terminal default), json (piped default), ndjson, csv, xlsx (with --out)').choices(OUTPUT_FORMATS))
    .option('--out <file>', 'the workbook -o xlsx writes')
    .option('--fields <a,b,c>', 'fields/columns to show', commaList)
    .option('--query <jmespath>', `JMESPath expression applied to the output, as aws does, e.g. "[?status=='ACTIVE'].id"`)
    .option('--wide', 'tables: every column and every character (on a terminal they are fitted to its width)')
    .option('-q, --quiet', 'print ids only, one per line (server start: its URL)')
    .option('--retries <n>', `retries after the first attempt on 429/5xx/network errors (default ${CLIENT_DEFAULTS.retries})`, wholeNumber(0))
    .option('--retry-unsafe', 'also repeat calls that create after a 5xx, timeout or reset (may create twice unless the service honours Idempotency-Key)')
    .option('--timeout <seconds>', `deadline of each attempt, whole answer included (default ${CLIENT_DEFAULTS.timeoutSeconds})`, seconds)
    .option('--max-answer-size <size>', `largest answer accepted, e.g. 200MB (default ${CLIENT_DEFAULTS.maxAnswerBytes / 1024 / 1024}MB)`, byteSize)
    .option('--csv-raw', "csv cells as they are: no ' before a cell starting with = + - @ (written), none removed (read)")
    .option('--verbose', 'trace requests and show full error bodies on stderr (key redacted)')
    .option('--no-color', 'no colour (also NO_COLOR=1)');
}

/** The options of a declared command. */
export type OptionsOf<C> = C extends Command<unknown[], infer O, OptionValues> ? O : never;

/** The global options as commander hands them over (`color` is false with --no-color). */
export type GlobalOptions = OptionsOf<ReturnType<typeof addGlobalOptions<[], {}, {}>>>;
