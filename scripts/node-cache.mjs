// Where scripts/install-node.mjs keeps the Node versions pla is also tested on, and
// which are there: `$PLA_NODE_CACHE`, else `$XDG_CACHE_HOME/pla-node`, else
// `~/.cache/pla-node`, one folder per version (`22.23.5/bin/node`). Read by the
// installer and by bench/cli-startup.mjs, which measures each installed Node.
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export function nodeCacheRoot() {
  if (process.env.PLA_NODE_CACHE) return process.env.PLA_NODE_CACHE;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'pla-node');
}

/** The `node` binaries installed in the cache, oldest version first. */
export function installedNodes(root = nodeCacheRoot()) {
  if (!existsSync(root)) return [];
  const byVersion = (a, b) =>
    a
      .split('.')
      .map(Number)
      .reduce((order, part, i) => order || part - Number(b.split('.')[i]), 0);
  return readdirSync(root)
    .filter((name) => /^\d+\.\d+\.\d+$/.test(name) && existsSync(join(root, name, 'bin', 'node')))
    .sort(byVersion)
    .map((version) => join(root, version, 'bin', 'node'));
}
