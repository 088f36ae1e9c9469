/**
 * API keys of the local server. Keys are kept only as sha-256 hashes in the
 * store's `apiKeys` collection, each with a name, an environment and permissions
 * (`<resource>:read|write` as the contract rows name them, `admin` for the
 * `/_admin` endpoints, `*` for everything). The secret itself is shown once, when
 * it is created.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Change, Store, StoredRecord } from '../store/types.js';
import { HttpProblem } from './problem.js';

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
  id: number;
  name: string;
  env: string;
  permissions: string[];
  key: string;
  createdAt: string;
  revokedAt?: string;
}

export function hashKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** `••••` + the last four characters: the only way a key is ever shown after creation. */
export function maskSecret(secret: string): string {
  return `••••${secret.slice(-4)}`;
}

export function viewKey(key: ApiKeyRecord): ApiKeyView {
  const view: ApiKeyView = { id: key.id, name: key.name, env: key.env, permissions: key.permissions, key: `••••${key.last4}`, createdAt: key.createdAt };
  if (key.revokedAt) view.revokedAt = key.revokedAt;
  return view;
}

/** Builds a new key; returns the secret (to show once) and the change that stores its hash. */
export function newKey(store: Store, input: { name: string; env: string; permissions: string[] }): { secret: string; record: ApiKeyRecord; change: Change } {
  const secret = `pla_${input.env.replace(/[^a-z0-9]/gi, '')}_${randomBytes(24).toString('base64url')}`;
  const record: ApiKeyRecord = {
    id: store.allocateId('apiKeys'),
    name: input.name,
    env: input.env,
    permissions: input.permissions,
    hash: hashKey(secret),
    last4: secret.slice(-4),
    createdAt: new Date().toISOString(),
  };
  return { secret, record, change: { op: 'put', collection: 'apiKeys', record } };
}

/** The key a request presents (`x-api-key`), checked against the store; 401 when missing, unknown or revoked. */
export function authenticate(store: Store, presented: string | string[] | undefined): ApiKeyRecord {
  if (typeof presented !== 'string' || presented === '') {
    throw new HttpProblem(401, 'missing API key: send it in the x-api-key header', { slug: 'unauthorized' });
  }
  const hash = hashKey(presented);
  const candidate = store.findBy('apiKeys', 'hash', hash)[0] as ApiKeyRecord | undefined;
  // The index finds the record by hash; the final comparison is constant-time so
  // response timing says nothing about how much of a guessed key was right.
  const matches = candidate !== undefined && timingSafeEqual(Buffer.from(candidate.hash, 'hex'), Buffer.from(hash, 'hex'));
  if (!candidate || !matches) throw new HttpProblem(401, 'unknown API key', { slug: 'unauthorized' });
  if (candidate.revokedAt) throw new HttpProblem(401, `API key ${candidate.name} was revoked`, { slug: 'unauthorized' });
  return candidate;
}

/**
 * Recently accepted keys by their secret, so a request with a known key skips the
 * sha-256. An entry holds only while the store still holds that very record: a
 * revoke or a reset replaces or removes it, and the key is checked afresh.
 */
export class KeyRing {
  private readonly known = new Map<string, ApiKeyRecord>();

  constructor(
    private readonly store: Store,
    private readonly capacity = 1000,
  ) {}

  /** As `authenticate`, from the ring when the key was accepted before and is unchanged since. */
  authenticate(presented: string | string[] | undefined): ApiKeyRecord {
    if (typeof presented === 'string') {
      const known = this.known.get(presented);
      if (known !== undefined) {
        if (this.store.get('apiKeys', known.id) === known) return known;
        this.known.delete(presented);
      }
    }
    const key = authenticate(this.store, presented);
    // Only accepted keys get here (authenticate throws otherwise), so guesses never fill the ring.
    if (this.known.size >= this.capacity) this.known.clear();
    this.known.set(presented as string, key);
    return key;
  }
}

/** True when the key's permissions cover `permission` (exact, `<resource>:*`, or `*`). */
export function allows(key: ApiKeyRecord, permission: string): boolean {
  const { permissions } = key;
  if (permissions.includes('*') || permissions.includes(permission)) return true;
  const colon = permission.indexOf(':');
  return permissions.includes(`${colon === -1 ? permission : permission.slice(0, colon)}:*`);
}

/** 403 unless the key carries `permission`. */
export function authorize(key: ApiKeyRecord, permission: string): void {
  if (!allows(key, permission)) {
    throw new HttpProblem(403, `API key ${key.name} lacks the permission ${permission}`, { slug: 'forbidden' });
  }
}
