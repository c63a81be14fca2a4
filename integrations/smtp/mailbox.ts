import type { Db } from '../../infra/db.js';

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
