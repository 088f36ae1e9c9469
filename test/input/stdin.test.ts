import { build } from 'esbuild';
import { execa } from 'execa';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempFolder } from './helpers.js';

// Reading `-` means the process's real stdin: bundle the readers into a small
// script and pipe input into it as a shell pipe would.
const root = fileURLToPath(new URL('../..', import.meta.url));
let folder: Awaited<ReturnType<typeof tempFolder>>;
let script: string;

beforeAll(async () => {
  folder = await tempFolder();
  const bundle = `${folder.dir}/input.mjs`;
  await build({
    absWorkingDir: root,
    entryPoints: ['src/io/input/index.ts'],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile: bundle,
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    logLevel: 'error',
  });
  script = await folder.file(
    'read.mjs',
    `import { readIds, readRecords } from './input.mjs';
const [kind, format] = process.argv.slice(2);
const source = kind === 'ids' ? readIds({ idsFile: '-' }, { stdin: process.stdin }) : readRecords({ file: '-' }, { format: format || undefined, stdin: process.stdin });
for await (const item of source) console.log(JSON.stringify(item));`,
  );
});
afterAll(() => folder.cleanup());

const read = async (input: string, ...args: string[]) =>
  (await execa('node', [script, ...args], { input })).stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as unknown);

describe('stdin (--file -, --ids-file -)', () => {
  it('sniffs ndjson, json and csv piped in', async () => {
    expect(await read('{"ref":"a"}\n{"ref":"b"}\n', 'records')).toEqual([
      { value: { ref: 'a' }, line: 1 },
      { value: { ref: 'b' }, line: 2 },
    ]);
    expect(await read('[\n{"ref":"a"}\n]', 'records')).toEqual([{ value: { ref: 'a' }, line: 2 }]);
    expect(await read('ref,n\nc,3\n', 'records')).toEqual([{ value: { ref: 'c', n: 3 }, line: 2, cells: { n: '3' }, row: ['c', '3'] }]);
  });

  it('honours --format for stdin', async () => {
    expect(await read('ref\n12\n', 'records', 'csv')).toEqual([{ value: { ref: 12 }, line: 2, cells: { ref: '12' }, row: ['12'] }]);
  });

  it('reads ids one a line, as `pla tasks search -q` prints them', async () => {
    expect(await read('41\n42\n\n43\n', 'ids')).toEqual([
      { value: 41, line: 1 },
      { value: 42, line: 2 },
      { value: 43, line: 4 },
    ]);
  });
});
