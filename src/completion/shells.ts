/** The shells `pla completion` writes a script for (a module of its own: the command declares them at start-up). */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];
