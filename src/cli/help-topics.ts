/**
 * `pla help <topic>`: short guides to what no single command's help explains,
 * each pointing to the document with the details. Plain text, loaded only when
 * asked for.
 */
import { exitCodesText } from './help-exit-codes.js';

/** A topic: its one-line description (for the list) and its text. */
interface HelpTopic {
  summary: string;
  text: () => string;
}

export const HELP_TOPICS: Record<string, HelpTopic> = {
  environments: {
    summary: 'where pla sends its calls: environments, keys, precedence',
    text: () => `Environments

Every call goes to one environment: a base URL and an API key kept in the pla
config (file mode 0600; PLA_CONFIG_DIR moves it). Built in: local, development,
qa, production; add any other with set-url.

  pla config set-url https://pla.example.com --env qa
  pla config set-key --env qa            # hidden prompt, or from stdin
  pla config use qa                      # the default from now on
  pla -e production det list             # one command elsewhere
  pla config show                        # every environment, keys masked

Precedence: a flag (-e, --base-url, --api-key) beats a variable (PLA_ENV,
PLA_BASE_URL, PLA_API_KEY), which beats the config. production is protected:
destructive commands ask you to type its name, and runs there keep receipts
(pla runs list). A local server feeds an environment of its own (pla help
local-server). Details: docs/client.md.
`,
  },
  'bulk-files': {
    summary: 'json, ndjson, csv and .xlsx input for create, update, upsert and ids',
    text: () => `Bulk files

create, update and upsert take records from --data, --file FILE or stdin
(--file -): a JSON array, ndjson (one record a line), csv with a header row or
an .xlsx workbook (--sheet NAME, else its first); --format says which when the
extension does not. Sheet cells take the types the service declares for their
fields (1000 stays text in a text field, WAHR/TRUE is a boolean); a cell that is
none of its type refuses its row. --match code finds records by a natural key.
Ids for delete, decommission and cancel come as arguments, --ids,
or --ids-file (one a line, or a column named by --id-field).

  pla det upsert --file records.csv --rejects rejects.csv --checkpoint run.ckpt
  pla tasks list --status PENDING --all -q | pla tasks cancel --ids-file - --yes

Records go in batches (--batch-size, --concurrency); every row ends sent,
unchanged, refused or unreadable, the last two in the rejects file. Exit 9 when
some failed. Details: README "Import a sheet, with rejects and a checkpoint".
`,
  },
  plans: {
    summary: 'see a change before making it: --plan, --plan-out, pla apply, undo',
    text: () => `Plans

Write commands take --plan: pla reads the records the change touches and shows
each changed field old -> new, and changes nothing. --plan-out FILE saves the
plan; pla apply FILE sends exactly it later, on the environment it was made
for, and stops if a record changed in between.

  pla det upsert --file fixes.csv --plan-out fixes.plan.json
  pla apply fixes.plan.json
  pla runs list                          # receipts of runs on protected environments
  pla runs undo last                     # a plan that puts the records back

On a terminal a long plan opens in the pager ($PAGER, else less -FRX).
Details: README "Change production safely: plan, review, apply, undo".
`,
  },
  'exit-codes': { summary: 'what each exit status means', text: exitCodesText },
  'local-server': {
    summary: 'pla server: the whole service on your machine',
    text: () => `The local server

  pla server start                       # http://127.0.0.1:4010, data in ./pla-data
  pla server start --port 0 --data /tmp/fin2   # feeds environment local-fin2
  pla server start --env-name fin2 --lenient --log-format json
  URL=$(pla server start --detach -q --port 0)   # -q: the URL alone

The default folder and port feed environment local; any other folder or port
gets an environment of its own and never takes over one holding another
folder's key. It prints a line per request (--no-request-log: none) and keeps
the last 500 with their bodies, keys masked (pla server log). Record fields the demo
data uses are typed: a wrong type is a 400, as the service would answer
(--lenient accepts anything). http://127.0.0.1:4010/ names the API and
/openapi.json. Lost the admin key? Stop the server and run
pla server keys create --data DIR --name recovery. Details: docs/server.md.
`,
  },
};

/** The list `pla help` ends with. */
export function topicList(): string {
  const width = Math.max(...Object.keys(HELP_TOPICS).map((name) => name.length));
  return Object.entries(HELP_TOPICS)
    .map(([name, topic]) => `  pla help ${name.padEnd(width)}  ${topic.summary}`)
    .join('\n');
}
