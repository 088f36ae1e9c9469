import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The folder holding `config.json`: `PLA_CONFIG_DIR` when set (tests always set
 * it), else the platform's usual place for user configuration.
 */
export function configDir(): string {
  const override = process.env.PLA_CONFIG_DIR;
  if (override) return override;
  const home = homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Preferences', 'pla');
  if (process.platform === 'win32') return join(process.env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'pla', 'Config');
  return join(process.env.XDG_CONFIG_HOME ?? join(home, '.config'), 'pla');
}
