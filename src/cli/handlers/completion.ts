/** `pla completion <shell>`: prints the completion script (src/completion/scripts.ts). */
import { writeOut } from '../../io/output/write-out.js';
import type { Invocation } from '../invocation.js';
import { SHELLS, type Shell, completionScript } from '../../completion/scripts.js';

export async function print(invocation: Invocation): Promise<void> {
  const shell = String(invocation.args[0]);
  // commander checked the choice; the type guard keeps the compiler in step.
  if ((SHELLS as readonly string[]).includes(shell)) await writeOut(invocation.io.stdout, completionScript(shell as Shell));
}
