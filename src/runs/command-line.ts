/** The command line as a receipt or a plan records it: keys masked, arguments quoted where needed. */
import { maskKey } from '../contract/secrets.js';

const SECRET_FLAGS = new Set(['--api-key']);

function quoted(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** `argv` (without node and the script) with every secret replaced by its mask. */
export function maskedCommandLine(argv: readonly string[]): string {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const inline = [...SECRET_FLAGS].find((flag) => arg.startsWith(`${flag}=`));
    if (inline) out.push(`${inline}=${maskKey(arg.slice(inline.length + 1))}`);
    else if (SECRET_FLAGS.has(arg) && i + 1 < argv.length) {
      out.push(arg, maskKey(argv[i + 1] as string));
      i++;
    } else out.push(quoted(arg));
  }
  return out.join(' ');
}
