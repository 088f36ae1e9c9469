/**
 * The admin key a local server's first start creates: shown once, on the terminal
 * of the command that started it (a foreground start, or the command that started
 * a detached one), never in a log file (a detached server's log has it masked).
 */
/** How a first start's admin key is introduced (the detached parent finds it in the log by this). */
export const NEW_ADMIN_KEY = '  New admin key:';

/** The lines that show a first start's admin key, once, on a terminal. */
export function newAdminKeyLines(key: string, env: string): string[] {
  return [
    `${NEW_ADMIN_KEY} ${key}`,
    `  It is shown only this once and saved for environment "${env}" in the pla config.`,
    '  Keep it somewhere safe if you need it elsewhere; the server keeps only its hash.',
  ];
}
