/**
 * A wire profile: how a service spells what the interface document leaves "not
 * shown" (envelopes, failures, page wrappers, paging parameters). The client reads
 * answers by it, `pla config detect` finds it, `pla server start --wire` answers in
 * it. Plain data and plain errors, no imports: every room may use it.
 */

/** How a page of records is wrapped: shape A (Spring's Page, flat), shape B (content + page{}), or a bare array. */
export const PAGE_SHAPES = ['flat', 'nested', 'array'] as const;
export type PageShape = (typeof PAGE_SHAPES)[number];

/** Whether a capped page's `size` says the size answered or echoes the size asked for. */
export const SIZE_ECHOES = ['capped', 'requested'] as const;
export type SizeEcho = (typeof SIZE_ECHOES)[number];

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
}

export interface WireProfile {
  page?: PageProfile;
}

/** One setting of a profile, as `section.field=value` text: how to read its value. */
interface Setting {
  /** What the value may be, for messages. */
  accepts: string;
  read(text: string): unknown;
}

function oneOf(values: readonly string[]): Setting {
  return {
    accepts: values.join(' | '),
    read: (text) => (values.includes(text) ? text : undefined),
  };
}

function wholeNumber(min: number, max: number): Setting {
  return {
    accepts: min === max - 1 ? `${min} | ${max}` : `a whole number from ${min}`,
    read: (text) => (/^\d{1,9}$/.test(text) && Number(text) >= min && Number(text) <= max ? Number(text) : undefined),
  };
}

/**
 * Every setting a profile has, by its dotted name. Its keys are the names
 * `pla config set-wire`, `pla server start --wire` and `pla config show` use.
 */
export const WIRE_SETTINGS: Readonly<Record<string, Setting>> = {
  'page.shape': oneOf(PAGE_SHAPES),
  'page.base': wholeNumber(0, 1),
  'page.maxSize': wholeNumber(1, 1_000_000_000),
  'page.sizeEcho': oneOf(SIZE_ECHOES),
};

/** Thrown (as a plain Error: this module has no imports) when profile text cannot be read. */
export class WireProfileError extends Error {}

/** Reads one `name=value` setting; throws a WireProfileError naming what is accepted. */
function readSetting(pair: string): [string, unknown] {
  const at = pair.indexOf('=');
  const name = (at < 0 ? pair : pair.slice(0, at)).trim();
  const setting = WIRE_SETTINGS[name];
  if (!setting) throw new WireProfileError(`unknown wire setting ${name || '(empty)'}: settings are ${Object.keys(WIRE_SETTINGS).join(', ')}`);
  if (at < 0) throw new WireProfileError(`${name} needs a value: ${name}=${setting.accepts}`);
  const value = setting.read(pair.slice(at + 1).trim());
  if (value === undefined) throw new WireProfileError(`${name}=${pair.slice(at + 1)}: expected ${setting.accepts}`);
  return [name, value];
}

/** `profile` with the dotted setting `name` set to `value` (a new object; sections copied). */
function withSetting(profile: WireProfile, name: string, value: unknown): WireProfile {
  const [section = '', field = ''] = name.split('.');
  const sections = profile as Record<string, Record<string, unknown> | undefined>;
  return { ...profile, [section]: { ...sections[section], [field]: value } };
}

/**
 * Settings as text: `page.base=1 page.maxSize=100` (pairs separated by commas or
 * spaces), applied over `onto`.
 */
export function parseWireSettings(text: string | readonly string[], onto: WireProfile = {}): WireProfile {
  const pairs = (typeof text === 'string' ? [text] : text).flatMap((part) => part.split(/[\s,]+/)).filter(Boolean);
  if (pairs.length === 0) throw new WireProfileError(`no wire settings given: e.g. page.base=1 (settings are ${Object.keys(WIRE_SETTINGS).join(', ')})`);
  return pairs.reduce((profile, pair) => withSetting(profile, ...readSetting(pair)), onto);
}

/** The profile's settings as dotted name → value, in the order of `WIRE_SETTINGS`. */
export function wireSettingsOf(profile: WireProfile | undefined): Array<[string, string | number]> {
  const sections = (profile ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const found: Array<[string, string | number]> = [];
  for (const name of Object.keys(WIRE_SETTINGS)) {
    const [section = '', field = ''] = name.split('.');
    const value = sections[section]?.[field];
    if (typeof value === 'string' || typeof value === 'number') found.push([name, value]);
  }
  return found;
}

/**
 * A profile as read from JSON (a config file, an export, a `--wire` file):
 * every field checked by the same rules as the text settings; unknown ones refused.
 */
export function checkWireProfile(value: unknown): WireProfile {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new WireProfileError('a wire profile is a JSON object, e.g. {"page":{"base":1}}');
  const pairs: string[] = [];
  for (const [section, fields] of Object.entries(value)) {
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) throw new WireProfileError(`wire profile: ${section} must be an object`);
    for (const [field, setting] of Object.entries(fields as Record<string, unknown>)) pairs.push(`${section}.${field}=${String(setting)}`);
  }
  return pairs.length === 0 ? {} : parseWireSettings(pairs);
}

/** Where two profiles differ, one line per setting (`page.base: 1 stored, 0 now`). */
export function wireDifferences(stored: WireProfile | undefined, found: WireProfile): string[] {
  const before = new Map(wireSettingsOf(stored));
  const now = new Map(wireSettingsOf(found));
  const lines: string[] = [];
  for (const name of Object.keys(WIRE_SETTINGS)) {
    const a = before.get(name);
    const b = now.get(name);
    if (a !== b) lines.push(`${name}: ${a ?? 'unset'} stored, ${b ?? 'not seen'} now`);
  }
  return lines;
}
