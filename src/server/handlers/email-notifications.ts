/**
 * Email notifications: creating one really sends the e-mail (outbox file or
 * SMTP), then stores the EmailNotificationDto with `sent: true`. Subject and text
 * are the DTO's `title` and `description`, else its codes with their parameters.
 */
import type { RecordId } from '../../contract/ids.js';
import { NOUNS } from '../../contract/wording.js';
import type { StoredRecord } from '../../store/types.js';
import { isOutOfSpace } from '../../store/errors.js';
import type { OperationHandler } from '../context.js';
import { HttpProblem, badField, notFound } from '../problem.js';

/** Sender used when the DTO has no `byUserEmail`. */
const DEFAULT_SENDER = 'pla-local@localhost';

function codeText(code: unknown, params: unknown): string | undefined {
  if (typeof code !== 'string') return undefined;
  return Array.isArray(params) && params.length ? `${code} (${params.join(', ')})` : code;
}

export const emailNotificationHandlers = {
  create: async ({ body, now }, { store, mailer }) => {
    const dto = body as Record<string, unknown>;
    if (typeof dto.forUserEmail !== 'string') throw badField('body.forUserEmail', 'the recipient address is required to send the e-mail');
    const { id: _ignored, ...fields } = dto;
    // The id is taken before the mail goes out (the mail names it); a failed send skips it, never reused.
    const [id] = await store.transaction((tx) => tx.allocateIds('emailNotifications', 1));
    const record: StoredRecord = { id: id as RecordId, ...fields, createdDate: now, lastModifiedDate: now, sent: false };
    try {
      await mailer.send({
        id: record.id,
        from: typeof dto.byUserEmail === 'string' ? dto.byUserEmail : DEFAULT_SENDER,
        to: dto.forUserEmail,
        subject: (dto.title as string | undefined) ?? codeText(dto.subjectCode, dto.subjectParams) ?? `Notification ${record.id}`,
        text: (dto.description as string | undefined) ?? codeText(dto.bodyCode, dto.bodyParams) ?? codeText(dto.templateName, dto.bodyParams) ?? '',
        ...(typeof dto.langCode === 'string' ? { language: dto.langCode } : {}),
      });
    } catch (error) {
      // No room for the outbox file: the data folder's problem (507), not the mail server's.
      if (isOutOfSpace(error)) throw error;
      throw new HttpProblem(502, `the e-mail could not be sent: ${error instanceof Error ? error.message : String(error)}`, { slug: 'mail-failed' });
    }
    record.sent = true;
    try {
      await store.transaction(async (tx) => tx.put('emailNotifications', record));
    } catch (error) {
      await mailer.withdraw(record.id);
      throw error;
    }
    return { data: [record] };
  },

  delete: async ({ params }, { store }) => {
    const id = params.id as RecordId;
    await store.transaction(async (tx) => {
      if (!(await tx.get('emailNotifications', id))) throw notFound(NOUNS['email-notifications'], [id]);
      tx.delete('emailNotifications', id);
    });
    return {};
  },
} satisfies Record<string, OperationHandler>;
