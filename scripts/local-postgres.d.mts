/** Types of `local-postgres.mjs` (a plain module, so that scripts and benches run it without a build). */
export interface LocalPostgres {
  port: number;
  dir: string;
  /** `postgres://pla@127.0.0.1:<port>/<database>` (default database `postgres`). */
  url(database?: string): string;
  /** Starts the stopped cluster again on the same port. */
  start(): Promise<void>;
  /**
   * Shuts the cluster down cleanly (it can be started again); `immediate` abruptly
   * (SIGQUIT: sessions cut, no checkpoint, recovery from the WAL at the next start).
   */
  stop(options?: { immediate?: boolean }): Promise<void>;
  /** Stops for good and removes the temporary folder it made. */
  close(): Promise<void>;
}

export interface LocalPostgresOptions {
  dir?: string;
  port?: number;
  /** false turns fsync off (tests: only server processes crash, never the machine). Default true. */
  durable?: boolean;
  user?: string;
  /** File to append PostgreSQL's log to. */
  log?: string;
}

export function startLocalPostgres(options?: LocalPostgresOptions): Promise<LocalPostgres>;
export function freePort(): Promise<number>;
