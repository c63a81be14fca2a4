// The email log (`email_messages`): one row per idempotency key, written by the mailer
// (integrations/smtp/mailer.ts) and read by an order's timeline and the dev mailbox.

import type { Db } from '../../infra/db.js';

export type NewEmailMessage = {
  idempotencyKey: string;
  toAddress: string;
  subject: string;
  text: string;
  html: string | undefined;
  transport: 'smtp' | 'mailbox';
  /** Left out for an SMTP send under way ('pending'). */
  status?: 'sent';
  sentAt?: Date;
};

/** Fails with Prisma's unique violation (P2002) when the key was logged already. */
export function insertEmailMessage(db: Db, data: NewEmailMessage) {
  return db.emailMessage.create({ data });
}

export function findEmailMessageStatus(db: Db, idempotencyKey: string) {
  return db.emailMessage.findUnique({ where: { idempotencyKey }, select: { status: true } });
}

export function markEmailMessageSent(db: Db, idempotencyKey: string, at: Date) {
  return db.emailMessage.update({ where: { idempotencyKey }, data: { status: 'sent', sentAt: at } });
}

export function findEmailsByKeys(db: Db, keys: string[]) {
  return db.emailMessage.findMany({
    where: { idempotencyKey: { in: keys } },
    select: {
      idempotencyKey: true,
      toAddress: true,
      subject: true,
      status: true,
      createdAt: true,
      sentAt: true,
    },
    orderBy: [{ createdAt: 'asc' }],
  });
}

/** Reads of the dev mailbox: the emails the mailer kept in `email_messages` instead of sending them. */
export function listMailboxMessages(
  db: Db,
  filter: { toAddress?: string },
  page: { skip: number; take: number },
) {
  const where = {
    transport: 'mailbox',
    ...(filter.toAddress ? { toAddress: { equals: filter.toAddress, mode: 'insensitive' as const } } : {}),
  };
  return Promise.all([
    db.emailMessage.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: { id: true, toAddress: true, subject: true, text: true, createdAt: true },
      ...page,
    }),
    db.emailMessage.count({ where }),
  ]);
}
