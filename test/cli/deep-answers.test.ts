/**
 * Answers nested deeper than pla reads are the service's fault: exit 11, said as
 * such, never "Maximum call stack size exceeded" (exit 1, "a bug"), and a deep answer
 * holding a number a double would round is not called invalid JSON. Answers
 * shallower than that are read as always, numbers exact; a refusal with such a body
 * is the refusal its status says. `pla` against a test
 * service answering the JSON text given.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeServer, startFakeServer } from '../support/fake-server.js';
import { pla, tempDir } from './support.js';

/** `{"a":{"a":…inner…}}`, `depth` objects deep. */
const nested = (depth: number, inner: string): string => `${'{"a":'.repeat(depth)}${inner}${'}'.repeat(depth)}`;

let service: FakeServer;
let config: Awaited<ReturnType<typeof tempDir>>;
let answer = '';
let status = 200;

beforeAll(async () => {
  service = await startFakeServer([{ path: /.*/, reply: () => ({ status, body: answer, headers: { 'content-type': 'application/json' } }) }]);
});
afterAll(async () => {
  await service.close();
});
beforeEach(async () => {
  config = await tempDir();
  status = 200;
});
afterEach(async () => {
  await config.remove();
});

const run = (args: string[]) => pla(args, { server: service, configDir: config.path });

describe('an answer nested 5,000 deep', () => {
  it('is exit 11, the service answering what pla cannot read, for a read by id, a list and a write', async () => {
    answer = nested(5000, '1');
    for (const args of [
      ['determinations', 'get', '7'],
      ['determinations', 'list'],
      ['determinations', 'update', '7', '--data', '{"amount": 1}'],
    ]) {
      const result = await run(args);
      expect(result.exitCode, `${args.join(' ')}: ${result.stderr}`).toBe(11);
      expect(result.stderr).toContain('the service answered JSON nested more than 1,000 levels deep, deeper than pla reads (status 200)');
      expect(result.stderr).not.toMatch(/call stack|bug/);
    }
  });

  it('holding a 16-digit number is not called invalid JSON; one 500 deep is read with the number exact', async () => {
    answer = `{"success": true, "message": "ok", "data": {"id": 7, "deep": ${nested(5000, '1234567890123456789')}}}`;
    const deep = await run(['determinations', 'get', '7', '-o', 'json']);
    expect(deep.exitCode, deep.stderr).toBe(11);
    expect(deep.stderr).toContain('JSON nested more than 1,000 levels deep');
    expect(deep.stderr).not.toContain('invalid JSON');

    answer = `{"success": true, "message": "ok", "data": {"id": 7, "deep": ${nested(500, '1234567890123456789')}}}`;
    const read = await run(['determinations', 'get', '7', '-o', 'json']);
    expect(read.exitCode, read.stderr).toBe(0);
    expect(read.stdout.replace(/\s+/g, '')).toContain(`${'{"a":'.repeat(499)}1234567890123456789}`);
  });

  it('as the body of a refusal is the refusal its status says (exit 5), its body not read', async () => {
    status = 400;
    answer = `{"title": "Bad Request", "detail": ${nested(5000, '"deep"')}}`;
    for (const verbose of [[], ['--verbose']]) {
      const result = await run(['determinations', 'get', '7', ...verbose]);
      expect(result.exitCode, result.stderr).toBe(5);
      expect(result.stderr).toContain('400 Bad Request');
      expect(result.stderr).not.toMatch(/call stack|bug/);
    }
  });
});
