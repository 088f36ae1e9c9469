/**
 * The verbs determinations, settings and tasks share, each declared with the
 * contract operation behind it (typed: a misspelt id does not compile). What a
 * verb needs besides its operation comes from the operation's row: its bulk
 * counterpart (several records or ids in one request), the read `--dry-run`
 * shows, the past tense of its confirmation and the resource's noun. Id verbs
 * (delete, remove, decommission, cancel, mark read …) are built by `addIdVerb`,
 * which the other trees reuse.
 */
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { operation, pastTense, removesRecords, type OperationId, type WritingOperationId } from '../src/contract/operations.js';
import { NOUNS } from '../src/contract/wording.js';
import type { IdActionSpec } from '../src/cli/handlers/id-actions.js';
import { runs } from '../src/cli/invocation.js';
import { LIST_FILTERS } from '../src/contract/list-filters.js';
import type { Tree } from './tree.js';
import {
  addBulkOptions,
  addRerunOption,
  addFilterOptions,
  addIdOptions,
  addIgnoreNotFoundOption,
  addPagingOptions,
  addPlanOptions,
  addRecordInputOptions,
  addSafetyOptions,
  addSkipUnchangedOption,
  addMatchOption,
  examples,
} from './options.js';

/** The id action of `single` (`verb` is the imperative for the prompt, "Delete"); the rest comes from its row. */
export function idAction(single: WritingOperationId, verb: string): IdActionSpec {
  const op = operation(single);
  return { single, bulk: op.bulk, lookup: op.read, verb, done: pastTense(single), noun: NOUNS[op.resource] };
}

/**
 * The options of a verb on `[ids...]`: the bulk, safety and plan options only
 * where `spec`'s operation has what they need (its handler reads them as
 * optional, which they are).
 */
export function addIdVerbOptions<G extends OptionValues>(command: Command<[string[]], {}, G>, spec: IdActionSpec) {
  const withIds = addIdOptions(command);
  if (spec.bulk) addRerunOption(addBulkOptions(withIds));
  if (operation(spec.single).destructive) addSafetyOptions(withIds);
  if (removesRecords(spec.single)) addIgnoreNotFoundOption(withIds);
  if (spec.bulk && spec.lookup) addPlanOptions(withIds);
  return withIds;
}

/** A verb on `[ids...]`: single endpoint for one id, bulk or one call each for several. */
export function addIdVerb(tree: Tree, name: string, description: string, spec: IdActionSpec, example: string) {
  const command = addIdVerbOptions(tree.command(`${name} [ids...]`).description(description), spec);
  examples(command, example);
  return runs(command, async () => {
    const { runIdAction } = await import('../src/cli/handlers/id-actions.js');
    return (invocation) => runIdAction(invocation, spec);
  });
}

/** `delete [ids...]` for any resource: confirmation, `--dry-run`, bulk where there is one. */
export function addDeleteVerb(tree: Tree, single: WritingOperationId, example: string) {
  const noun = NOUNS[operation(single).resource];
  return addIdVerb(tree, 'delete', `delete ${noun[1]} by id`, idAction(single, 'Delete'), example);
}

/** A verb taking records from --data/--file: one record → `single`, several → its bulk counterpart (or one call each). */
export function addWriteVerb(tree: Tree, name: string, single: WritingOperationId, description: string, example: string) {
  const op = operation(single);
  const takesId = op.pathParams.some((p) => p.name === 'id');
  const command = addRecordInputOptions(tree.command(takesId ? `${name} [id]` : name).description(description));
  if (op.bulk) addRerunOption(addBulkOptions(command));
  if (op.bulk) addPlanOptions(command);
  if (op.bulk && name !== 'create') addMatchOption(addSkipUnchangedOption(command));
  examples(command, example);
  const spec = { single, bulk: op.bulk, done: pastTense(single) };
  return runs(command, async () => {
    const { write } = await import('../src/cli/handlers/records.js');
    return (invocation) => write(invocation, spec);
  });
}

/** The record verbs a tree has, each naming the operation behind it. */
export interface RecordVerbs {
  get?: OperationId;
  list?: OperationId;
  create?: WritingOperationId;
  update?: WritingOperationId;
  upsert?: WritingOperationId;
  delete?: WritingOperationId;
  meta?: OperationId;
}

/**
 * Adds get, list, create, update, upsert, delete and meta to `tree`, each that
 * `verbs` names. The tree's name is the command name used in examples.
 */
export function addRecordVerbs(tree: Tree, verbs: RecordVerbs): Tree {
  const name = tree.name();
  const anyOp = verbs.get ?? verbs.list;
  const noun = anyOp ? NOUNS[operation(anyOp).resource] : ([name, name] as const);

  const { get: getOp, list: listOp, meta: metaOp } = verbs;
  if (getOp) {
    const get = addIdOptions(tree.command('get [ids...]').description(`show ${noun[1]} by id`));
    examples(get, `pla ${name} get 42`, `pla ${name} get 42 43 -o json`);
    runs(get, async () => {
      const { get: getRecords } = await import('../src/cli/handlers/get.js');
      return (invocation) => getRecords(invocation, getOp);
    });
  }
  if (listOp) {
    const list = addFilterOptions(addPagingOptions(tree.command('list').description(`list ${noun[1]}, a page at a time or --all`)), listOp);
    const filter = LIST_FILTERS[listOp]?.filters[0];
    examples(
      list,
      `pla ${name} list --size 20 --sort updatedAt,desc`,
      `pla ${name} list --all -o ndjson > ${noun[1]}.ndjson`,
      ...(filter?.values ? [`pla ${name} list --${filter.flag} ${/e\.g\. (\S+)/.exec(filter.description)?.[1] ?? ''}`] : []),
    );
    runs(list, async () => {
      const { list: listRecords } = await import('../src/cli/handlers/records.js');
      return (invocation) => listRecords(invocation, listOp);
    });
  }
  if (verbs.create) {
    addWriteVerb(
      tree,
      'create',
      verbs.create,
      `create ${noun[1]} (several records use the bulk endpoint)`,
      `pla ${name} create --file new.csv --rejects rejects.csv`,
    );
  }
  if (verbs.update) {
    addWriteVerb(
      tree,
      'update',
      verbs.update,
      `update a ${noun[0]} by id, or several records carrying "id"`,
      `pla ${name} update 42 --data '{"description": "corrected"}'`,
    );
  }
  if (verbs.upsert) {
    addWriteVerb(
      tree,
      'upsert',
      verbs.upsert,
      `create or update ${noun[1]} (records with "id" are updated)`,
      `pla ${name} upsert --file ${noun[1]}.ndjson --checkpoint run.ckpt`,
    );
  }
  if (verbs.delete) {
    addDeleteVerb(tree, verbs.delete, `pla ${name} delete 7 8 9 --dry-run`);
  }
  if (metaOp) {
    const meta = tree.command('meta').description(`show the service's metadata for ${noun[1]}`);
    examples(meta, `pla ${name} meta -o json`);
    runs(meta, async () => {
      const { show } = await import('../src/cli/handlers/records.js');
      return (invocation) => show(invocation, metaOp);
    });
  }
  return tree;
}
