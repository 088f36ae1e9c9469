import { EXIT_CODE_HELP } from '../errors.js';

/** The text of `pla help exit-codes`. */
export function exitCodesText(): string {
  return `Exit codes:\n${EXIT_CODE_HELP.map(([code, text]) => `  ${String(code).padStart(3)}  ${text}`).join('\n')}\n`;
}
