import { redactSecrets } from '../contract/secrets.js';
import { ApiError, PlaError } from '../errors.js';
import { terminalSafe } from '../contract/terminal-text.js';
import { hintFor, type KeyOrigin } from './error-hints.js';
import { jsonText } from '../json/json-text.js';

/**
 * The one place a failure becomes text: `error: <message>`, then a hint line when
 * there is one (error-hints.ts), and with `--verbose` the full problem body (or the stack of an
 * unexpected error). Known keys are masked in case a message echoes one.
 */
export function formatError(error: unknown, options: { verbose: boolean; secrets: readonly string[]; keyFrom?: KeyOrigin }): string {
  const lines: string[] = [];
  if (error instanceof PlaError) {
    lines.push(`error: ${error.message}`);
    const hint = hintFor(error, options.keyFrom);
    if (hint) lines.push(`hint: ${hint}`);
    const detail = error instanceof ApiError ? (error.problem ?? error.detail) : error.detail;
    if (options.verbose && detail !== undefined) {
      lines.push(typeof detail === 'string' ? detail : jsonText(detail, 2));
    }
    if (options.verbose && error.cause instanceof Error) lines.push(`cause: ${error.cause.message}`);
  } else if (error instanceof Error) {
    lines.push(`error: ${error.message}`);
    lines.push(options.verbose ? (error.stack ?? '') : `hint: ${hintFor(error)}`);
  } else {
    lines.push(`error: ${String(error)}`);
  }
  // Messages quote the service and input files: shown, never obeyed, by the terminal.
  return `${terminalSafe(redactSecrets(lines.filter(Boolean).join('\n'), options.secrets))}\n`;
}
