/**
 * The --verbose request trace: one line per attempt as it is sent, one as it is
 * answered or fails, and one per retry. The key appears only masked.
 */
import { maskKey } from '../contract/secrets.js';

/** `→ METHOD url (x-api-key: ••••abcd)`. */
export function sendLine(method: string, url: string, headers: Record<string, string>): string {
  const key = headers['x-api-key'];
  return `→ ${method} ${url} (x-api-key: ${key ? maskKey(key) : 'none'})`;
}

/** `← 200 OK 12 ms`. */
export function answerLine(status: number, statusText: string, elapsedMs: number): string {
  return `← ${status} ${statusText} ${Math.round(elapsedMs)} ms`.replace(/ {2,}/g, ' ');
}

/** `✗ ECONNRESET 3 ms`. */
export function failureLine(error: Error, elapsedMs: number): string {
  const code = (error as { code?: unknown }).code;
  return `✗ ${typeof code === 'string' ? code : error.message} ${Math.round(elapsedMs)} ms`;
}

/** A retry line: `↻ retry 1/3 in 0.8 s after 503`. */
export function retryLine(attempt: number, retries: number, delayMs: number, cause: string): string {
  return `↻ retry ${attempt}/${retries} in ${(delayMs / 1000).toFixed(1)} s after ${cause}`;
}
