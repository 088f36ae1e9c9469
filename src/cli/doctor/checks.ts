/**
 * `pla doctor`'s checks, in the order a request meets them: the config file, the
 * environment with its URL and key, the proxy, DNS, TCP, TLS, the service, the
 * key, the clock, the latency and the wire profile. Each says ✓ or ✗ (or – when an earlier failure
 * leaves nothing to check) with what it found and, on ✗, what to do.
 */
import { statSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCaFile } from '../../config/ca-file.js';
import { configDir } from '../../config/config-dir.js';
import { maskKey, maskUrl } from '../../contract/secrets.js';
import { resolveConnection } from '../../config/resolve-connection.js';
import type { ConfigStore, Connection } from '../../config/types.js';
import { ApiError, AuthError, EXIT_CODES, PlaError } from '../../errors.js';
import { chooseProxy } from '../../client/proxy.js';
import type { PlaClient } from '../../client/types.js';
import { hintFor } from '../error-hints.js';
import { wireDifferences, wireText } from '../../contract/wire-profile.js';
import { resolveHost, tcpProbe, tlsProbe } from './probes.js';

export type CheckStatus = 'ok' | 'fail' | 'skip';

export interface Check {
  check: string;
  status: CheckStatus;
  detail: string;
  hint?: string;
  /** The exit code this failure stands for (2 config, 3 key, 8 reaching the service …). */
  exitCode?: number;
}

export interface DoctorInput {
  flags: { env?: string; baseUrl?: string; apiKey?: string };
  /** The run's environment variables (PLA_ENV, PLA_BASE_URL, PLA_API_KEY). */
  env: Readonly<Record<string, string | undefined>>;
  config: ConfigStore;
  /** Makes a client for the connection (no retries: a doctor reports the first answer). */
  client: (connection: Connection, ca: string | undefined) => PlaClient;
  timeoutMs: number;
}

/** Clock difference to the service beyond which signed or timed things go wrong. */
const MAX_SKEW_SECONDS = 30;
/** A certificate this close to expiry is worth a ✗. */
const EXPIRY_WARNING_DAYS = 14;

const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

function ok(check: string, detail: string): Check {
  return { check, status: 'ok', detail };
}
function fail(check: string, detail: string, hint: string, exitCode: number = EXIT_CODES.network): Check {
  return { check, status: 'fail', detail, hint, exitCode };
}
function skip(check: string, detail = 'not checked: an earlier step failed'): Check {
  return { check, status: 'skip', detail };
}

function errorText(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return `${(error as Error).message ?? String(error)}${typeof code === 'string' && !(error as Error).message?.includes(code) ? ` (${code})` : ''}`;
}

function configFileCheck(env: DoctorInput['env']): Check {
  const path = join(configDir(env), 'config.json');
  let mode: number;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    return ok('config file', `none yet at ${path}: defaults apply`);
  }
  try {
    JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    return fail('config file', `${path} is not JSON: ${(error as Error).message}`, 'fix or delete it', EXIT_CODES.usage);
  }
  const octal = mode.toString(8).padStart(4, '0');
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    return fail('config file', `${path} (mode ${octal}: others can read the keys)`, `chmod 600 ${path}`, EXIT_CODES.usage);
  }
  return ok('config file', `${path} (mode ${octal})`);
}

/** Where the environment's name came from. */
function envSource(input: DoctorInput): string {
  if (input.flags.env) return '-e/--env';
  if (input.env.PLA_ENV) return 'PLA_ENV';
  return 'the current environment (pla config use)';
}

const SOURCE_NAMES: Readonly<Record<string, string>> = { flag: 'flag', 'env-var': 'variable', config: 'config', default: 'default' };

/** Runs every check; never throws for a failing step (that is a ✗). */
export async function runChecks(input: DoctorInput): Promise<Check[]> {
  const checks: Check[] = [configFileCheck(input.env)];
  let connection: Connection;
  try {
    connection = resolveConnection(input.flags, input.config, input.env);
  } catch (error) {
    checks.push(fail('environment', (error as Error).message, (error as PlaError).hint ?? 'pla config show', EXIT_CODES.usage));
    return checks;
  }
  const { env, baseUrl } = connection;
  checks.push(ok('environment', `${env} (from ${envSource(input)})`));
  checks.push(ok('base URL', `${baseUrl} (from ${SOURCE_NAMES[connection.baseUrlSource]})`));
  checks.push(
    connection.apiKey
      ? ok('API key', `${maskKey(connection.apiKey)} (from ${SOURCE_NAMES[connection.apiKeySource ?? 'config']})`)
      : fail('API key', 'none', `pla config set-key --env ${env} (or PLA_API_KEY)`, EXIT_CODES.auth),
  );

  let ca: string | undefined;
  if (connection.caFile) {
    try {
      ca = await readCaFile(connection.caFile, env);
    } catch (error) {
      checks.push(fail('CA file', (error as Error).message, (error as PlaError).hint ?? '', EXIT_CODES.usage));
      return checks;
    }
  }

  const url = new URL(baseUrl);
  const port = Number(url.port) || (DEFAULT_PORTS[url.protocol] as number);
  const proxy = chooseProxy(baseUrl, connection.proxy, input.env);
  checks.push(ok('proxy', proxy ? `${maskUrl(proxy.url)} (from ${proxy.source}); the proxy resolves ${url.hostname}` : 'none: connecting directly'));

  // DNS and TCP go to the proxy when there is one: it reaches the service for us.
  const hop = proxy ? new URL(proxy.url) : url;
  const hopPort = Number(hop.port) || (DEFAULT_PORTS[hop.protocol] as number);
  const what = proxy ? 'proxy' : 'service';
  let reachable = false;
  try {
    const addresses = await resolveHost(hop.hostname);
    checks.push(ok('DNS', `${hop.hostname} → ${addresses.join(', ')}`));
    try {
      const ms = await tcpProbe(hop.hostname, hopPort, input.timeoutMs);
      checks.push(ok('TCP', `${what} ${hop.hostname}:${hopPort} accepted a connection in ${ms} ms`));
      reachable = true;
    } catch (error) {
      checks.push(
        fail(
          'TCP',
          `${what} ${hop.hostname}:${hopPort}: ${errorText(error)}`,
          proxy ? 'is the proxy up, and its port right?' : 'is the service up? for the local one: `pla server start`',
        ),
      );
    }
  } catch (error) {
    checks.push(
      fail(
        'DNS',
        `${hop.hostname}: ${errorText(error)}`,
        proxy
          ? 'check the proxy URL (HTTPS_PROXY, HTTP_PROXY or `pla config set-proxy`)'
          : 'check the host name in the base URL; behind a corporate proxy set HTTPS_PROXY',
      ),
    );
    checks.push(skip('TCP'));
  }

  if (url.protocol !== 'https:') checks.push(ok('TLS', 'not used (http base URL)'));
  else if (!reachable) checks.push(skip('TLS'));
  else {
    try {
      const tls = await tlsProbe(url.hostname, port, {
        ...(ca !== undefined ? { ca } : {}),
        ...(proxy ? { proxyUrl: proxy.url } : {}),
        timeoutMs: input.timeoutMs,
      });
      const days = Math.floor((tls.validTo.getTime() - Date.now()) / 86_400_000);
      const facts = `${tls.protocol}, issued by ${tls.issuer} to ${tls.subject}, expires ${tls.validTo.toISOString().slice(0, 10)} (${days} days)`;
      if (!tls.trusted) {
        checks.push(
          fail(
            'TLS',
            `certificate not trusted (${tls.reason ?? 'unknown reason'}): ${facts}`,
            `trust its CA: pla config set-ca ca.pem --env ${env}, or NODE_EXTRA_CA_CERTS=ca.pem`,
          ),
        );
      } else if (days < EXPIRY_WARNING_DAYS) {
        checks.push(fail('TLS', `certificate expires soon: ${facts}`, 'ask the service owners to renew it'));
      } else checks.push(ok('TLS', facts));
    } catch (error) {
      checks.push(fail('TLS', `handshake with ${url.host} failed: ${errorText(error)}`, 'does the service speak https on this port? check the base URL'));
    }
  }

  // One client (one connection, through the proxy too) for the service's checks.
  const client = input.client(connection, ca);
  try {
    const service = await serviceChecks(client, env);
    checks.push(...service);
    checks.push(service.every((check) => check.status === 'ok' || check.check === 'clock') ? await wireCheck(client, connection) : skip('wire profile'));
  } finally {
    await client.close();
  }
  return checks;
}

/**
 * The stored wire profile against what the service answers now (the same read-only
 * probes as `pla config detect`): a profile gone stale misleads every command.
 */
async function wireCheck(client: PlaClient, connection: Connection): Promise<Check> {
  const { env, wire } = connection;
  try {
    const { detectWire } = await import('../../client/detect-wire.js');
    const { profile } = await detectWire(client);
    if (!wire) return ok('wire profile', `none stored; the service answers ${wireText(profile)} (pla config detect --env ${env} stores it)`);
    const differences = wireDifferences(wire, profile);
    if (differences.length === 0) return ok('wire profile', `the service still answers as stored: ${wireText(wire)}`);
    return fail('wire profile', `the service no longer answers as stored: ${differences.join('; ')}`, `pla config detect --env ${env}`, EXIT_CODES.usage);
  } catch (error) {
    return fail(
      'wire profile',
      `probing the service failed: ${errorText(error)}`,
      hintFor(error) ?? 'run pla config detect --verbose',
      error instanceof PlaError ? error.exitCode : EXIT_CODES.unexpected,
    );
  }
}

/** One cheap authenticated read (a page of one determination): service, key, clock, latency. */
async function serviceChecks(client: PlaClient, env: string): Promise<Check[]> {
  const started = Date.now();
  try {
    const result = await client.call('determinations.list', { paging: { size: 1 } });
    const finished = Date.now();
    const latency = finished - started;
    const checks = [ok('service', `answered ${result.status}`), ok('key accepted', 'an authenticated read succeeded')];
    const date = result.headers.date;
    const served = typeof date === 'string' ? Date.parse(date) : Number.NaN;
    if (Number.isNaN(served)) checks.push(skip('clock', 'the answer has no Date header'));
    else {
      // The Date header has whole seconds; compare with the middle of the exchange.
      const skew = Math.round((served - (started + finished) / 2) / 1000);
      checks.push(
        Math.abs(skew) <= MAX_SKEW_SECONDS
          ? ok('clock', `within ${Math.max(1, Math.abs(skew))} s of the service`)
          : fail(
              'clock',
              `${Math.abs(skew)} s ${skew > 0 ? 'behind' : 'ahead of'} the service`,
              'set the clock right (NTP: timedatectl set-ntp true)',
              EXIT_CODES.unexpected,
            ),
      );
    }
    checks.push(ok('latency', `${latency} ms for one read`));
    return checks;
  } catch (error) {
    if (error instanceof AuthError) {
      return [
        ok('service', `answered ${error.status}`),
        fail('key accepted', error.message, hintFor(error) ?? `pla config set-key --env ${env}`, EXIT_CODES.auth),
        skip('clock'),
        skip('latency'),
      ];
    }
    const answered = error instanceof ApiError;
    const failed = fail(
      'service',
      (error as Error).message,
      hintFor(error) ?? 'run the command again with --verbose',
      error instanceof PlaError ? error.exitCode : EXIT_CODES.network,
    );
    return [failed, answered ? skip('key accepted', 'not checked: the service failed') : skip('key accepted'), skip('clock'), skip('latency')];
  }
}
