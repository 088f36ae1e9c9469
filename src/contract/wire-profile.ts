/**
 * A wire profile: how a service spells what the interface document leaves "not
 * shown" (envelopes, failures, page wrappers, paging parameters). The client reads
 * answers by it, `pla config detect` finds it, `pla server start --wire` answers in
 * it. Plain data and plain errors, no imports: every room may use it.
 */

/**
 * The envelope around single, list and void answers: `key` holds the data (`data`,
 * `result`, `payload`, …), with a `success` flag and a `message` beside it when
 * asked; `none` answers the data bare (a void answer has no body).
 */
export type EnvelopeForm = 'none' | { key: string; success?: boolean; message?: boolean; code?: boolean };

/**
 * How a refusal of an operation is answered:
 * - `problem` its HTTP status with an RFC 9457 problem body
 * - `success-false` 200 `{"success": false, "message": …}` (no data key: Jackson leaves out nulls)
 * - `status-error` 200 `{"status": "ERROR", "errors": [{"message": …}]}`
 * - `code-msg` 200 `{"code": <status>, "msg": …}`
 */
export type FailureForm = 'problem' | 'success-false' | 'status-error' | 'code-msg';
export const FAILURE_FORMS = ['problem', 'success-false', 'status-error', 'code-msg'] as const satisfies readonly FailureForm[];

/**
 * How a bulk request is answered:
 * - `all-or-nothing` applied whole or refused whole (one status for the request)
 * - `per-item` each item applied on its own, the answer a list with a result per item
 */
export type BulkItemsForm = 'all-or-nothing' | 'per-item';
export const BULK_ITEMS_FORMS = ['all-or-nothing', 'per-item'] as const satisfies readonly BulkItemsForm[];

/**
 * How a page of records is wrapped: shape A (Spring's Page, flat), shape B (content
 * + page{}), a bare array; a bare array with `Link` rel=next and `X-Total-Count`
 * headers (`link`); OData v4 (`odata`: value, @odata.count, @odata.nextLink) and v2
 * (`odata-v2`: d.results, __count, __next); HAL (`hal`: _embedded, _links.next,
 * page{}); `items` (items + totalCount, any case, ASP.NET's `Items`/`TotalCount`);
 * `cursor` (items + nextCursor; the `page` parameter ignored).
 */
export const PAGE_SHAPES = ['flat', 'nested', 'array', 'link', 'odata', 'odata-v2', 'hal', 'items', 'cursor'] as const;
export type PageShape = (typeof PAGE_SHAPES)[number];

/** Whether a capped page's `size` says the size answered or echoes the size asked for. */
export const SIZE_ECHOES = ['capped', 'requested'] as const;
export type SizeEcho = (typeof SIZE_ECHOES)[number];

/**
 * How pages after the first are reached: by the `page` parameter (`numbers`), or
 * only by the next links or cursors the service answers (`links`: it ignores page
 * numbers, so `--page N` cannot be asked for).
 */
export const PAGE_FOLLOWS = ['numbers', 'links'] as const;
export type PageFollow = (typeof PAGE_FOLLOWS)[number];

/** How a service pages. Every field optional: what is not known is detected per run. */
export interface PageProfile {
  shape?: PageShape;
  /**
   * The number of the first page in the `page` parameter: 0 (Spring's default) or
   * 1 (`spring.data.web.pageable.one-indexed-parameters`).
   */
  base?: 0 | 1;
  /** The most records the service answers a page; larger sizes are cut to it, not refused. */
  maxSize?: number;
  /** What a capped page's `size` field says. */
  sizeEcho?: SizeEcho;
  /** Whether the service honours `page` or only its own next links and cursors. */
  follow?: PageFollow;
}

export interface WireProfile {
  envelope?: EnvelopeForm;
  failure?: FailureForm;
  bulkItems?: BulkItemsForm;
  /** A read of a missing id answers 200 with no record (`{"data": null}`) instead of 404. */
  softNotFound?: boolean;
  /**
   * What a decommissioned record looks like on this service: a value of its
   * `status` (`RETIRED`), or `field:VALUE` (`lifecycle:ARCHIVED`). Without it a
   * remove that leaves the record there is unconfirmed (the spec does not show
   * decommission states).
   */
  decommissioned?: string;
  page?: PageProfile;
}

type Value = string | number | boolean;

/** Thrown (as a plain Error: this module has no imports) when profile text cannot be read. */
export class WireProfileError extends Error {}

/** One setting of a profile as `name=value` text: what it accepts, how to read it, where it lives in a profile. */
interface Setting {
  /** What the value may be, for messages. */
  accepts: string;
  read(text: string): Value | undefined;
  get(profile: WireProfile): Value | undefined;
  set(profile: WireProfile, value: Value): WireProfile;
}

type Reader = Pick<Setting, 'accepts' | 'read'>;

function oneOf(values: readonly string[]): Reader {
  return { accepts: values.join(' | '), read: (text) => (values.includes(text) ? text : undefined) };
}

const yesNo: Reader = { accepts: 'true | false', read: (text) => (text === 'true' ? true : text === 'false' ? false : undefined) };

function wholeNumber(min: number, max: number): Reader {
  return {
    accepts: max - min === 1 ? `${min} | ${max}` : `a whole number from ${min}`,
    read: (text) => (/^\d{1,9}$/.test(text) && Number(text) >= min && Number(text) <= max ? Number(text) : undefined),
  };
}

/** `VALUE` or `field:VALUE`: what a decommissioned record's field holds. */
const fieldValue: Reader = {
  accepts: 'a status value (RETIRED) or field:VALUE',
  read: (text) => (/^([A-Za-z_$][\w$-]*:)?[\w.-]+$/.test(text) ? text : undefined),
};

const fieldName: Reader = { accepts: 'a field name, or none', read: (text) => (/^[A-Za-z_$][\w$-]*$/.test(text) ? text : undefined) };

/** A field of the page section. */
function pageField(field: keyof PageProfile, reader: Reader): Setting {
  return {
    ...reader,
    get: (profile) => profile.page?.[field],
    set: (profile, value) => ({ ...profile, page: { ...profile.page, [field]: value } }),
  };
}

/** A top-level field. */
function topField(field: 'failure' | 'bulkItems' | 'softNotFound' | 'decommissioned', reader: Reader): Setting {
  return { ...reader, get: (profile) => profile[field], set: (profile, value) => ({ ...profile, [field]: value }) };
}

/** A flag beside the envelope's key; the key must be set first (settings apply in table order). */
function envelopeFlag(flag: 'success' | 'message' | 'code'): Setting {
  return {
    ...yesNo,
    get: (profile) => (typeof profile.envelope === 'object' ? profile.envelope[flag] : undefined),
    set(profile, value) {
      if (typeof profile.envelope !== 'object') throw new WireProfileError(`envelope.${flag} needs envelope.key (the field holding the data)`);
      return { ...profile, envelope: { ...profile.envelope, [flag]: value } };
    },
  };
}

/**
 * Every setting a profile has, by its dotted name, in the order they apply. Its
 * keys are the names `pla config set-wire`, `pla config show` and `pla server
 * start --wire` use.
 */
export const WIRE_SETTINGS: Readonly<Record<string, Setting>> = {
  'envelope.key': {
    ...fieldName,
    get: (profile) => (profile.envelope === 'none' ? 'none' : profile.envelope?.key),
    set: (profile, value) => ({
      ...profile,
      envelope: value === 'none' ? 'none' : { ...(typeof profile.envelope === 'object' ? profile.envelope : {}), key: String(value) },
    }),
  },
  'envelope.success': envelopeFlag('success'),
  'envelope.message': envelopeFlag('message'),
  'envelope.code': envelopeFlag('code'),
  failure: topField('failure', oneOf(FAILURE_FORMS)),
  bulkItems: topField('bulkItems', oneOf(BULK_ITEMS_FORMS)),
  softNotFound: topField('softNotFound', yesNo),
  decommissioned: topField('decommissioned', fieldValue),
  'page.shape': pageField('shape', oneOf(PAGE_SHAPES)),
  'page.base': pageField('base', wholeNumber(0, 1)),
  'page.maxSize': pageField('maxSize', wholeNumber(1, 999_999_999)),
  'page.sizeEcho': pageField('sizeEcho', oneOf(SIZE_ECHOES)),
  'page.follow': pageField('follow', oneOf(PAGE_FOLLOWS)),
};

const NAMES = Object.keys(WIRE_SETTINGS);

/** Reads one `name=value` setting; throws a WireProfileError naming what is accepted. */
function readSetting(pair: string): [string, Value] {
  const at = pair.indexOf('=');
  const name = (at < 0 ? pair : pair.slice(0, at)).trim();
  const setting = WIRE_SETTINGS[name];
  if (!setting) throw new WireProfileError(`unknown wire setting ${name || '(empty)'}: settings are ${NAMES.join(', ')}`);
  if (at < 0) throw new WireProfileError(`${name} needs a value: ${name}=${setting.accepts}`);
  const value = setting.read(pair.slice(at + 1).trim());
  if (value === undefined) throw new WireProfileError(`${name}=${pair.slice(at + 1)}: expected ${setting.accepts}`);
  return [name, value];
}

/**
 * Settings as text: `page.base=1 page.maxSize=100` (pairs separated by commas or
 * spaces), applied over `onto` in the table's order.
 */
export function parseWireSettings(text: string | readonly string[], onto: WireProfile = {}): WireProfile {
  const pairs = (typeof text === 'string' ? [text] : text).flatMap((part) => part.split(/[\s,]+/)).filter(Boolean);
  if (pairs.length === 0) throw new WireProfileError(`no wire settings given: e.g. page.base=1 (settings are ${NAMES.join(', ')})`);
  const settings = pairs.map(readSetting).sort(([a], [b]) => NAMES.indexOf(a) - NAMES.indexOf(b));
  return settings.reduce((profile, [name, value]) => (WIRE_SETTINGS[name] as Setting).set(profile, value), onto);
}

/** The profile's settings as dotted name → value, in the table's order. */
export function wireSettingsOf(profile: WireProfile | undefined): Array<[string, Value]> {
  const found: Array<[string, Value]> = [];
  for (const [name, setting] of Object.entries(WIRE_SETTINGS)) {
    const value = profile ? setting.get(profile) : undefined;
    if (value !== undefined) found.push([name, value]);
  }
  return found;
}

/** The profile as one line of settings (`page.base=1 page.maxSize=100`), '' when empty. */
export function wireText(profile: WireProfile | undefined): string {
  return wireSettingsOf(profile)
    .map(([name, value]) => `${name}=${String(value)}`)
    .join(' ');
}

/**
 * A profile as read from JSON (a config file, an export, a `--wire` file): every
 * field checked by the same rules as the text settings; unknown ones refused.
 */
export function checkWireProfile(value: unknown): WireProfile {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new WireProfileError('a wire profile is a JSON object, e.g. {"page":{"base":1}}');
  const pairs: string[] = [];
  for (const [name, field] of Object.entries(value)) {
    if (name === 'envelope' && field === 'none') pairs.push('envelope.key=none');
    else if (typeof field === 'object' && field !== null && !Array.isArray(field)) {
      for (const [inner, setting] of Object.entries(field as Record<string, unknown>)) pairs.push(`${name}.${inner}=${String(setting)}`);
    } else pairs.push(`${name}=${String(field)}`);
  }
  return pairs.length === 0 ? {} : parseWireSettings(pairs);
}

/**
 * Where a stored profile and what the service answers now disagree, one line per
 * setting (`page.base: 1 stored, 0 now`). A setting only one of them has is no
 * disagreement: a profile set by hand may say less, and a probe may not tell
 * everything (an empty listing shows no base).
 */
export function wireDifferences(stored: WireProfile | undefined, found: WireProfile): string[] {
  const now = new Map(wireSettingsOf(found));
  return wireSettingsOf(stored)
    .filter(([name, value]) => now.has(name) && now.get(name) !== value)
    .map(([name, value]) => `${name}: ${String(value)} stored, ${String(now.get(name))} now`);
}

/** Every field of a profile but the pages filled in (pages are detected per run when not said). */
export type FullWireProfile = Required<Omit<WireProfile, 'page' | 'decommissioned'>> & Pick<WireProfile, 'page' | 'decommissioned'>;

/** The local server's own form: `{success, message, data}`, problems with their status, bulk all or nothing. */
const PLA: FullWireProfile = { envelope: { key: 'data', success: true, message: true }, failure: 'problem', bulkItems: 'all-or-nothing', softNotFound: false };

/**
 * Named profiles (`pla server start --wire NAME`): plausible forms of a
 * Spring-style service, each named for what it rehearses.
 */
export const WIRE_PROFILES = {
  /** Today's local server. */
  pla: PLA,
  /** Records and lists bare, no envelope; errors as problems. */
  bare: { ...PLA, envelope: 'none' },
  /** `{"success": true, "result": …}`, refusals inside a 200 as `{"success": false, "message": …}`. */
  'spring-result': { ...PLA, envelope: { key: 'result', success: true }, failure: 'success-false' },
  /** `{"payload": …}` alone, per-item bulk results. */
  'payload-per-item': { ...PLA, envelope: { key: 'payload' }, bulkItems: 'per-item' },
  /** `{"code": 0, "msg": …, "data": …}`, refusals as 200 `{"code": 409, "msg": …}`, soft 404s. */
  'code-msg': { ...PLA, envelope: { key: 'data', code: true }, failure: 'code-msg', softNotFound: true },
  /**
   * The hardest to read right: refusals in 200 `{"success": false, "message": …}`,
   * a missing record 200 `{"data": null}`, bulk answers item by item.
   */
  'soft-fail': { ...PLA, failure: 'success-false', bulkItems: 'per-item', softNotFound: true },
} as const satisfies Record<string, FullWireProfile>;

export type WireProfileName = keyof typeof WIRE_PROFILES;

/** Whether `name` names a built-in profile. */
export function isWireProfileName(name: string): name is WireProfileName {
  return Object.hasOwn(WIRE_PROFILES, name);
}

/** A profile with the local server's own form wherever it says nothing. */
export function fullProfile(profile: WireProfile): FullWireProfile {
  return { ...PLA, ...profile };
}
