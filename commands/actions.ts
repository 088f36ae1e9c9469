/**
 * What each command does when it runs, as data: a handler key and the spec that
 * handler is given. `commands/` only declares (commander trees plus these keys);
 * `src/cli/handlers/registry.ts` implements every key, checked by the compiler
 * (`satisfies` over `ActionSpecs`), and `src/cli/program.ts` installs the actions.
 * So the dependency points one way: src/cli → commands, never back.
 */
import type { Command } from 'commander';
import type { OperationId } from '../src/contract/operations.js';
import type { Noun } from '../src/contract/wording.js';

export type { Noun };

/** An id verb (delete, remove, decommission, cancel, mark read), derived from the contract. */
export interface IdActionSpec {
  /** Operation taking one `{id}`. */
  single: OperationId;
  /** Operation taking an array of ids, when the service has one (the row's `bulk`). */
  bulk?: OperationId;
  /** Operation that reads one record, for `--dry-run` (the row's `read`). */
  lookup?: OperationId;
  /** Imperative, for the prompt: "Delete". */
  verb: string;
  /** Past tense, for the confirmation line: "deleted". */
  done: string;
  noun: Noun;
  /**
   * The service deletes each id or, for a record still in use, decommissions it
   * (remove): the command says which happened to each id.
   */
  deleteOrDecommission?: boolean;
}

/** A verb taking records from --data/--file (create, update, upsert, send …). */
export interface WriteSpec {
  /** Operation for one record. */
  single: OperationId;
  /** Operation taking many records (the row's `bulk`); without one, records are sent one call each. */
  bulk?: OperationId;
  /** Past tense for the confirmation line ("created"). */
  done: string;
}

/** One operation, run as the verb calls for (get, list, meta). */
export interface OperationSpec {
  operationId: OperationId;
}

/** Every handler key and the spec its handler takes (`void`: none). */
export interface ActionSpecs {
  'api.call': void;
  'apply.run': void;
  'config.setKey': void;
  'config.setUrl': void;
  'config.use': void;
  'config.show': void;
  'config.path': void;
  'config.setProxy': void;
  'config.setCa': void;
  'config.setStore': void;
  'config.detect': void;
  'config.setWire': void;
  'config.remove': void;
  'config.rename': void;
  'config.export': void;
  'config.import': void;
  'completion.print': void;
  'doctor.run': void;
  'config.protect': void;
  'config.unprotect': void;
  'determinations.decommission': IdActionSpec;
  'ids.run': IdActionSpec;
  'images.upload': void;
  'notifications.list': void;
  'notifications.count': void;
  'notifications.clear': void;
  'openapi.print': void;
  'records.get': OperationSpec;
  'records.list': OperationSpec;
  'records.show': OperationSpec;
  'records.write': WriteSpec;
  'runs.list': void;
  'runs.show': void;
  'runs.prune': void;
  'runs.undo': void;
  'server.start': void;
  'server.migrate': void;
  'server.keys.create': void;
  'server.keys.list': void;
  'server.keys.revoke': void;
  'server.health': void;
  'server.log': void;
  'server.reset': void;
  'tasks.search': void;
  'tasks.watch': void;
  'topics.list': void;
}

export type ActionKey = keyof ActionSpecs;

/** A declared action: the key and its spec. */
export interface DeclaredAction<K extends ActionKey = ActionKey> {
  key: K;
  spec: ActionSpecs[K];
}

const declared = new WeakMap<Command, DeclaredAction>();

/** Names the handler `command` runs (with its spec); the CLI installs it. */
export function declareAction<K extends ActionKey>(command: Command, key: K, ...spec: ActionSpecs[K] extends void ? [] : [ActionSpecs[K]]): Command {
  declared.set(command, { key, spec: spec[0] } as DeclaredAction);
  return command;
}

/** The action declared on `command`, if any. */
export function declaredAction(command: Command): DeclaredAction | undefined {
  return declared.get(command);
}
