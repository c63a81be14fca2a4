import { Router } from 'express';
import { fromNodeHeaders } from 'better-auth/node';
import { pageToSkipTake, paginated } from '../../domain/platform/rules.js';
import { pageQuerySchema } from '../../domain/platform/schemas.js';
import type { MailboxMessage, PublicSettings } from '../../domain/system/schemas.js';
import type { Db } from '../../infra/db.js';
import { listMailboxMessages } from '../../domain/emails/repository.js';
import type { Mailer } from '../../domain/emails/mailer.js';
import type { Auth } from '../auth/auth.js';
import { AppError } from '../../domain/platform/errors.js';
import { hasRole } from '../../domain/users/rules.js';
import { parseQuery } from '../http/validation.js';

/**
 * The mailbox exists only in sandbox deployments whose emails stay in the database: with SMTP the
 * mail has really left, and a live deployment must not expose sign-in links over HTTP.
 */
export function isDevMailboxAvailable(mode: PublicSettings['mode'], mailer: Pick<Mailer, 'transport'>) {
  return mode === 'sandbox' && mailer.transport === 'mailbox';
}

/** `GET /api/dev/mailbox`: the signed-in user's emails, newest first; an admin reads everyone's. */
export function createDevMailboxRouter({ db, auth }: { db: Db; auth: Auth }): Router {
  const router = Router();
  router.get('/', async (req, res) => {
    const query = parseQuery(pageQuerySchema, req);
    const session = await auth.api.getSession({ headers: fromNodeHeaders(req.headers) });
    if (!session) throw new AppError('Unauthorized');
    const toAddress = hasRole(session.user.role, 'admin') ? undefined : session.user.email;
    const [rows, total] = await listMailboxMessages(db, { toAddress }, pageToSkipTake(query));
    const items: MailboxMessage[] = rows.map((row) => ({
      id: row.id,
      to: row.toAddress,
      subject: row.subject,
      text: row.text,
      created_at: row.createdAt.toISOString(),
    }));
    res.set('Cache-Control', 'no-store').json(paginated(items, total, query));
  });
  return router;
}
