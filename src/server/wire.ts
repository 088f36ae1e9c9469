/**
 * `pla server start --wire PROFILE`: the local server answering in another
 * plausible form of the real service (src/contract/wire-profile.ts), so scripts
 * and the CLI can be rehearsed against it. This module turns a profile into
 * bodies: the envelope around data, a refusal's answer, a missing record's
 * answer. The dispatcher decides when each applies.
 */
import { existsSync, readFileSync } from 'node:fs';
import {
  type FullWireProfile,
  type WireProfile,
  WIRE_PROFILES,
  WireProfileError,
  checkWireProfile,
  fullProfile,
  isWireProfileName,
  parseWireSettings,
} from '../contract/wire-profile.js';
import { ServerSetupError } from './errors.js';
import type { HttpProblem } from './problem.js';
import { envelopeBytes } from './page-json.js';
import { jsonBytesReply, jsonReply, problemReply, type Reply } from './reply.js';

const NAMES = Object.keys(WIRE_PROFILES).join(', ');

/** A JSON profile file: fields of a profile, and `extends` naming the profile they change. */
function profileFile(text: string): WireProfile {
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return checkWireProfile(parsed);
  const { extends: base, ...fields } = parsed as Record<string, unknown>;
  if (base !== undefined && (typeof base !== 'string' || !isWireProfileName(base))) throw new WireProfileError(`extends must name a profile: ${NAMES}`);
  const own = Object.keys(fields).length > 0 ? checkWireProfile(fields) : {};
  return base === undefined ? own : { ...WIRE_PROFILES[base], ...own };
}

/** Settings as text, perhaps after a profile's name: `soft-fail,page.base=1`. */
function profileText(text: string): WireProfile {
  const [first = '', ...rest] = text.split(/[\s,]+/).filter(Boolean);
  if (isWireProfileName(first)) return rest.length > 0 ? parseWireSettings(rest, WIRE_PROFILES[first]) : WIRE_PROFILES[first];
  if (!first.includes('='))
    throw new WireProfileError(
      `no such profile, and no file of that name: use one of ${NAMES}, a JSON profile file, or settings such as failure=success-false`,
    );
  return parseWireSettings(text);
}

/**
 * The profile `--wire` names: a built-in name, a JSON file (`extends` a name,
 * then fields of its own), or settings as text (`soft-fail,page.base=1`).
 */
export function loadWireProfile(spec: string | undefined): FullWireProfile {
  if (spec === undefined) return WIRE_PROFILES.pla;
  try {
    return fullProfile(existsSync(spec) ? profileFile(readFileSync(spec, 'utf8')) : profileText(spec));
  } catch (error) {
    throw new ServerSetupError(`--wire ${spec}: ${error instanceof Error ? error.message : String(error)}`, {
      hint: `a profile (${NAMES}), a JSON profile file, or settings such as envelope.key=result,failure=success-false (docs/real-service.md)`,
    });
  }
}

/** The profile's name or `custom`, for the start-up line. */
export function describeWire(spec: string | undefined): string {
  return spec === undefined ? 'pla' : isWireProfileName(spec) ? spec : `custom (${spec})`;
}

/** The body of a success in the profile's envelope; `undefined` (no body) for a bare answer without data. */
export function envelopeBody(profile: FullWireProfile, data: unknown, message: string): unknown {
  const form = profile.envelope;
  if (form === 'none') return data ?? undefined;
  // Built field by field, no spreads: every reply of the server's hot path passes here.
  const body: Record<string, unknown> = {};
  if (form.code) {
    body.code = 0;
    body.msg = message;
  }
  if (form.success) body.success = true;
  if (form.message) body.message = message;
  body[form.key] = data ?? null;
  return body;
}

/** A success reply in the profile's envelope (200 with no body when there is nothing to send bare). */
export function envelopeReply(profile: FullWireProfile, status: number, data: unknown, message: string, headers?: Record<string, string>): Reply {
  const body = envelopeBody(profile, data, message);
  if (body === undefined) return { status, headers: headers ?? {} };
  const form = profile.envelope;
  // One record the store read (a get by id): its kept bytes copied in, not serialized again.
  const bytes = form === 'none' ? undefined : envelopeBytes(body as Record<string, unknown>, form.key, data);
  return bytes === undefined ? jsonReply(status, body, headers) : jsonBytesReply(status, bytes, headers);
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
      return jsonReply(200, {
        status: 'ERROR',
        message: problem.detail,
        errors: problem.options.errors?.length ? problem.options.errors : [{ message: problem.detail }],
      });
    case 'code-msg':
      return jsonReply(200, { code: problem.status, msg: problem.detail });
  }
}
