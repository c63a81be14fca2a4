import type { RequestHandler, Response } from 'express';
import { fromNodeHeaders } from 'better-auth/node';
import type { Caller } from '../../domain/access/rules.js';
import { authenticateAccessToken } from '../../domain/access-tokens/service.js';
import type { Db } from '../../infra/db.js';
import type { Auth } from '../auth/auth.js';
import { AppError } from '../../domain/platform/errors.js';

const BEARER = /^Bearer\s+(\S+)$/i;

/**
 * Authenticates /v1 callers: an organization access token (`Authorization: Bearer …`), else the
 * dashboard's Better Auth session cookie. A bad token is never retried as a session.
 */
export function authenticate(db: Db, auth: Auth): RequestHandler {
  return async (req, res, next) => {
    const header = req.get('authorization');
    let caller: Caller | null = null;
    if (header) {
      const token = BEARER.exec(header)?.[1];
      caller = token ? await authenticateAccessToken(db, token) : null;
      if (!caller) {
        throw new AppError('Unauthorized', 'The access token is invalid, expired or revoked.', {
          'WWW-Authenticate': 'Bearer',
        });
      }
    } else {
      const session = await auth.api.getSession({ headers: fromNodeHeaders(req.headers) });
      if (session) caller = { kind: 'user_session', userId: session.user.id, sessionId: session.session.id };
    }
    if (!caller) throw new AppError('Unauthorized');
    res.locals.caller = caller;
    next();
  };
}

export function callerOf(res: Response): Caller {
  const caller = res.locals.caller as Caller | undefined;
  if (!caller) throw new AppError('Unauthorized');
  return caller;
}
