/** `pla completion <shell>`: prints the completion script (src/completion/scripts.ts). */
import { writeOut } from '../../io/output/write-out.js';
import type { Invocation } from '../invocation.js';
import { type Shell, completionScript } from '../../completion/scripts.js';

/** Prints the script for the shell commander checked against the choices. */
export async function print(invocation: Invocation<[shell: Shell]>): Promise<void> {
  await writeOut(invocation.io.stdout, completionScript(invocation.args[0]));
}
