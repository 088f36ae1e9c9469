/**
 * `pla server start --smtp URL`: email notifications go out through a real SMTP
 * server (smtp-server, nodemailer's own, on port 0) instead of the outbox, and
 * `sent` is true only once the server accepted the message.
 */
import { readdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-server.js';

interface Received {
  from: string;
  to: string[];
  text: string;
}

const received: Received[] = [];
let smtp: SMTPServer;
let server: LocalServer;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      let text = '';
      stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        received.push({ from, to: session.envelope.rcptTo.map((r) => r.address), text });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const { port } = smtp.server.address() as AddressInfo;
  server = await startLocalServer({ args: ['--smtp', `smtp://127.0.0.1:${port}`] });
});

afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

it('delivers through SMTP and marks the notification sent', async () => {
  const result = await server.pla([
    'notifications',
    'email',
    'send',
    '-o',
    'json',
    '--data',
    JSON.stringify({ forUserEmail: 'hana@example.com', byUserEmail: 'ops@example.com', title: 'Lease renewal', description: 'Please sign by Monday' }),
  ]);
  expect(result.exitCode).toBe(0);
  expect(JSON.parse(result.stdout)).toMatchObject([{ forUserEmail: 'hana@example.com', sent: true }]);

  expect(received).toHaveLength(1);
  expect(received[0]).toMatchObject({ from: 'ops@example.com', to: ['hana@example.com'] });
  expect(received[0]?.text).toMatch(/^Subject: Lease renewal$/m);
  expect(received[0]?.text).toContain('Please sign by Monday');
  // Through SMTP nothing lands in the outbox folder.
  expect(await readdir(join(server.dataDir, 'outbox')).catch(() => [])).toEqual([]);
});

it('answers 502 and keeps nothing when the SMTP server cannot be reached', async () => {
  // Port 1 on loopback: nothing listens there.
  const unreachable = await startLocalServer({ args: ['--smtp', 'smtp://127.0.0.1:1', '--no-seed'] });
  try {
    const result = await unreachable.pla([
      'notifications',
      'email',
      'send',
      '--retries',
      '0',
      '--data',
      JSON.stringify({ forUserEmail: 'ian@example.com', title: 'x' }),
    ]);
    expect(result.exitCode).toBe(7);
    expect(result.stderr).toMatch(/^error: 502 /m);
    const health = (await unreachable.http('GET', '/_admin/health')).body as { records: Record<string, number> };
    expect(health.records.emailNotifications ?? 0).toBe(0);
  } finally {
    await unreachable.stop();
  }
});
