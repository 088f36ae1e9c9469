/**
 * Hints that are true. Every hint in the source is walked: each `pla …` command it
 * names exists, and each flag it names is taken by that command (or globally), as
 * the built CLI's command tree says. Then through the built CLI: apply does not
 * suggest --dry-run, a redirect names its Location, and a summary shows the values
 * in a refusal as they are (not `#-#-#T#:#:#.#Z`).
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../support/fake-server.js';
import { pla, tempDir } from './support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface TreeNode {
  names: string[];
  options?: Array<{ flags: string[] }>;
  commands?: TreeNode[];
}

/** Every .ts file under src/. */
async function sources(dir = join(ROOT, 'src')): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? sources(join(dir, e.name)) : Promise.resolve(e.name.endsWith('.ts') ? [join(dir, e.name)] : []))),
  );
  return nested.flat();
}

/**
 * The hints of the source: the string after each `hint:` (an error's hint), every
 * string the hint module returns, and the lines notes print with a command in them.
 * `${…}` placeholders become `<value>`.
 */
async function hints(): Promise<Array<{ where: string; text: string }>> {
  const found: Array<{ where: string; text: string }> = [];
  const literal = /(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;
  for (const file of await sources()) {
    const code = await readFile(file, 'utf8');
    // The hint module and the help topics are hints through and through.
    const hintModule = file.endsWith('error-hints.ts') || file.endsWith('help-topics.ts');
    code.split('\n').forEach((line, index) => {
      if (!hintModule && !/\bhint\b|note\(|warn\(/.test(line)) return;
      for (const match of line.matchAll(literal)) {
        const text = (match[2] ?? '').replace(/\$\{[^}]*\}/g, '<value>');
        if (/\bpla [a-z]|(^|[\s(`])--[a-z]/.test(text)) found.push({ where: `${relative(ROOT, file)}:${index + 1}`, text });
      }
    });
  }
  return found;
}

/**
 * `pla a b --x` mentions in a hint: the words after `pla` and the flags of the
 * command line, which ends at the first plain word that no flag takes (`pla server
 * now uses …` is prose after `pla server`). `quoted`: written as code (`\`pla …\``).
 */
function mentions(text: string): Array<{ words: string[]; flags: string[]; quoted: boolean }> {
  return [...text.matchAll(/(`?)\bpla ([^;`,():]*)/g)].map((m) => {
    const words: string[] = [];
    const flags: string[] = [];
    let afterFlag = false;
    for (const part of (m[2] ?? '').trim().split(/\s+/)) {
      if (/^--?[a-z][\w-]*$/.test(part)) {
        flags.push(part);
        afterFlag = true;
      } else if (/^[a-z][\w-]*$/.test(part) && !afterFlag && flags.length === 0) {
        words.push(part);
      } else if (/^[a-z]+$/.test(part) && !afterFlag) {
        break;
      } else {
        afterFlag = false;
      }
    }
    return { words, flags, quoted: m[1] === '`' };
  });
}

describe('every hint names commands and flags that exist', () => {
  let tree: TreeNode;
  const all: string[] = [];
  const collect = (node: TreeNode) => {
    for (const o of node.options ?? []) all.push(...o.flags);
    for (const c of node.commands ?? []) collect(c);
  };
  beforeAll(async () => {
    tree = JSON.parse(await readFile(join(ROOT, 'dist', 'completion-tree.json'), 'utf8')) as TreeNode;
    collect(tree);
  });

  it('walks every hint', async () => {
    const found = await hints();
    expect(found.length).toBeGreaterThan(20);
    const wrong: string[] = [];
    const globals = (tree.options ?? []).flatMap((o) => o.flags).concat('--help', '--no-color', '--no-seed');
    for (const { where, text } of found) {
      const named = mentions(text);
      for (const { words, flags } of named) {
        let node: TreeNode = tree;
        const path: string[] = [];
        for (const word of words) {
          const next = node.commands?.find((c) => c.names.includes(word));
          if (!next) break;
          node = next;
          path.push(word);
        }
        // Prose (`a pla plan`) unless written as code or starting with a command.
        if (path.length === 0 && words.length > 0) {
          if (named.find((n) => n.words === words)?.quoted) wrong.push(`${where}: \`pla ${words.join(' ')}\` is no command (${text})`);
          continue;
        }
        // More than one word past the command is prose (`pla server now uses …`), not a command line.
        if (words.length - path.length > 1) continue;
        const taken = new Set([...(node.options ?? []).flatMap((o) => o.flags), ...globals]);
        for (const flag of flags) if (!taken.has(flag)) wrong.push(`${where}: pla ${path.join(' ')} takes no ${flag} (${text})`);
      }
      // A flag named without a command must at least exist somewhere.
      if (named.length === 0)
        for (const flag of text.match(/(?<![\w-])--[a-z][\w-]*/g) ?? [])
          if (!all.includes(flag) && !globals.includes(flag)) wrong.push(`${where}: no command takes ${flag} (${text})`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('hints through the built CLI', () => {
  let fake: FakeServer;
  let config: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    fake = await startFakeServer();
    config = await tempDir();
  });
  afterAll(async () => {
    await fake?.close();
    await config?.remove();
  });
  const env = () => ({ PLA_BASE_URL: fake.url, PLA_API_KEY: 'test-key-abcdef0123456789' });

  it('a redirect names its Location and how to follow it', async () => {
    fake.setRoutes([{ path: /.*/, reply: { status: 301, headers: { location: 'https://new.example.com/api' } } }]);
    const result = await pla(['det', 'get', '1', '--retries', '0'], { configDir: config.path, env: env() });
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toMatch(/^error: 301 Moved Permanently: redirected to https:\/\/new\.example\.com\/api/m);
    expect(result.stderr).toMatch(
      /^hint: pla does not follow redirects: if https:\/\/new\.example\.com\/api is where the service now lives, set it as the base URL \(`pla config set-url URL --env local`\)$/m,
    );
  });

  it('apply without a terminal says --yes, not a --dry-run it does not take', async () => {
    const file = join(config.path, 'plan.json');
    await writeFile(file, '{}');
    const result = await pla(['apply', file], { configDir: config.path, env: env() });
    expect(result.stderr).not.toContain('--dry-run');
  });

  it('a summary shows the values of a refusal as they are', async () => {
    const detail = 'posting date 2026-11-14T07:13:03.204Z is in a closed period';
    fake.setRoutes([
      { path: /bulk$/, reply: { status: 422, headers: { 'content-type': 'application/problem+json' }, body: { status: 422, title: 'Unprocessable', detail } } },
    ]);
    const file = join(config.path, 'records.ndjson');
    await writeFile(file, '{"code":"A"}\n{"code":"B"}\n');
    const result = await pla(['det', 'create', '--file', file, '--rejects', join(config.path, 'rejects.ndjson'), '--retries', '0'], {
      configDir: config.path,
      env: env(),
    });
    expect(result.exitCode).toBe(9);
    expect(result.stderr).toContain(detail);
    expect(result.stderr).not.toContain('#-#-#T');
  });
});
