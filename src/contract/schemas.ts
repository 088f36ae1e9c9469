/**
 * zod schemas for the contract: request bodies and parameters. The local server
 * validates with them (a failure is a 400 naming the field paths), and the OpenAPI
 * document is derived from them. The client does not load them: the service
 * judges the records it is sent.
 *
 * Kept apart from `operations.ts` so that reading the table does not load zod.
 */
import { z } from 'zod';
import { canonicalId, INT64_MAX, isPlainDigits } from './ids.js';
import type { Operation } from './operations.js';
import type { BodyKind, PathParamType } from './types.js';

export { DEFAULT_MAX_PAGE_SIZE } from './limits.js';

export { INT64_MAX };

/**
 * An integer(int64) id in a JSON body. Ids up to 2^53 arrive as numbers; a larger
 * one arrives as a BigInt (the server's JSON reader keeps every number exact).
 */
export const int64 = z.union([
  z.number().int().min(0, 'must be a positive int64').max(Number.MAX_SAFE_INTEGER),
  z.bigint().min(0n, 'must be a positive int64').max(INT64_MAX, `must be at most ${INT64_MAX} (int64)`),
]);
const dateTime = z.iso.datetime({ offset: true });
const strings = z.array(z.string());

/**
 * Accounting records (determinations, settings, tasks) are open objects: the spec
 * does not show their fields, so any field is kept. The server owns `id`,
 * `createdAt` and `updatedAt`; an `id` in a body selects the record to update.
 */
export const accountingRecord = z.looseObject({ id: int64.optional() });
export const accountingRecords = z.array(accountingRecord).min(1);

/** The accounting resources whose records are open objects with declared field types. */
export type RecordResource = 'determinations' | 'settings' | 'tasks';

/** A declared field may be left out or sent as null (as a Jackson-bound service takes a boxed field). */
const text = z.string().nullable().optional();
const flag = z.boolean().nullable().optional();
const when = dateTime.nullable().optional();
const count = z.number().int().min(0, 'must be 0 or more').nullable().optional();

/**
 * The types of the fields the local server's records use (its seed data, its
 * status rules), per resource. The spec shows none of these fields; a record may
 * carry others, kept as sent. A declared field of another type is a 400 naming
 * its path, as the real service's binding would refuse it, unless the server runs
 * `--lenient`. Allowed status values and transitions are the handlers' rules.
 */
export const RECORD_FIELDS = {
  determinations: { code: text, name: text, transactionType: text, companyCode: text, inUse: flag, status: text, decommissionedAt: when },
  settings: { key: text, value: text, companyCode: text },
  tasks: {
    sourceCompanyCode: text,
    targetCompanyCode: text,
    contractNumber: text,
    assetCount: count,
    status: text,
    startedAt: when,
    finishedAt: when,
    cancelledAt: when,
    error: text,
  },
} satisfies Record<RecordResource, z.ZodRawShape>;

/** What the records of each accounting resource are called in the spec (and in the OpenAPI document). */
export const RECORD_TYPE_NAMES: Record<RecordResource, string> = {
  determinations: 'AssetTransactionTypeDeterminationDto',
  settings: 'SystemFinancialSettingDto',
  tasks: 'MassInterCompanyTransferTaskDto',
};

/** One record of `resource` with its declared fields typed, any other field kept. */
export function typedRecord(resource: RecordResource) {
  return z.looseObject({ id: int64.optional(), ...RECORD_FIELDS[resource] });
}

function typedBodies(resource: RecordResource): { record: z.ZodType; records: z.ZodType } {
  const record = typedRecord(resource);
  return { record, records: z.array(record).min(1) };
}

const TYPED_BODIES: Record<RecordResource, { record: z.ZodType; records: z.ZodType }> = {
  determinations: typedBodies('determinations'),
  settings: typedBodies('settings'),
  tasks: typedBodies('tasks'),
};

function isRecordResource(resource: string): resource is RecordResource {
  return Object.hasOwn(RECORD_FIELDS, resource);
}

/**
 * The schema a request body of `kind` on `resource` is checked with: accounting
 * records with their declared field types, unless `lenient` (any field of any type).
 */
export function bodySchemaFor(kind: Exclude<BodyKind, 'image-upload'>, resource: string, lenient = false): z.ZodType {
  if (!lenient && (kind === 'record' || kind === 'records') && isRecordResource(resource)) return TYPED_BODIES[resource][kind];
  return BODY_SCHEMAS[kind];
}
export const idList = z.array(int64).min(1);

/**
 * Transfer-task search filter: each field matches by equality, an array means
 * "any of", and `{from, to}` a range (either end optional).
 */
export const taskFilter = z.record(z.string(), z.unknown());

/** Fields every notification-side DTO has (spec 2.1, 2.4, 2.6); the server owns them. */
const serverOwned = {
  createdDate: dateTime.optional(),
  lastModifiedDate: dateTime.optional(),
  id: int64.optional(),
};

/**
 * NotificationDto (spec 2.1). Unknown fields are dropped, as a Jackson-based service
 * drops them; the server names them in the `Pla-Ignored-Fields` response header.
 */
export const notificationDto = z.object({
  ...serverOwned,
  forUserId: z.string().optional(),
  byUserId: z.string().optional(),
  type: z.string().optional(),
  service: z.string().optional(),
  triggerEvent: z.string().optional(),
  triggerEventParams: strings.optional(),
  clickEvent: z.string().optional(),
  clickEventParams: strings.optional(),
  titleCode: z.string().optional(),
  titleParams: strings.optional(),
  descriptionCode: z.string().optional(),
  descriptionParams: strings.optional(),
  viewed: z.boolean().optional(),
  title: z.string().optional(),
  description: z.string().optional(),
});

/** EmailNotificationDto (spec 2.4). */
export const emailNotificationDto = z.object({
  ...serverOwned,
  forUserEmail: z.email().optional(),
  byUserEmail: z.email().optional(),
  service: z.string().optional(),
  subjectCode: z.string().optional(),
  subjectParams: strings.optional(),
  langCode: z.string().optional(),
  bodyCode: z.string().optional(),
  bodyParams: strings.optional(),
  templateName: z.string().optional(),
  sent: z.boolean().optional(),
  title: z.string().optional(),
  description: z.string().optional(),
});

/** ImageDto (spec 2.6), the `image` part of an upload. */
export const imageDto = z.object({
  ...serverOwned,
  name: z.string().optional(),
  service: z.string().optional(),
  type: z.string().optional(),
  content: z.looseObject({}).optional(),
});

/** Work order notification body (spec 2.8): free-form names, object values. */
export const workOrder = z.record(z.string(), z.looseObject({}));

/** The DTO schemas of spec 2.1, 2.4 and 2.6 by body kind: their unknown fields are dropped, and named. */
export const DTO_SCHEMAS: Partial<Record<BodyKind, z.ZodObject>> = {
  notification: notificationDto,
  'email-notification': emailNotificationDto,
};

/** Body schema per body kind (multipart is validated part by part). */
export const BODY_SCHEMAS: Record<Exclude<BodyKind, 'image-upload'>, z.ZodType> = {
  record: accountingRecord,
  records: accountingRecords,
  ids: idList,
  'task-filter': taskFilter,
  notification: notificationDto,
  'email-notification': emailNotificationDto,
  'work-order': workOrder,
};

/**
 * Plain digits only: `1e3`, `0x10` or ` 7` name no record (Number() would read them).
 * Any int64 is an id: up to 2^53 a number, above it a BigInt (exact).
 */
const pathId = z.string().transform((text, ctx): number | bigint => {
  if (!isPlainDigits(text)) {
    ctx.addIssue({ code: 'custom', message: 'must be a whole number' });
    return z.NEVER;
  }
  const id = BigInt(text);
  if (id > INT64_MAX) {
    ctx.addIssue({ code: 'custom', message: `must be at most ${INT64_MAX} (int64)` });
    return z.NEVER;
  }
  return canonicalId(id);
});

const PATH_PARAM_SCHEMAS: Record<PathParamType, z.ZodType> = {
  int64: pathId,
  integer: pathId,
  string: z.string().min(1),
  'date-time': dateTime,
  'int64-or-string': z.string().min(1),
};

/** Schema of an operation's path parameters (values arrive as strings). */
export function pathParamsSchema(op: Operation): z.ZodType<Record<string, unknown>> {
  return z.object(Object.fromEntries(op.pathParams.map((p) => [p.name, PATH_PARAM_SCHEMAS[p.type]])));
}

/** `field,asc|desc` — the sort form of spec 4.3 (direction optional, case-insensitive). */
export const sortParam = z.string().regex(/^[A-Za-z_][\w.]*(,(asc|desc))?$/i, 'sort must be field or field,asc|desc');

/** Paging query (`page`, `size`, `sort`), with the size ceiling the server runs with. */
export function pagingSchema(defaultSize: number, maxSize: number) {
  return z.object({
    page: z.coerce.number().int().min(0, 'page must be 0 or more').default(0),
    size: z.coerce.number().int().min(1, 'size must be at least 1').max(maxSize, `size must be at most ${maxSize}`).default(defaultSize),
    sort: z.union([sortParam, z.array(sortParam)]).optional(),
  });
}
