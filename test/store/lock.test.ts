import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StoreLockedError } from '../../src/store/index.js';
import { startWriter } from './child-store.js';
import { collectWarnings } from './collect-warnings.js';
import { closeTestStore, openTestStore } from './open-store.js';
import { tempDir } from './temp-dirs.js';

describe('one writer per data folder', () => {
  it('refuses a second opener, naming the holder, until the first closes', async () => {
    const dir = await tempDir();
    const first = await openTestStore(dir);
    const second = openTestStore(dir);
    await expect(second).rejects.toBeInstanceOf(StoreLockedError);
    await expect(second).rejects.toThrow(`in use by process ${process.pid} on ${hostname()}, started `);
    const owner = JSON.parse(await readFile(join(dir, 'lock-owner.json'), 'utf8'));
    expect(owner).toMatchObject({ pid: process.pid, host: hostname() });
    await closeTestStore(first);
    await closeTestStore(await openTestStore(dir));
  });

  it('refuses while another live process holds the folder', async () => {
    const dir = await tempDir();
    const holder = await startWriter(dir, 1_000_000, 'hold');
    await expect(openTestStore(dir)).rejects.toThrow(`in use by process ${holder.process.pid} on ${hostname()}`);
    await holder.kill();
  });

  it('takes over the lock of a holder that was killed, with a warning', async () => {
    const dir = await tempDir();
    const holder = await startWriter(dir, 1_000_000, 'hold');
    await holder.kill();
    const { warnings, warn } = collectWarnings();
    const store = await openTestStore(dir, { warn });
    expect(warnings.join('\n')).toMatch(new RegExp(`taking over the lock .* from process ${holder.process.pid}`));
    await store.commit([{ op: 'put', collection: 'topics', record: { id: 1 } }]);
  });
});
