import nodemailer, { type Transporter } from 'nodemailer';
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/db.js';
import type { Logger } from '../../infra/logger.js';
import type { Mailer } from '../../domain/emails/mailer.js';
import {
  findEmailMessageStatus,
  insertEmailMessage,
  markEmailMessageSent,
} from '../../domain/emails/repository.js';

const isUniqueViolation = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';

export function createMailer(deps: { db: Db; smtpUrl?: string; from: string; logger: Logger }): Mailer {
  const { db, from, logger } = deps;
  const smtp: Transporter | undefined = deps.smtpUrl ? nodemailer.createTransport(deps.smtpUrl) : undefined;

  if (!smtp) {
    return {
      transport: 'mailbox',
      async send({ idempotencyKey, to, subject, text, html }) {
        try {
          await insertEmailMessage(db, {
            idempotencyKey,
            toAddress: to,
            subject,
            text,
            html,
            transport: 'mailbox',
            status: 'sent',
            sentAt: new Date(),
          });
          logger.info({ to, subject }, 'email kept in the dev mailbox');
          return 'sent';
        } catch (error) {
          if (isUniqueViolation(error)) return 'duplicate';
          throw error;
        }
      },
    };
  }

  return {
    transport: 'smtp',
    async send({ idempotencyKey, to, subject, text, html }) {
      const existing = await findEmailMessageStatus(db, idempotencyKey);
      if (existing?.status === 'sent') return 'duplicate';
      if (!existing) {
        try {
          await insertEmailMessage(db, {
            idempotencyKey,
            toAddress: to,
            subject,
            text,
            html,
            transport: 'smtp',
          });
        } catch (error) {
          // A concurrent send of the same email won the insert; let it be the one that sends.
          if (isUniqueViolation(error)) return 'duplicate';
          throw error;
        }
      }
      // A 'pending' row means an earlier attempt died mid-send: SMTP cannot tell us whether the
      // message left, so it is sent again (the only window in which a duplicate can occur).
      await smtp.sendMail({ from, to, subject, text, html, messageId: `<${idempotencyKey}@tollgate>` });
      await markEmailMessageSent(db, idempotencyKey, new Date());
      logger.info({ to, subject }, 'email sent');
      return 'sent';
    },
  };
}
