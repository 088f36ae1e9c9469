/**
 * Protected environments as a property of each environment in config.json:
 * rename carries it, remove drops it, export/import carry it (an import never
 * unprotects), `config show` lists it, an old protected.json is migrated once,
 * malformed data is an error, and concurrent `config protect` runs all land. What
 * a run does on a protected environment is in test/plan/plan-apply.e2e.test.ts.
 */
import { readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pla, tempDir } from './support.js';

let config: Awaited<ReturnType<typeof tempDir>>;

beforeEach(async () => {
  config = await tempDir();
});

afterEach(async () => {
  await config.remove();
});

const run = (args: string[], options: { input?: string; dir?: string } = {}) =>
  pla(args, { configDir: options.dir ?? config.path, ...(options.input !== undefined ? { input: options.input } : {}) });

/** `config show -o json` as env → protected. */
async function protection(dir = config.path): Promise<Record<string, boolean>> {
  const shown = await run(['config', 'show', '-o', 'json'], { dir });
  expect(shown.exitCode, shown.stderr).toBe(0);
  return Object.fromEntries((JSON.parse(shown.stdout) as Array<{ env: string; protected: boolean }>).map((row) => [row.env, row.protected]));
}

const stored = async () => JSON.parse(await readFile(join(config.path, 'config.json'), 'utf8')) as { environments: Record<string, Record<string, unknown>> };

describe('protected environments in config.json', () => {
  it('shows production protected by default, and what protect/unprotect change, in json and table', async () => {
    expect(await protection()).toEqual({ local: false, development: false, qa: false, production: true });
    expect((await run(['config', 'protect', 'qa'])).stderr).toBe('qa is now protected; protected: production, qa\n');
    expect((await run(['config', 'unprotect', 'production'])).stderr).toBe('production is no longer protected; protected: qa\n');
    expect(await protection()).toEqual({ local: false, development: false, qa: true, production: false });
    // Production's "no" must be remembered (it is protected by default); qa's flag is the stored true.
    expect((await stored()).environments).toEqual({ qa: { protected: true }, production: { protected: false } });

    const table = await run(['config', 'show', '-o', 'table']);
    const lines = table.stdout.split('\n');
    const header = lines.find((line) => line.includes('protected')) ?? '';
    const column = (env: string) => {
      const cells = (lines.find((line) => line.includes(` ${env} `)) ?? '').split('│').map((cell) => cell.trim());
      return cells[
        header
          .split('│')
          .map((cell) => cell.trim())
          .indexOf('protected')
      ];
    };
    expect([column('qa'), column('production'), column('local')]).toEqual(['true', 'false', 'false']);
  });

  it('refuses to protect an environment that does not exist, so no name is protected ahead of time', async () => {
    const typo = await run(['config', 'protect', 'prodution']);
    expect([typo.exitCode, typo.stderr]).toEqual([2, 'error: unknown environment prodution\nhint: did you mean production?\n']);
    expect((await readdir(config.path)).filter((name) => name.startsWith('config.json') || name.startsWith('protected'))).toEqual([]);
  });

  it("rename carries protection (production's default one too); remove drops it, so a new environment of that name is not protected", async () => {
    await run(['config', 'set-url', 'http://127.0.0.1:1', '-e', 'prod-eu']);
    await run(['config', 'protect', 'prod-eu']);
    expect((await run(['config', 'rename', 'prod-eu', 'prod-europe'])).exitCode).toBe(0);
    await run(['config', 'set-url', 'http://127.0.0.1:2', '-e', 'production']);
    expect((await run(['config', 'rename', 'production', 'prod-us'])).exitCode).toBe(0);
    expect(await protection()).toMatchObject({ 'prod-europe': true, 'prod-us': true, production: true });
    expect(await protection()).not.toHaveProperty('prod-eu');

    expect((await run(['config', 'remove', 'prod-europe'])).stderr).toBe(
      'removed prod-europe; prod-europe was protected: added again, it will not be (pla config protect prod-europe)\n',
    );
    await run(['config', 'set-url', 'http://127.0.0.1:3', '-e', 'prod-europe']);
    expect((await run(['config', 'remove', 'prod-europe'])).stderr).toBe('removed prod-europe\n');
    await run(['config', 'set-url', 'http://127.0.0.1:3', '-e', 'prod-europe']);
    expect((await protection())['prod-europe']).toBe(false);

    // An unprotected environment renamed to production takes production's default: protected.
    await run(['config', 'set-url', 'http://127.0.0.1:4', '-e', 'scratch']);
    await run(['config', 'rename', 'prod-us', 'prod-old']);
    await run(['config', 'unprotect', 'prod-old']);
    await run(['config', 'rename', 'scratch', 'production']);
    expect(await protection()).toMatchObject({ production: true, 'prod-old': false });

    // Production keeps its default: removed while unprotected, it is protected again.
    await run(['config', 'unprotect', 'production']);
    expect((await run(['config', 'remove', 'production'])).stderr).toBe('removed production; production is protected again, by default\n');
    expect((await protection()).production).toBe(true);
  });

  it('export and import into a fresh config keep protection; an import never unprotects, and says so', async () => {
    await run(['config', 'set-url', 'https://books.example.com', '-e', 'books']);
    await run(['config', 'protect', 'books']);
    await run(['config', 'set-url', 'https://sandbox.example.com', '-e', 'sandbox']);
    const exported = await run(['config', 'export']);
    expect(JSON.parse(exported.stdout).environments).toEqual({
      production: { protected: true },
      books: { baseUrl: 'https://books.example.com', protected: true },
      sandbox: { baseUrl: 'https://sandbox.example.com' },
    });

    const fresh = await tempDir();
    try {
      const imported = await run(['config', 'import', '-'], { dir: fresh.path, input: exported.stdout });
      expect(imported.exitCode, imported.stderr).toBe(0);
      expect(await protection(fresh.path)).toMatchObject({ production: true, books: true, sandbox: false });

      // A shared file that has them unprotected adds nothing and takes nothing away here.
      const loosened = JSON.stringify({ environments: { books: { protected: false }, production: { protected: false }, sandbox: { protected: false } } });
      const second = await run(['config', 'import', '-'], { dir: fresh.path, input: loosened });
      expect(second.exitCode, second.stderr).toBe(0);
      expect(second.stderr).toContain(
        'kept books protected: the file has it unprotected, and an import only ever adds protection (pla config unprotect books if that is meant)\n',
      );
      expect(second.stderr).toContain('kept production protected');
      expect(await protection(fresh.path)).toMatchObject({ production: true, books: true, sandbox: false });

      // A file can protect one that is not protected here.
      await run(['config', 'import', '-'], { dir: fresh.path, input: JSON.stringify({ environments: { sandbox: { protected: true } } }) });
      expect((await protection(fresh.path)).sandbox).toBe(true);

      const bad = await run(['config', 'import', '-'], { dir: fresh.path, input: JSON.stringify({ environments: { sandbox: { protected: 'no' } } }) });
      expect([bad.exitCode, bad.stderr]).toEqual([2, 'error: environment sandbox: protected must be true or false\n']);
      expect((await protection(fresh.path)).sandbox).toBe(true);
    } finally {
      await fresh.remove();
    }
  });

  it('migrates an old protected.json once into config.json, production left off it staying unprotected', async () => {
    await run(['config', 'set-url', 'https://books.example.com', '-e', 'books']);
    await writeFile(join(config.path, 'protected.json'), JSON.stringify({ protected: ['qa', 'books'] }));
    // A read-only command migrates too, so no run ever misses a protection; two at once migrate once.
    const [first, second] = await Promise.all([run(['config', 'show', '-o', 'json']), run(['config', 'path'])]);
    expect([first.exitCode, second.exitCode]).toEqual([0, 0]);
    const moved =
      'moved the protected environments from protected.json into config.json (protected: books, qa; production stays unprotected, as the list left it off); the old file is now protected.json.migrated\n';
    expect([first.stderr, second.stderr].filter((stderr) => stderr.includes(moved))).toHaveLength(1);
    expect(await protection()).toEqual({ local: false, development: false, qa: true, production: false, books: true });
    expect((await readdir(config.path)).sort()).toEqual(['config.json', 'protected.json.migrated']);
    expect((await stored()).environments).toEqual({
      books: { baseUrl: 'https://books.example.com', protected: true },
      qa: { protected: true },
      production: { protected: false },
    });

    // Migrated once: a later unprotect sticks.
    await run(['config', 'unprotect', 'qa']);
    expect((await protection()).qa).toBe(false);
  });

  it('a malformed protected.json or protected flag is a clear error, not a silent default', async () => {
    await writeFile(join(config.path, 'protected.json'), '{"protected": "production"}');
    for (const args of [
      ['config', 'show'],
      ['config', 'protect', 'qa'],
      ['-e', 'production', 'determinations', 'get', '1'],
    ]) {
      const refused = await run(args);
      expect(refused.exitCode).toBe(2);
      expect(refused.stderr).toBe(
        `error: cannot migrate the protected environments in ${join(config.path, 'protected.json')}: expected {"protected": [names…]}\n` +
          'hint: fix the file (it should read {"protected": ["production"]}) or delete it and run `pla config protect ENV` for each environment to protect\n',
      );
    }
    expect(await readFile(join(config.path, 'protected.json'), 'utf8')).toBe('{"protected": "production"}');

    await unlink(join(config.path, 'protected.json'));
    await writeFile(join(config.path, 'config.json'), JSON.stringify({ environments: { qa: { baseUrl: 'http://127.0.0.1:1', protected: 'yes' } } }));
    const flag = await run(['config', 'show']);
    expect([flag.exitCode, flag.stderr]).toEqual([
      2,
      'error: environment qa has "protected": "yes" in config.json; expected true or false\nhint: pla config protect qa (or unprotect qa) stores it again\n',
    ]);
    expect((await run(['config', 'protect', 'qa'])).exitCode).toBe(0);
    expect((await protection()).qa).toBe(true);
  });

  it('every one of many pairs of simultaneous `config protect` runs lands', async () => {
    const names = Array.from({ length: 16 }, (_, i) => `ledger-${i}`);
    for (const env of names) await run(['config', 'set-url', `https://${env}.example.com`, '-e', env]);
    for (let pair = 0; pair < names.length; pair += 2) {
      const results = await Promise.all([run(['config', 'protect', names[pair] as string]), run(['config', 'protect', names[pair + 1] as string])]);
      expect(results.map((result) => result.exitCode)).toEqual([0, 0]);
    }
    const shown = await protection();
    for (const env of names) expect(shown[env], env).toBe(true);
  });
});
