/**
 * One run at a time changes an environment from this machine. Runs that change
 * something (apply, undo, bulk and single writes with a receipt) take a lock per
 * environment under the config folder (`locks/<env>.lock`, proper-lockfile: a
 * folder created atomically, its time refreshed while held, taken over once stale
 * when its holder died). A second run waits for the first to finish, saying so,
 * then goes on: an apply then sees the first one's receipt and its changes.
 *
 * It guards against pla runs on this machine sharing this config folder only:
 * other machines, other config folders and other clients of the service are not
 * held back. Against those, `pla apply` checks each batch's records as close to
 * the write as the service allows (plan/conflicts.ts), which narrows the window
 * but cannot close it: the service has no conditional write.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InUseError, PlaError } from '../errors.js';

/** Held locks are refreshed this often and taken over when this much older (a crashed holder). */
const STALE_MS = 20_000;
/** How long a second run waits before it gives up (exit 10). */
const WAIT_MS = 10 * 60_000;
const PAUSE_MS = 250;

/** The lock file of `env` in `runsDir`'s folder. */
function lockTarget(dir: string, env: string): string {
  return join(dir, 'locks', `${encodeURIComponent(env)}.lock-target`);
}

/**
 * Takes the lock of `env`; `onWait` is told once when another run holds it.
 * Resolves with the function that releases it.
 */
export async function lockEnvironment(configDir: string, env: string, onWait: (line: string) => void): Promise<() => Promise<void>> {
  const { default: lockfile } = await import('proper-lockfile');
  const target = lockTarget(configDir, env);
  try {
    await mkdir(join(configDir, 'locks'), { recursive: true, mode: 0o700 });
    await writeFile(target, '', { flag: 'a', mode: 0o600 });
  } catch (error) {
    throw new PlaError(`cannot take the lock of ${env} in ${join(configDir, 'locks')}: ${(error as Error).message}; nothing was sent`, {
      cause: error,
      hint: 'the config folder must be writable by this user (pla config path); or point PLA_CONFIG_DIR at a folder of your own',
    });
  }
  const options = { realpath: false, stale: STALE_MS, update: STALE_MS / 4, lockfilePath: target.replace(/-target$/, '') } as const;
  const deadline = Date.now() + WAIT_MS;
  let told = false;
  for (;;) {
    try {
      return await lockfile.lock(target, options);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') {
        throw new PlaError(`cannot take the lock of ${env} (${options.lockfilePath}): ${(error as Error).message}; nothing was sent`, { cause: error });
      }
      if (Date.now() > deadline) {
        throw new InUseError(`another pla run is still changing ${env} from this machine (${options.lockfilePath})`, {
          cause: error,
          hint: 'wait for it to finish; a lock left by a run that died is taken over after 20 s',
        });
      }
      if (!told) onWait(`waiting for another pla run on ${env} to finish (one run at a time changes an environment)…`);
      told = true;
    }
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  }
}
