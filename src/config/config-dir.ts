import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The folder holding `config.json` for a run with the environment variables
 * `env`: `PLA_CONFIG_DIR` when set (tests always set it), else the platform's
 * usual place for user configuration.
 */
export function configDir(env: Readonly<Record<string, string | undefined>>): string {
  const override = env.PLA_CONFIG_DIR;
  if (override) return override;
  const home = env.HOME || homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Preferences', 'pla');
  if (process.platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'pla', 'Config');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'pla');
}
