/**
 * Finds a service's wire profile with read-only calls (`pla config detect`, and
 * `pla doctor` to compare with the stored one): pages of one at 0 and at 1 (page
 * shape and base), one page larger than services usually allow (a size maximum that
 * cuts instead of refusing, and what its `size` then says), a read of a listed id
 * (the envelope) and a read of an id that cannot exist (a 404 or a soft 404, and
 * how a refusal is spelled). Nothing is written.
 */
import { expandPath, operation, type OperationId } from '../contract/operations.js';
import type { EnvelopeForm, FailureForm, WireProfile } from '../contract/wire-profile.js';
import { INT64_MAX } from '../contract/ids.js';
import { NotFoundError, RejectedError } from '../errors.js';
import { isObject, keyOf } from './objects.js';
import { type AnsweredPage, readPage } from './page-shapes.js';
import { probeBase } from './page-walk.js';
import type { PlaClient } from './types.js';

/** What detection found, and what it could not tell (one line each, for a person). */
export interface Detection {
  profile: WireProfile;
  unknown: string[];
}

/** The listing and the read by id the probes use: determinations, which every service of the spec has. */
const LIST: OperationId = 'determinations.list';
const GET: OperationId = 'determinations.get';
/**
 * A size above what Spring allows by default (`max-page-size` 2000): a service that
 * cuts sizes shows its maximum; one that does not answers at most this many records.
 */
const LARGE_SIZE = 2001;
/** Keys that usually hold the data of an envelope, in the order they are tried. */
const ENVELOPE_KEYS = ['data', 'result', 'payload', 'content', 'body', 'item', 'items', 'response', 'value'];

/** The key of `body` holding what `holds` recognises, trying the usual keys first; undefined when the body is it, bare. */
function envelopeKeyOf(body: Record<string, unknown>, holds: (value: unknown) => boolean): string | undefined {
  const keys = [...ENVELOPE_KEYS.filter((key) => key in body), ...Object.keys(body).filter((key) => !ENVELOPE_KEYS.includes(key))];
  return keys.find((key) => holds(body[key]));
}

/** The envelope around a record answer, from a read of the record `id`. */
function envelopeOf(body: unknown, id: unknown): EnvelopeForm | undefined {
  const isRecord = (value: unknown) => isObject(value) && String(value.id) === String(id);
  if (isRecord(body)) return 'none';
  if (!isObject(body)) return undefined;
  const key = envelopeKeyOf(body, isRecord);
  if (key === undefined) return undefined;
  return {
    key,
    ...('success' in body ? { success: true } : {}),
    ...('message' in body ? { message: true } : {}),
    ...('code' in body ? { code: true } : {}),
  };
}

/** The data of an answer under `envelope` (the answer itself when it has none or it is not known). */
function unwrap(body: unknown, envelope: EnvelopeForm | undefined): unknown {
  return envelope === undefined || envelope === 'none' || !isObject(body) || !(envelope.key in body) ? body : body[envelope.key];
}

/** How a refusal looks, read from the answer to a missing id. */
function failureOf(body: unknown, status: number): FailureForm | undefined {
  if (status >= 400) return 'problem';
  if (!isObject(body)) return undefined;
  if (body.success === false || body.success === 'false') return 'success-false';
  if (typeof body.status === 'string' && /^(ERROR|FAILED|FAIL)$/i.test(body.status)) return 'status-error';
  if (typeof body.code === 'number' && body.code >= 400) return 'code-msg';
  return undefined;
}

/** Status values that name a record taken out of use, when a listed record has one (upper-cased). */
const DECOMMISSION_WORDS: ReadonlySet<string> = new Set(['DECOMMISSIONED', 'RETIRED', 'ARCHIVED', 'INACTIVE', 'DISABLED', 'OBSOLETE', 'DEACTIVATED']);

/**
 * How this service marks a decommissioned record, read from listed records: the
 * status of a record carrying a decommission stamp (`decommissionedAt`,
 * `decommissioned: true`), else a status that says so in words. `undefined` when
 * no listed record shows one.
 */
function decommissionedOf(records: ReadonlyArray<Record<string, unknown>>): string | undefined {
  const statusOf = (record: Record<string, unknown>) => {
    const key = keyOf(record, 'status');
    const value = key === undefined ? undefined : record[key];
    return typeof value === 'string' && value !== '' && key !== undefined ? { key, value } : undefined;
  };
  const spelled = ({ key, value }: { key: string; value: string }) => (key.toLowerCase() === 'status' ? value : `${key}:${value}`);
  for (const record of records) {
    const stamped = Object.entries(record).some(([field, value]) => /^(is)?decommission/i.test(field) && value !== null && value !== false && value !== '');
    const status = statusOf(record);
    if (stamped && status) return spelled(status);
  }
  for (const record of records) {
    const status = statusOf(record);
    if (status && DECOMMISSION_WORDS.has(status.value.toUpperCase())) return spelled(status);
  }
  return undefined;
}

/** Probes the service behind `client`; see the module comment. */
export async function detectWire(client: PlaClient, signal?: AbortSignal): Promise<Detection> {
  const profile: WireProfile = {};
  const unknown: string[] = [];
  const listPath = expandPath(operation(LIST));
  const fetchPage = async (page: number, size: number | undefined): Promise<AnsweredPage<Record<string, unknown>>> => {
    const answer = await client.raw('GET', listPath, { query: { page: String(page), size: String(size ?? 1) }, ...(signal ? { signal } : {}) });
    const body = answer.data;
    // A refusal inside a 200 (`{"success": false, …}`) is a refusal, as a 400 is.
    if (failureOf(body, 200)) throw new RejectedError(`the service refused page=${page}&size=${String(size)} inside a 200`, 200, body);
    // Any envelope around the page is read through: the page's own form is what is stored.
    return readPage(body, LIST, { headers: answer.headers, status: answer.status });
  };

  // Pages: shape and base, or page numbers ignored (a service paging by cursors).
  let first: AnsweredPage<Record<string, unknown>>;
  try {
    first = await fetchPage(0, 1);
    const base = await probeBase(fetchPage);
    profile.page = { shape: first.shape, ...(base === 'ignored' ? { follow: 'links' as const } : { base }) };
  } catch (error) {
    // A service numbering from 1 may refuse page 0 outright.
    if (!(error instanceof RejectedError)) throw error;
    first = await fetchPage(1, 1);
    profile.page = { shape: first.shape, base: 1 };
  }
  const paging = profile.page;
  if (first.items.length === 0) {
    // Nothing to compare: left out, so each run still finds it out (and doctor has nothing stale to compare).
    delete paging.base;
    unknown.push('page.base: the listing is empty; detect again once it has records');
  }

  // Pages: a size maximum that cuts rather than refuses.
  let sample: Array<Record<string, unknown>> = first.items;
  try {
    const large = await fetchPage(paging.base ?? 0, LARGE_SIZE);
    sample = large.items;
    const count = large.items.length;
    if (large.size !== undefined && large.size < LARGE_SIZE) Object.assign(paging, { maxSize: large.size, sizeEcho: 'capped' });
    else if (large.totalElements !== undefined && count < Math.min(large.totalElements, LARGE_SIZE))
      Object.assign(paging, { maxSize: count, ...(large.size !== undefined ? { sizeEcho: 'requested' } : {}) });
    else if (large.next !== undefined) unknown.push(`page.maxSize: a page of ${LARGE_SIZE} answered ${count} records and a link to more; no count to compare`);
    else unknown.push(`page.maxSize: a page of ${LARGE_SIZE} answered ${count} records, all there are: no maximum seen`);
  } catch (error) {
    // Refusing a size above its maximum is honest: nothing to work around.
    if (!(error instanceof RejectedError)) throw error;
  }

  // What a decommissioned record looks like, from the records listed.
  const decommissioned = decommissionedOf(sample);
  if (decommissioned !== undefined) profile.decommissioned = decommissioned;
  else unknown.push('decommissioned: no listed record shows a decommissioned state; say it with pla config set-wire decommissioned=VALUE');

  // A read of a listed id: the envelope.
  const listed = first.items[0]?.id;
  if (listed === undefined) unknown.push('envelope: no record to read (the listing is empty)');
  else {
    const body = (await client.raw('GET', expandPath(operation(GET), { id: String(listed) }), signal ? { signal } : {})).data;
    const envelope = envelopeOf(body, listed);
    if (envelope === undefined) unknown.push(`envelope: the read of ${String(listed)} did not answer the record in a form pla knows`);
    else profile.envelope = envelope;
  }

  // A read of an id that cannot exist: a 404, or a soft 404; and how refusals are spelled.
  try {
    const answer = await client.raw('GET', expandPath(operation(GET), { id: INT64_MAX }), signal ? { signal } : {});
    const failure = failureOf(answer.data, answer.status);
    const data = unwrap(answer.data, profile.envelope);
    const empty =
      data === undefined ||
      data === null ||
      (isObject(data) && Object.keys(data).length === 0) ||
      (typeof profile.envelope === 'object' && data === answer.data);
    if (failure) {
      // Refused inside a 200: "not found" is said as a failure, not as a success without a record.
      profile.failure = failure;
      profile.softNotFound = false;
    } else if (empty) profile.softNotFound = true;
    else unknown.push(`softNotFound: a read of id ${INT64_MAX} answered ${answer.status} with something pla cannot read as "not found"`);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    profile.softNotFound = false;
    profile.failure = 'problem';
  }
  return { profile, unknown };
}
