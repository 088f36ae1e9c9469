/**
 * API keys of the local server. Keys are kept only as sha-256 hashes in the
 * store's `apiKeys` collection, each with a name, an environment and permissions
 * (`<resource>:read|write` as the contract rows name them, `admin` for the
 * `/_admin` endpoints, `*` for everything). The secret itself is shown once, when
 * it is created.
 */
import type { RecordId } from '../contract/ids.js';
import { createHash, randomBytes } from 'node:crypto';
import { andThen, type Eventually, type StoreReader, type StoredRecord, type Transaction } from '../store/types.js';
import { HttpProblem } from './problem.js';
import { maskFromLast4 } from '../contract/secrets.js';

/** A stored key (never the secret itself). */
export interface ApiKeyRecord extends StoredRecord {
  name: string;
  env: string;
  permissions: string[];
  hash: string;
  last4: string;
  createdAt: string;
  revokedAt?: string;
}

/** The public view of a key, as `/_admin/keys` lists it. */
export interface ApiKeyView {
  id: RecordId;
  name: string;
  env: string;
  permissions: string[];
  key: string;
  createdAt: string;
  revokedAt?: string;
}

function hashKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A stored key as `/_admin/keys` shows it: masked, without its hash. */
export function viewKey(key: ApiKeyRecord): ApiKeyView {
  const view: ApiKeyView = { id: key.id, name: key.name, env: key.env, permissions: key.permissions, key: maskFromLast4(key.last4), createdAt: key.createdAt };
  if (key.revokedAt) view.revokedAt = key.revokedAt;
  return view;
}

/** Builds a new key under a new id and stages it on `tx`; returns the secret (to show once) and the record that holds its hash. */
export async function newKey(tx: Transaction, input: { name: string; env: string; permissions: string[] }): Promise<{ secret: string; record: ApiKeyRecord }> {
  const secret = `pla_${input.env.replace(/[^a-z0-9]/gi, '')}_${randomBytes(24).toString('base64url')}`;
  const [id] = await tx.allocateIds('apiKeys', 1);
  const record: ApiKeyRecord = {
    id: id as number,
    name: input.name,
    env: input.env,
    permissions: input.permissions,
    hash: hashKey(secret),
    last4: secret.slice(-4),
    createdAt: new Date().toISOString(),
  };
  tx.put('apiKeys', record);
  return { secret, record };
}

/**
 * The key a request presents (`x-api-key`), checked against the store; 401 when
 * missing, unknown or revoked.
 *
 * Keys are stored only as sha-256 hashes, and a presented key is found by its hash
 * alone: no secret is ever compared byte by byte, so how long the answer takes says
 * nothing about how much of a real key a guess got right (the guarantee a
 * constant-time comparison gives). `KeyRing` spares known keys the hash.
 */
export async function authenticate(store: StoreReader, presented: string | string[] | undefined): Promise<ApiKeyRecord> {
  if (typeof presented !== 'string' || presented === '') {
    throw new HttpProblem(401, 'missing API key: send it in the x-api-key header', { slug: 'unauthorized' });
  }
  // Looked up by the sha-256 of the presented key, never by the key itself: how long
  // the lookup takes says something about the hash only, nothing about the secret.
  const [candidate] = (await store.find('apiKeys', { where: [{ field: 'hash', equals: hashKey(presented) }] })) as ApiKeyRecord[];
  if (!candidate) throw new HttpProblem(401, 'unknown API key', { slug: 'unauthorized' });
  if (candidate.revokedAt) throw new HttpProblem(401, `API key ${candidate.name} was revoked`, { slug: 'unauthorized' });
  return candidate;
}

/** Accepted keys the ring remembers at most; past it, it starts over. */
const KEY_RING_CAPACITY = 1000;

/** How long a remembered key is trusted before it is looked up again. */
const KEY_RECHECK_MS = 1000;

/**
 * Recently accepted keys by their secret, so a request with a known key skips the
 * sha-256: under load the hash (with its allocations) cost a fifth of a page read's
 * throughput (bench/server.mjs). Only keys that were accepted get in, so guesses
 * never fill it; a presented key is compared only with remembered keys that share
 * its slot in the Map, never step by step against a real key. Secrets live in
 * memory only.
 *
 * A remembered key is trusted for `KEY_RECHECK_MS`, then looked up again by id (still
 * there, same hash, not revoked): on PostgreSQL every lookup is a round trip, which
 * would double the cost of a read. A revoke or reset through this process forgets
 * every key at once; one through another process on the same database is seen here
 * within that second.
 */
export class KeyRing {
  private readonly known = new Map<string, { key: ApiKeyRecord; checkedAt: number }>();

  constructor(private readonly store: StoreReader) {}

  /**
   * As `authenticate`, from the ring when the key was accepted before and is still the
   * same, unrevoked key: at once (no promise) for a key checked within the last second.
   */
  authenticate(presented: string | string[] | undefined): Eventually<ApiKeyRecord> {
    if (typeof presented === 'string') {
      const known = this.known.get(presented);
      if (known !== undefined) {
        const now = Date.now();
        if (now - known.checkedAt < KEY_RECHECK_MS) return known.key;
        return andThen(this.store.get('apiKeys', known.key.id), (found) => {
          const current = found as ApiKeyRecord | undefined;
          if (current !== undefined && current.hash === known.key.hash && !current.revokedAt) {
            this.known.set(presented, { key: current, checkedAt: now });
            return current;
          }
          this.known.delete(presented);
          return this.lookUp(presented);
        });
      }
    }
    return this.lookUp(presented);
  }

  /** The key looked up by its hash, remembered once accepted. */
  private async lookUp(presented: string | string[] | undefined): Promise<ApiKeyRecord> {
    const key = await authenticate(this.store, presented);
    if (this.known.size >= KEY_RING_CAPACITY) this.known.clear();
    this.known.set(presented as string, { key, checkedAt: Date.now() });
    return key;
  }

  /** Forgets every remembered key (after a revoke or a reset): the next request of each is checked afresh. */
  forget(): void {
    this.known.clear();
  }
}

/** True when the key's permissions cover `permission` (exact, `<resource>:*`, or `*`). */
export function allows(key: ApiKeyRecord, permission: string): boolean {
  const { permissions } = key;
  if (permissions.includes('*') || permissions.includes(permission)) return true;
  const colon = permission.indexOf(':');
  return permissions.includes(`${colon === -1 ? permission : permission.slice(0, colon)}:*`);
}

/** True when a key with these permissions can administer keys (`admin` or `*`). */
export function administers(key: Pick<ApiKeyRecord, 'permissions' | 'revokedAt'>): boolean {
  return !key.revokedAt && (key.permissions.includes('*') || key.permissions.includes('admin'));
}

/**
 * 403 unless `creator` holds every permission it would grant: `admin` is the right
 * to manage keys, not to hand out more than one has (a key with only `admin`
 * cannot mint a `*` key).
 */
export function authorizeGrant(creator: ApiKeyRecord, permissions: readonly string[]): void {
  const lacking = permissions.filter((permission) => {
    if (permission === '*') return !creator.permissions.includes('*');
    if (permission.endsWith(':*')) {
      const resource = permission.slice(0, -2);
      return !allows(creator, `${resource}:read`) || !allows(creator, `${resource}:write`);
    }
    return !allows(creator, permission);
  });
  if (lacking.length) {
    throw new HttpProblem(403, `API key ${creator.name} cannot grant permissions it does not have: ${lacking.join(', ')}`, {
      slug: 'forbidden',
      errors: lacking.map((permission) => ({ path: 'body.permissions', message: `${permission} is not held by ${creator.name}` })),
    });
  }
}

/** 403 unless the key carries `permission`. */
export function authorize(key: ApiKeyRecord, permission: string): void {
  if (!allows(key, permission)) {
    throw new HttpProblem(403, `API key ${key.name} lacks the permission ${permission}`, { slug: 'forbidden' });
  }
}
