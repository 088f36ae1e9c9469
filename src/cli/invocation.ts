/** What a handler gets when its command runs (see lazy-action.ts). */
import type { IOStreams } from '../io/streams.js';

export interface Invocation {
  /** Declared positional arguments, as commander processed them (variadic ones are arrays). */
  args: unknown[];
  /** The command's options merged with the global ones. */
  opts: Record<string, unknown>;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
  /** The streams and terminal facts of this run. */
  io: IOStreams;
}

/** A handler: runs one command with its invocation and the spec its declaration gave. */
export type Handler<Spec> = (invocation: Invocation, spec: Spec) => Promise<void>;
