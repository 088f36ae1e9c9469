import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatSummary, partialFailure, runBulk } from '../../src/bulk/index.js';
import { progressText } from '../../src/bulk/progress.js';
import { expandPath, operation } from '../../src/contract/operations.js';
import { AuthError, InterruptedError, PartialFailureError, ServerError, UsageError } from '../../src/errors.js';
import { createClient } from '../../src/client/index.js';
import { readIds, readRecords } from '../../src/io/input/index.js';
import { startFakeServer, type FakeServer, type LoggedRequest } from '../support/fake-server.js';
import { allOrNothing, client, records, refsOf, stream, tempDir, UPSERT, UPSERT_PATH } from './helpers.js';

let server: FakeServer;
let temp: Awaited<ReturnType<typeof tempDir>>;
/** Requests the route answered 200, i.e. batches the "service" applied. */
const applied = new Set<LoggedRequest>();

function serve(answer: (request: LoggedRequest) => ReturnType<typeof allOrNothing> | Promise<ReturnType<typeof allOrNothing>>): void {
  server.setRoutes([
    {
      method: 'PUT',
      path: UPSERT_PATH,
      reply: async (request) => {
        const reply = await answer(request);
        if ((reply.status ?? 200) === 200) applied.add(request);
        return reply;
      },
    },
  ]);
}

const appliedRefs = () => server.requests.filter((r) => applied.has(r)).flatMap(refsOf);

beforeAll(async () => {
  server = await startFakeServer();
  temp = await tempDir();
});
afterAll(async () => {
  await server.close();
  await temp.cleanup();
});
afterEach(() => {
  server.requests.length = 0;
  applied.clear();
});

describe('batches and concurrency', () => {
  it('sends every record once, in batches of batchSize', async () => {
    serve(allOrNothing);
    const input = records(23, (i) => (i % 2 === 0 ? { id: 100 + i } : {}));
    const summary = await runBulk({ client: client(server.url), operationId: UPSERT, items: stream(input), batchSize: 5, concurrency: 2 });
    expect(server.requests.map((r) => refsOf(r).length).sort()).toEqual([3, 5, 5, 5, 5]);
    expect(appliedRefs().sort()).toEqual(input.map((i) => i.value.ref).sort());
    expect(summary).toMatchObject({ succeeded: 23, created: 11, updated: 12, failed: 0, skipped: 0, batches: 5, interrupted: false });
    expect(summary.rejectsPath).toBeUndefined();
  });

  it('keeps `concurrency` batches in flight, and no more', async () => {
    let inFlight = 0;
    let most = 0;
    let releaseFirst: () => void = () => {};
    const secondArrived = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    serve(async (request) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      // The first batch waits for a second one to arrive: only a runner that really
      // runs two at once gets past this without the fallback.
      if (inFlight === 2) releaseFirst();
      await Promise.race([secondArrived, new Promise((resolve) => setTimeout(resolve, 5000))]);
      inFlight -= 1;
      return allOrNothing(request);
    });
    await runBulk({ client: client(server.url), operationId: UPSERT, items: stream(records(40)), batchSize: 5, concurrency: 2 });
    expect(most).toBe(2);
    expect(server.requests).toHaveLength(8);
  });

  it('tells the progress bar how far it is and clears it at the end', async () => {
    serve(allOrNothing);
    const seen: number[] = [];
    let finished = 0;
    const progress = { update: (done: number) => void seen.push(done), above() {}, aboveOn() {}, finish: () => void (finished += 1) };
    await runBulk({ client: client(server.url), operationId: UPSERT, items: stream(records(23)), batchSize: 5, total: 23, progress: async () => progress });
    expect(seen.at(-1)).toBe(23);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(finished).toBe(1);
  });

  it('moves the bar as parts of a refused batch settle, before the batch ends', async () => {
    serve(allOrNothing);
    const seen: number[] = [];
    const progress = { update: (done: number) => void seen.push(done), above() {}, aboveOn() {}, finish() {} };
    const bad = new Set([0, 15]);
    const input = records(16, (i) => (bad.has(i) ? { bad: true } : {}));
    const summary = await runBulk({
      client: client(server.url),
      operationId: UPSERT,
      items: stream(input),
      batchSize: 16,
      total: 16,
      progress: async () => progress,
    });
    expect(summary).toMatchObject({ succeeded: 14, failed: 2 });
    // One batch: on a bar that moved only per batch, 16 would be all it saw.
    expect(seen.some((done) => done > 0 && done < 16)).toBe(true);
    expect(seen.at(-1)).toBe(16);
  });

  it('fits the progress text to the terminal: the bar shrinks, then goes', () => {
    for (const columns of [12, 20, 40, 60, 80, 120, 200]) {
      expect(progressText(500, 1000, 2000, columns).length).toBeLessThanOrEqual(columns - 3);
      expect(progressText(500, undefined, 2000, columns).length).toBeLessThanOrEqual(columns - 3);
    }
    expect(progressText(500, 1000, 2000, 120)).toMatch(/^\[=+ +\] {2}50% {2}500\/1,000 {2}250\/s {2}ETA 2\.0 s$/);
    expect(progressText(500, 1000, 2000, 30)).toBe(' 50%  500/1,000  250/s  ETA…'.trimStart());
  });

  it('refuses a batch size or concurrency that is not a positive integer', async () => {
    await expect(runBulk({ client: client(server.url), operationId: UPSERT, items: stream(records(1)), batchSize: 0 })).rejects.toBeInstanceOf(UsageError);
    await expect(runBulk({ client: client(server.url), operationId: UPSERT, items: stream(records(1)), concurrency: 1.5 })).rejects.toBeInstanceOf(UsageError);
  });
});

describe('refused batches are split to find the bad records', () => {
  it('writes exactly the failed records, with the service error, to an ndjson rejects file', async () => {
    serve(allOrNothing);
    const bad = new Set([3, 4, 17]);
    const input = records(20, (i) => (bad.has(i) ? { bad: true } : {}));
    const rejectsPath = temp.path('rejects.ndjson');
    const summary = await runBulk({ client: client(server.url), operationId: UPSERT, items: stream(input), batchSize: 8, concurrency: 3, rejectsPath });
    expect(summary).toMatchObject({ succeeded: 17, failed: 3, rejectsPath });
    expect(appliedRefs().sort()).toEqual(
      input
        .filter((_, i) => !bad.has(i))
        .map((i) => i.value.ref)
        .sort(),
    );
    const rejects = (await readFile(rejectsPath, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rejects.map((r) => r.ref).sort()).toEqual(['r17', 'r3', 'r4']);
    for (const reject of rejects) {
      expect(reject.bad).toBe(true);
      expect(reject._error).toMatch(/^400 .*must not be bad/);
    }
    const [line, ...reasons] = formatSummary(summary).split('\n');
    expect(line).toMatch(/^upserted 17 \(created 17, updated 0\), failed 3, skipped 0 in \d+\.\d s — rejects: .*rejects\.ndjson$/);
    // The three failures share one reason, said once with their count.
    expect(reasons).toEqual(['  3 refused: 400 invalid records']);
    const partial = partialFailure(summary);
    expect(partial).toBeInstanceOf(PartialFailureError);
    expect(partial?.exitCode).toBe(9);
  });

  it('writes csv rejects with an _error column that a re-read drops, giving the records back', async () => {
    serve(allOrNothing);
    const input = await writeFile(temp.path('in.csv'), 'ref,amount,bad,code\na,1,false,007\nb,2,true,"12"\nc,3,false,x\nd,,true,y\n').then(() =>
      temp.path('in.csv'),
    );
    const rejectsPath = temp.path('rejects.csv');
    const summary = await runBulk({ client: client(server.url), operationId: UPSERT, items: readRecords({ file: input }), batchSize: 4, rejectsPath });
    expect(summary).toMatchObject({ succeeded: 2, failed: 2 });
    const text = await readFile(rejectsPath, 'utf8');
    expect(text.split('\n')[0]).toBe('ref,amount,bad,code,_line,_error');
    const again: Array<Record<string, unknown>> = [];
    for await (const item of readRecords({ file: rejectsPath })) again.push(JSON.parse(JSON.stringify(item.value)) as Record<string, unknown>);
    expect(again).toEqual([
      { ref: 'b', amount: 2, bad: true, code: '12' },
      { ref: 'd', bad: true, code: 'y' },
    ]);
  });

  it('widens the csv rejects header when a later reject carries a field the first did not (ndjson in, csv out)', async () => {
    serve(allOrNothing);
    const input = records(3, (i) => [{ bad: true, amount: 1 }, { amount: 2 }, { bad: true, amount: '3', name: 'Ana', zip: '007' }][i] ?? {});
    const rejectsPath = temp.path('widen-rejects.csv');
    const summary = await runBulk({ client: client(server.url), operationId: UPSERT, items: stream(input), batchSize: 1, concurrency: 1, rejectsPath });
    expect(summary).toMatchObject({ succeeded: 1, failed: 2 });
    expect((await readFile(rejectsPath, 'utf8')).split('\n')[0]).toBe('ref,bad,amount,name,zip,_line,_error');
    const again: Array<Record<string, unknown>> = [];
    for await (const item of readRecords({ file: rejectsPath })) again.push(JSON.parse(JSON.stringify(item.value)) as Record<string, unknown>);
    expect(again).toEqual([
      { ref: 'r0', bad: true, amount: 1 },
      { ref: 'r2', bad: true, amount: '3', name: 'Ana', zip: '007' },
    ]);
  });

  it('writes json rejects as a json array', async () => {
    serve(allOrNothing);
    const rejectsPath = temp.path('rejects.json');
    await runBulk({
      client: client(server.url),
      operationId: UPSERT,
      items: stream(records(6, (i) => (i % 2 ? { bad: true } : {}))),
      batchSize: 2,
      rejectsPath,
    });
    const rejects = JSON.parse(await readFile(rejectsPath, 'utf8')) as Array<Record<string, unknown>>;
    expect(rejects.map((r) => r.ref).sort()).toEqual(['r1', 'r3', 'r5']);
  });

  it('splits id batches too: unknown or refused ids become rejects', async () => {
    const cancelPath = expandPath(operation('tasks.cancelBulk'));
    server.setRoutes([
      {
        method: 'POST',
        path: cancelPath,
        reply: (request) =>
          (request.body as number[]).includes(13)
            ? { status: 409, body: { title: 'Conflict', status: 409, detail: 'task 13 is COMPLETED' } }
            : // The ids named: an answer naming none would be read back (test/confirm/item-results.test.ts).
              { body: { success: true, message: `cancelled ${(request.body as number[]).join(', ')}` } },
      },
    ]);
    const rejectsPath = temp.path('ids-rejects.ndjson');
    const summary = await runBulk({
      client: client(server.url),
      operationId: 'tasks.cancelBulk',
      items: readIds({ idsOption: '10,11,12,13,14' }),
      batchSize: 5,
      rejectsPath,
    });
    expect(summary).toMatchObject({ succeeded: 4, failed: 1, created: 0, updated: 0 });
    expect(JSON.parse((await readFile(rejectsPath, 'utf8')).trim())).toMatchObject({ id: 13, _error: expect.stringMatching(/409.*COMPLETED/) });
    expect(formatSummary(summary)).toMatch(/^cancelled 4, failed 1, skipped 0 in /);
  });

  it('counts bad input rows the reader skipped as skipped', async () => {
    serve(allOrNothing);
    const file = temp.path('some-bad.ndjson');
    await writeFile(file, '{"ref":"a"}\nnot json\n{"ref":"b"}\n');
    const summary = await runBulk({ client: client(server.url), operationId: UPSERT, items: readRecords({ file }, { onBadRow: () => {} }) });
    expect(summary).toMatchObject({ succeeded: 2, skipped: 1 });
  });
});

describe('errors that are not about the records stop the run', () => {
  it('does not split on 401 and throws it', async () => {
    serve(() => ({ status: 401, body: { title: 'Unauthorized', status: 401 } }));
    const error = await runBulk({ client: client(server.url), operationId: UPSERT, items: stream(records(50)), batchSize: 5, concurrency: 2 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AuthError);
    // Only the batches already started went out; none was split.
    expect(server.requests.length).toBeLessThanOrEqual(2);
    expect(server.requests.every((r) => refsOf(r).length === 5)).toBe(true);
  });

  it('writes the checkpoint before rethrowing, and the re-run sends the rest exactly once', async () => {
    const checkpointPath = temp.path('stop.checkpoint.json');
    // Updates by id: safe to repeat, so a 503 is retried and then stops the run.
    const input = records(30, (i) => ({ id: 1000 + i }));
    serve((request) => (refsOf(request).includes('r12') ? { status: 503, body: { title: 'Service Unavailable', status: 503 } } : allOrNothing(request)));
    const error = await runBulk({ client: client(server.url), operationId: UPSERT, items: stream(input), batchSize: 5, concurrency: 1, checkpointPath }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServerError);
    expect(JSON.parse(await readFile(checkpointPath, 'utf8'))).toMatchObject({ operationId: UPSERT, batchSize: 5, finished: [0, 1] });

    serve(allOrNothing);
    const summary = await runBulk({ client: client(server.url), operationId: UPSERT, items: stream(input), batchSize: 5, concurrency: 3, checkpointPath });
    expect(summary).toMatchObject({ succeeded: 20, skipped: 10 });
    expect(appliedRefs().sort()).toEqual(input.map((i) => i.value.ref).sort());
    // A finished run stays finished: its checkpoint says so, and a rerun with it is refused, sending nothing.
    expect(JSON.parse(await readFile(checkpointPath, 'utf8'))).toMatchObject({ done: { counts: { upserted: 20, skipped: 10 } } });
    const sentBefore = server.requests.length;
    const again = await runBulk({ client: client(server.url), operationId: UPSERT, items: stream(input), batchSize: 5, concurrency: 3, checkpointPath }).catch(
      (e: unknown) => e,
    );
    expect(again).toBeInstanceOf(UsageError);
    expect((again as UsageError).message).toMatch(/went through its whole input at .*\(upserted 20, skipped 10\); nothing was sent/);
    expect((again as UsageError).hint).toMatch(/--force/);
    expect(server.requests.length).toBe(sentBefore);
    // Forced: a new run, under new keys.
    const forced = await runBulk({
      client: client(server.url),
      operationId: UPSERT,
      items: stream(input),
      batchSize: 5,
      concurrency: 3,
      checkpointPath,
      force: true,
    });
    expect(forced).toMatchObject({ succeeded: 30, skipped: 0 });
  });

  for (const format of ['json', 'csv', 'ndjson'] as const) {
    it(`keeps the first run's rejects when resuming (${format})`, async () => {
      const checkpointPath = temp.path(`resume-${format}.checkpoint.json`);
      const rejectsPath = temp.path(`resume-rejects.${format}`);
      const input = records(25, (i) => ({ id: 1000 + i, bad: i === 1 || i === 17 }));
      serve((request) => (refsOf(request).includes('r12') ? { status: 503 } : allOrNothing(request)));
      const options = { operationId: UPSERT, items: stream(input), batchSize: 5, concurrency: 1, checkpointPath, rejectsPath };
      await expect(runBulk({ client: client(server.url), ...options })).rejects.toBeInstanceOf(ServerError);
      serve(allOrNothing);
      const summary = await runBulk({ client: client(server.url), ...options, items: stream(input) });
      expect(summary).toMatchObject({ failed: 1, skipped: 10, rejectsPath });
      const again: unknown[] = [];
      for await (const item of readRecords({ file: rejectsPath })) again.push(item.value);
      expect(again).toEqual([
        { ref: 'r1', id: 1001, bad: true },
        { ref: 'r17', id: 1017, bad: true },
      ]);
    });
  }

  for (const format of ['json', 'csv', 'ndjson'] as const) {
    it(`adds to a rejects file a new run names again, never replacing it (${format})`, async () => {
      const rejectsPath = temp.path(`kept-rejects.${format}`);
      serve(allOrNothing);
      const first = records(5, (i) => ({ id: 2000 + i, bad: i === 2 }));
      await runBulk({ client: client(server.url), operationId: UPSERT, items: stream(first), batchSize: 5, rejectsPath });
      const warnings: string[] = [];
      const second = records(5, (i) => ({ id: 3000 + i, bad: i === 4 }));
      await runBulk({ client: client(server.url), operationId: UPSERT, items: stream(second), batchSize: 5, rejectsPath, warn: (line) => warnings.push(line) });
      expect(warnings).toEqual([`adding to the rejects file ${rejectsPath}: it holds rows of an earlier run, kept`]);
      const kept: unknown[] = [];
      for await (const item of readRecords({ file: rejectsPath })) kept.push(item.value);
      expect(kept).toEqual([
        { ref: 'r2', id: 2002, bad: true },
        { ref: 'r4', id: 3004, bad: true },
      ]);
    });
  }

  it('refuses a rejects file that is the input itself (it would be read while written to)', async () => {
    const file = temp.path('own-input.ndjson');
    await writeFile(file, '{"ref":"x"}\n');
    serve(allOrNothing);
    await expect(runBulk({ client: client(server.url), operationId: UPSERT, items: stream(records(1)), rejectsPath: file, inputPath: file })).rejects.toThrow(
      /is the input file/,
    );
    expect(server.requests).toHaveLength(0);
  });

  it('a batch of creates refused before anything was carried out (401) is not left in flight: the rerun sends it, nothing of unknown outcome', async () => {
    const checkpointPath = temp.path('refused-create.checkpoint.json');
    const input = records(15);
    serve((request) => (refsOf(request).includes('r7') ? { status: 401, body: { title: 'Unauthorized', status: 401 } } : allOrNothing(request)));
    const options = { operationId: UPSERT, batchSize: 5, concurrency: 1, checkpointPath };
    await expect(runBulk({ client: client(server.url), ...options, items: stream(input) })).rejects.toBeInstanceOf(AuthError);
    expect(JSON.parse(await readFile(checkpointPath, 'utf8'))).toMatchObject({ finished: [0], sending: [], unknown: [] });
    serve(allOrNothing);
    const rerun = await runBulk({ client: client(server.url), ...options, items: stream(input) });
    expect(rerun).toMatchObject({ succeeded: 10, unknown: 0, skipped: 5 });
    expect(appliedRefs().sort()).toEqual(input.map((i) => i.value.ref).sort());
  });

  it('refuses a checkpoint written for other input or another batch size', async () => {
    const checkpointPath = temp.path('other.checkpoint.json');
    serve((request) => (refsOf(request).includes('r7') ? { status: 500 } : allOrNothing(request)));
    await runBulk({ client: client(server.url), operationId: UPSERT, items: stream(records(10)), batchSize: 5, concurrency: 1, checkpointPath }).catch(
      () => {},
    );
    serve(allOrNothing);
    const other = records(10, (i) => (i === 0 ? { changed: true } : {}));
    await expect(runBulk({ client: client(server.url), operationId: UPSERT, items: stream(other), batchSize: 5, checkpointPath })).rejects.toThrow(
      /different input/,
    );
    await expect(runBulk({ client: client(server.url), operationId: UPSERT, items: stream(records(10)), batchSize: 4, checkpointPath })).rejects.toThrow(
      /--batch-size 5/,
    );
    await expect(
      runBulk({ client: client(server.url), operationId: 'settings.upsertBulk', items: stream(records(10)), batchSize: 5, checkpointPath }),
    ).rejects.toBeInstanceOf(UsageError);
  });
});

describe('interrupt', () => {
  it('starts no new batch once aborted, lets in-flight ones finish, writes the checkpoint, throws InterruptedError', async () => {
    const checkpointPath = temp.path('abort.checkpoint.json');
    const rejectsPath = temp.path('abort-rejects.ndjson');
    const input = records(40, (i) => (i === 2 || i === 33 ? { bad: true } : {}));
    const controller = new AbortController();
    serve((request) => {
      // Ctrl-C arrives while the third and fourth batches are in flight.
      if (refsOf(request).includes('r10')) controller.abort();
      return allOrNothing(request);
    });
    const error = await runBulk({
      client: client(server.url),
      operationId: UPSERT,
      items: stream(input),
      batchSize: 5,
      concurrency: 2,
      checkpointPath,
      rejectsPath,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InterruptedError);
    expect((error as InterruptedError).exitCode).toBe(130);
    const checkpoint = JSON.parse(await readFile(checkpointPath, 'utf8')) as { finished: number[] };
    const sentBatches = new Set(server.requests.map((r) => Math.floor(Number(refsOf(r)[0]?.slice(1)) / 5)));
    expect(checkpoint.finished).toEqual([...sentBatches].sort((a, b) => a - b));
    expect(checkpoint.finished.length).toBeLessThan(8);

    serve(allOrNothing);
    const summary = await runBulk({
      client: client(server.url),
      operationId: UPSERT,
      items: stream(input),
      batchSize: 5,
      concurrency: 2,
      checkpointPath,
      rejectsPath,
    });
    expect(summary.skipped).toBe(checkpoint.finished.length * 5);
    expect(appliedRefs().sort()).toEqual(
      input
        .filter((i) => i.value.bad !== true)
        .map((i) => i.value.ref)
        .sort(),
    );
    // The rejects of both runs are in the file, once each.
    const rejects = (await readFile(rejectsPath, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { ref: string }).ref);
    expect(rejects.sort()).toEqual(['r2', 'r33']);
  });
});

describe('batches whose outcome is unknown', () => {
  it('a batch of creates answered 500 is not resent: its records go to the unknown-outcome file; a resume with retryUnsafe sends it under the same key', async () => {
    const checkpointPath = temp.path('unknown.checkpoint.json');
    const unknownPath = temp.path('unknown.ndjson');
    const input = records(20);
    serve((request) => (refsOf(request).includes('r7') ? { status: 500, body: { title: 'Internal Server Error', status: 500 } } : allOrNothing(request)));
    const options = { operationId: UPSERT, batchSize: 5, concurrency: 1, checkpointPath, unknownPath };
    const first = await runBulk({ client: createClient({ baseUrl: server.url, retries: 2 }), ...options, items: stream(input) });
    expect(first).toMatchObject({ succeeded: 15, unknown: 5, failed: 0, unknownPath, checkpointPath });
    expect(server.requests.filter((r) => refsOf(r).includes('r7'))).toHaveLength(1);
    const again: unknown[] = [];
    for await (const item of readRecords({ file: unknownPath })) again.push(item.value);
    expect(again).toEqual(input.slice(5, 10).map((item) => item.value));
    const failure = partialFailure(first);
    expect(failure?.exitCode).toBe(9);
    expect(failure?.message).toMatch(/outcome of 5 records is unknown/);
    expect(failure?.hint).toMatch(/--plan/);
    expect(formatSummary(first)).toMatch(/outcome unknown 5/);

    // Resumed without --retry-unsafe: still not sent, still counted; the checkpoint stays.
    serve(allOrNothing);
    const resumed = await runBulk({ client: client(server.url), ...options, items: stream(input) });
    expect(resumed).toMatchObject({ succeeded: 0, unknown: 5, skipped: 15 });
    expect(server.requests.filter((r) => refsOf(r).includes('r7'))).toHaveLength(1);

    // With retryUnsafe: sent again under the key it had, and the run completes.
    const settled = await runBulk({ client: client(server.url), ...options, retryUnsafe: true, items: stream(input) });
    expect(settled).toMatchObject({ succeeded: 5, unknown: 0, skipped: 15 });
    const sends = server.requests.filter((r) => refsOf(r).includes('r7'));
    expect(sends).toHaveLength(2);
    expect(sends[1]!.headers['idempotency-key']).toBe(sends[0]!.headers['idempotency-key']);
    expect(JSON.parse(await readFile(checkpointPath, 'utf8'))).toMatchObject({ done: { counts: { upserted: 5, skipped: 15 } }, unknown: [], sending: [] });
    // The unknown-outcome file is kept, as it was: never deleted nor replaced.
    expect((await readFile(unknownPath, 'utf8')).trim().split('\n')).toHaveLength(5);
  });

  it('a run with refused records and records of unknown outcome names both, the unknown ones first', async () => {
    const rejectsPath = temp.path('both-rejects.ndjson');
    serve((request) => (refsOf(request).includes('r7') ? { status: 502 } : allOrNothing(request)));
    const input = records(10, (i) => ({ bad: i === 1 }));
    const summary = await runBulk({
      client: client(server.url),
      operationId: UPSERT,
      items: stream(input),
      batchSize: 5,
      concurrency: 1,
      rejectsPath,
      unknownPath: temp.path('both-unknown.ndjson'),
    });
    expect(summary).toMatchObject({ succeeded: 4, failed: 1, unknown: 5 });
    expect(partialFailure(summary)?.message).toMatch(/^the outcome of 5 records is unknown .*; 1 of 5 failed: see .*both-rejects\.ndjson$/);
  });

  it('gives every batch its own key, the same on a resume and a new one when the records differ', async () => {
    const checkpointPath = temp.path('keys.checkpoint.json');
    const input = records(10, (i) => ({ id: 1 + i }));
    const changed = input.map((item, i) => (i === 7 ? { ...item, value: { ...item.value, extra: 1 } } : item));
    const options = { operationId: UPSERT, batchSize: 5, concurrency: 1, checkpointPath };
    serve((request) => (refsOf(request).includes('r7') ? { status: 401 } : allOrNothing(request)));
    await runBulk({ client: client(server.url), ...options, items: stream(input) }).catch(() => {});
    await runBulk({ client: client(server.url), ...options, items: stream(changed) }).catch(() => {});
    serve(allOrNothing);
    await runBulk({ client: client(server.url), ...options, items: stream(input) });
    const [first, second, secondChanged, secondAgain] = server.requests.map((r) => r.headers['idempotency-key']);
    expect(server.requests).toHaveLength(4);
    expect(first).not.toBe(second);
    expect(secondChanged).not.toBe(second);
    expect(secondAgain).toBe(second);
  });
});

describe('answers', () => {
  it('hands over what the service answered in input order, though the first batch finishes last', async () => {
    // The first batch is answered only once every other batch has been: batches
    // finish out of order by construction, not by timing.
    let others = 0;
    let releaseFirst: () => void = () => {};
    const firstMayAnswer = new Promise<void>((resolve) => (releaseFirst = resolve));
    serve(async (request) => {
      if (refsOf(request)[0] === 'r0') await firstMayAnswer;
      else if (++others === 3) releaseFirst();
      return allOrNothing(request);
    });
    const answered: string[] = [];
    const summary = await runBulk({
      client: client(server.url),
      operationId: UPSERT,
      items: stream(records(8)),
      batchSize: 2,
      concurrency: 4,
      onAnswers: async (answers) => {
        for (const answer of answers) answered.push(...(answer.result.data as Array<{ ref: string }>).map((r) => r.ref));
      },
    });
    expect(summary).toMatchObject({ succeeded: 8, batches: 4 });
    expect(answered).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7']);
  });

  it('leaves refused records out of the answers, and keeps the order of the rest', async () => {
    serve(allOrNothing);
    const answered: string[] = [];
    await runBulk({
      client: client(server.url),
      operationId: UPSERT,
      items: stream(records(6, (i) => (i === 2 ? { bad: true } : {}))),
      batchSize: 4,
      concurrency: 2,
      onAnswers: async (answers) => {
        for (const answer of answers) answered.push(...(answer.result.data as Array<{ ref: string }>).map((r) => r.ref));
      },
    });
    expect(answered).toEqual(['r0', 'r1', 'r3', 'r4', 'r5']);
  });
});
