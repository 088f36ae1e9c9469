/**
 * `pla server start --wire PROFILE`: the local server answering in another
 * plausible form of the real service (src/contract/wire-profile.ts), so scripts
 * and the CLI can be rehearsed against it. This module turns a profile into
 * bodies: the envelope around data, a refusal's answer, a missing record's
 * answer. The dispatcher decides when each applies.
 */
import { readFileSync } from 'node:fs';
import {
  type EnvelopeForm,
  type FullWireProfile,
  type WireProfile,
  WIRE_PROFILES,
  fullProfile,
  isWireProfileName,
} from '../contract/wire-profile.js';
import { ServerSetupError } from './errors.js';
import type { HttpProblem } from './problem.js';
import { jsonReply, problemReply, type Reply } from './reply.js';

const FAILURE_FORMS = ['problem', 'success-false', 'status-error', 'code-msg'] as const;
const BULK_FORMS = ['all-or-nothing', 'per-item'] as const;

/** What a profile file may hold, checked field by field: a typo must not start a server in another form than asked. */
function checkedProfile(value: unknown, file: string): WireProfile {
  const wrong = (what: string) => new ServerSetupError(`--wire ${file}: ${what}`, { hint: `a JSON object with any of envelope, failure, bulkItems, softNotFound; or a name: ${Object.keys(WIRE_PROFILES).join(', ')}` });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw wrong('not a JSON object');
  const { extends: base, ...fields } = value as Record<string, unknown>;
  const known = new Set(['envelope', 'failure', 'bulkItems', 'softNotFound']);
  const unknown = Object.keys(fields).filter((name) => !known.has(name));
  if (unknown.length > 0) throw wrong(`unknown field ${unknown.join(', ')}`);
  const profile: WireProfile = {};
  if (base !== undefined) {
    if (typeof base !== 'string' || !isWireProfileName(base)) throw wrong(`extends must name a profile (${Object.keys(WIRE_PROFILES).join(', ')})`);
    Object.assign(profile, WIRE_PROFILES[base]);
  }
  const { envelope, failure, bulkItems, softNotFound } = fields;
  if (envelope !== undefined) {
    const valid =
      envelope === 'none' ||
      (typeof envelope === 'object' && envelope !== null && typeof (envelope as { key?: unknown }).key === 'string' && (envelope as { key: string }).key !== '');
    if (!valid) throw wrong('envelope must be "none" or {"key": "data", "success": true, "message": true, "code": false}');
    profile.envelope = envelope as EnvelopeForm;
  }
  if (failure !== undefined) {
    if (!FAILURE_FORMS.includes(failure as never)) throw wrong(`failure must be one of ${FAILURE_FORMS.join(', ')}`);
    profile.failure = failure as FullWireProfile['failure'];
  }
  if (bulkItems !== undefined) {
    if (!BULK_FORMS.includes(bulkItems as never)) throw wrong(`bulkItems must be one of ${BULK_FORMS.join(', ')}`);
    profile.bulkItems = bulkItems as FullWireProfile['bulkItems'];
  }
  if (softNotFound !== undefined) {
    if (typeof softNotFound !== 'boolean') throw wrong('softNotFound must be true or false');
    profile.softNotFound = softNotFound;
  }
  return profile;
}

/** The profile `--wire` names: a built-in name, or a JSON file (`extends` a name, then fields of its own). */
export function loadWireProfile(spec: string | undefined): FullWireProfile {
  if (spec === undefined) return WIRE_PROFILES.pla;
  if (isWireProfileName(spec)) return WIRE_PROFILES[spec];
  let text: string;
  try {
    text = readFileSync(spec, 'utf8');
  } catch {
    throw new ServerSetupError(`--wire ${spec}: no such profile, and no file of that name`, { hint: `use one of ${Object.keys(WIRE_PROFILES).join(', ')}, or a JSON profile file` });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ServerSetupError(`--wire ${spec}: not valid JSON (${(error as Error).message})`);
  }
  return fullProfile(checkedProfile(parsed, spec));
}

/** The profile's name or `custom`, for the start-up line. */
export function describeWire(spec: string | undefined): string {
  return spec === undefined ? 'pla' : isWireProfileName(spec) ? spec : `custom (${spec})`;
}

/** The body of a success in the profile's envelope; `undefined` (no body) for a bare answer without data. */
export function envelopeBody(profile: FullWireProfile, data: unknown, message: string): unknown {
  const form = profile.envelope;
  if (form === 'none') return data ?? undefined;
  return {
    ...(form.code ? { code: 0, msg: message } : {}),
    ...(form.success ? { success: true } : {}),
    ...(form.message ? { message } : {}),
    [form.key]: data ?? null,
  };
}

/** A success reply in the profile's envelope (200 with no body when there is nothing to send bare). */
export function envelopeReply(profile: FullWireProfile, status: number, data: unknown, message: string, headers?: Record<string, string>): Reply {
  const body = envelopeBody(profile, data, message);
  return body === undefined ? { status, headers: headers ?? {} } : jsonReply(status, body, headers);
}

/** A refusal of an operation in the profile's form: its status with a problem, or a 200 that says it failed. */
export function refusalReply(profile: FullWireProfile, problem: HttpProblem, instance: string): Reply {
  switch (profile.failure) {
    case 'problem':
      return problemReply(problem, instance);
    case 'success-false':
      // Jackson leaves `data: null` out: the form that hides a failure best.
      return jsonReply(200, { success: false, message: problem.detail });
    case 'status-error':
      return jsonReply(200, { status: 'ERROR', message: problem.detail, errors: problem.options.errors?.length ? problem.options.errors : [{ message: problem.detail }] });
    case 'code-msg':
      return jsonReply(200, { code: problem.status, msg: problem.detail });
  }
}
