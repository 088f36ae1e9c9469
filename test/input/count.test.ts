import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateRecordCount } from '../../src/io/input/count.js';

describe('estimateRecordCount (the progress bar total)', () => {
  let dir: string;
  const file = async (name: string, text: string) => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pla-count-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('counts ndjson lines, with or without a final newline', async () => {
    expect(await estimateRecordCount(await file('a.ndjson', '{"a":1}\n{"a":2}\n{"a":3}\n'))).toBe(3);
    expect(await estimateRecordCount(await file('b.jsonl', '{"a":1}\n{"a":2}'))).toBe(2);
  });

  it('leaves out the csv header', async () => {
    expect(await estimateRecordCount(await file('c.csv', 'code,name\nA,x\nB,y\n'))).toBe(2);
  });

  it('counts across read chunks', async () => {
    const lines = Array.from({ length: 150_000 }, (_, i) => JSON.stringify({ ref: `r${i}`, pad: 'x'.repeat(10) }));
    expect(await estimateRecordCount(await file('big.ndjson', `${lines.join('\n')}\n`))).toBe(150_000);
  });

  it('follows --format over the extension', async () => {
    expect(await estimateRecordCount(await file('d.txt', 'a,b\n1,2\n'), 'csv')).toBe(1);
    expect(await estimateRecordCount(await file('e.txt', 'a,b\n1,2\n'))).toBeUndefined();
  });

  it('does not guess for stdin, json arrays, empty or missing files', async () => {
    expect(await estimateRecordCount('-', 'ndjson')).toBeUndefined();
    expect(await estimateRecordCount(await file('f.json', '[{"a":1}]'))).toBeUndefined();
    expect(await estimateRecordCount(await file('g.ndjson', ''))).toBeUndefined();
    expect(await estimateRecordCount(join(dir, 'missing.ndjson'))).toBeUndefined();
  });
});
