/**
 * Sends the e-mail of an email notification with nodemailer: by default a
 * `streamTransport` whose messages are written as `.eml` files into
 * `<data>/outbox/`, or a real SMTP server with `--smtp URL`.
 */
import type { RecordId } from '../contract/ids.js';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';

/** One e-mail to send, from an email notification. */
export interface OutgoingMail {
  id: RecordId;
  from: string;
  to: string;
  subject: string;
  text: string;
  language?: string;
}

/** Sends e-mails into the outbox folder or through SMTP. */
export interface Mailer {
  /** Resolves once the mail is written to the outbox or accepted by the SMTP server. */
  send(mail: OutgoingMail): Promise<void>;
  /**
   * Takes back the outbox file of a mail whose record could not be stored (a full
   * disk): the request failed, so nothing of it stays. A mail SMTP accepted is gone.
   */
  withdraw(id: RecordId): Promise<void>;
  close(): void;
}

/** The mailer of a data folder: outbox files unless `smtpUrl` is given. */
export function createMailer(options: { dataDir: string; smtpUrl?: string }): Mailer {
  const outbox = join(options.dataDir, 'outbox');
  const outboxFile = (id: RecordId) => join(outbox, `${String(id).padStart(6, '0')}.eml`);
  // nodemailer is loaded with the first mail, not at start: it is about a fifth of the
  // JavaScript a server start compiles, and most runs send no mail at all.
  let transport: Promise<Transporter> | undefined;
  const transporter = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    ));

  return {
    async send(mail) {
      const info = await (
        await transporter()
      ).sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.language ? { headers: { 'Content-Language': mail.language } } : {}),
      });
      if (options.smtpUrl) return;
      const message = (info as { message?: Buffer }).message ?? Buffer.alloc(0);
      await mkdir(outbox, { recursive: true });
      // Written aside and renamed: a write that fails (a full disk) leaves no empty or partial .eml.
      const file = outboxFile(mail.id);
      const temp = `${file}.tmp`;
      try {
        await writeFile(temp, message);
        await rename(temp, file);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },
    async withdraw(id) {
      if (!options.smtpUrl) await rm(outboxFile(id), { force: true });
    },
    close() {
      void transport?.then((created) => created.close());
    },
  };
}
