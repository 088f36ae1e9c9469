/**
 * The client's defaults in one object: `--retries` and `--timeout` help text
 * (commands/global-options.ts), the client and its retry policy read the same
 * values. Plain data, so declaring the commands loads nothing else.
 */
export const CLIENT_DEFAULTS = {
  /** Retries after the first attempt (`--retries`). */
  retries: 3,
  /** Seconds each attempt may take, whole answer included (`--timeout`). */
  timeoutSeconds: 30,
  /** Most bytes one answer may have (`--max-answer-size`): far above any page of 1000 records, far below memory trouble. */
  maxAnswerBytes: 64 * 1024 * 1024,
  /** First backoff wait; it doubles with each retry (full jitter). */
  backoffBaseMs: 500,
  /** Longest backoff wait. */
  backoffCapMs: 20_000,
  /** Longest `Retry-After` honoured. */
  retryAfterCapMs: 60_000,
} as const;
