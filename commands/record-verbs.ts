/**
 * The verbs determinations, settings and tasks share, derived from the contract
 * table: a verb exists when its operation does (tasks have no create or delete),
 * and a bulk operation next to it makes the verb take several records or ids.
 * Id verbs (delete, remove, decommission, cancel, mark read …) are built by
 * `addIdVerb`, which the other trees reuse.
 */
import type { Command } from 'commander';
import { OPERATIONS, operation } from '../src/contract/operations.js';
import { declareAction, type IdActionSpec, type Noun } from './actions.js';
import { addBulkOptions, addIdOptions, addPagingOptions, addPlanOptions, addRecordInputOptions, addSafetyOptions, examples } from './options.js';

const has = (id: string): boolean => OPERATIONS.some((op) => op.id === id);

/** The bulk counterpart of an operation, when the contract has one. */
const bulkOf = (id: string): string | undefined => (has(`${id}Bulk`) ? `${id}Bulk` : undefined);

/**
 * The id action of `single` ("Delete", "deleted"), with its bulk operation and the
 * read that `--dry-run` shows, where the contract has them.
 */
export function idAction(single: string, verb: string, done: string, noun: Noun): IdActionSpec {
  const lookup = `${operation(single).resource}.get`;
  return { single, bulk: bulkOf(single), lookup: has(lookup) ? lookup : undefined, verb, done, noun };
}

/** A verb on `[ids...]`: single endpoint for one id, bulk or one call each for several. */
export function addIdVerb(tree: Command, name: string, description: string, spec: IdActionSpec, example: string): Command {
  const command = tree.command(`${name} [ids...]`).description(description);
  addIdOptions(command);
  if (spec.bulk) addBulkOptions(command);
  if (operation(spec.single).destructive) addSafetyOptions(command);
  if (spec.bulk && spec.lookup) addPlanOptions(command);
  examples(command, example);
  return declareAction(command, 'ids.run', spec);
}

/** `delete [ids...]` for any resource: confirmation, `--dry-run`, bulk where there is one. */
export function addDeleteVerb(tree: Command, single: string, noun: Noun, example: string): Command {
  return addIdVerb(tree, 'delete', `delete ${noun[1]} by id`, idAction(single, 'Delete', 'deleted', noun), example);
}

/** A verb taking records from --data/--file: one record → `single`, several → bulk (or one call each). */
export function addWriteVerb(tree: Command, name: string, single: string, description: string, example: string, done: string): Command {
  const bulk = bulkOf(single);
  const takesId = operation(single).pathParams.some((p) => p.name === 'id');
  const command = tree.command(takesId ? `${name} [id]` : name).description(description);
  addRecordInputOptions(command);
  if (bulk) addBulkOptions(command);
  if (bulk) addPlanOptions(command, { skipUnchanged: name !== 'create' });
  examples(command, example);
  return declareAction(command, 'records.write', { single, bulk, done });
}

/**
 * Adds get, list, create, update, upsert, delete and meta to `tree` for whichever
 * of them `resource` has. `name` is the command name used in examples.
 */
export function addRecordVerbs(tree: Command, resource: string, noun: Noun): Command {
  const name = tree.name();
  const op = (verb: string) => `${resource}.${verb}`;

  if (has(op('get'))) {
    const get = tree.command('get [ids...]').description(`show ${noun[1]} by id`);
    addIdOptions(get);
    examples(get, `pla ${name} get 42`, `pla ${name} get 42 43 -o json`);
    declareAction(get, 'records.get', { operationId: op('get') });
  }
  if (has(op('list'))) {
    const list = tree.command('list').description(`list ${noun[1]}, a page at a time or --all`);
    addPagingOptions(list);
    examples(list, `pla ${name} list --size 20 --sort updatedAt,desc`, `pla ${name} list --all -o ndjson > ${noun[1]}.ndjson`);
    declareAction(list, 'records.list', { operationId: op('list') });
  }
  if (has(op('create'))) {
    addWriteVerb(tree, 'create', op('create'), `create ${noun[1]} (several records use the bulk endpoint)`, `pla ${name} create --file new.csv --rejects rejects.csv`, 'created');
  }
  if (has(op('update'))) {
    addWriteVerb(tree, 'update', op('update'), `update a ${noun[0]} by id, or several records carrying "id"`, `pla ${name} update 42 --data '{"description": "corrected"}'`, 'updated');
  }
  if (has(op('upsert'))) {
    addWriteVerb(tree, 'upsert', op('upsert'), `create or update ${noun[1]} (records with "id" are updated)`, `pla ${name} upsert --file ${noun[1]}.ndjson --checkpoint run.ckpt`, 'saved');
  }
  if (has(op('delete'))) {
    addDeleteVerb(tree, op('delete'), noun, `pla ${name} delete 7 8 9 --dry-run`);
  }
  if (has(op('meta'))) {
    const meta = tree.command('meta').description(`show the service's metadata for ${noun[1]}`);
    examples(meta, `pla ${name} meta -o json`);
    declareAction(meta, 'records.show', { operationId: op('meta') });
  }
  return tree;
}
