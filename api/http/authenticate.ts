import type { RequestHandler, Response } from 'express';
import { authenticateAccessToken, type TokenCaller } from '../../domain/access-tokens/service.js';
import type { Db } from '../../infra/db.js';
import { AppError } from './errors.js';

export type Caller = TokenCaller;

const BEARER = /^Bearer\s+(\S+)$/i;

/**
 * Authenticates /v1 callers by organization access token. The dashboard session (identity work)
 * and customer sessions plug in here as further caller kinds.
 */
export function authenticate(db: Db): RequestHandler {
  return async (req, res, next) => {
    const header = req.get('authorization');
    if (!header) throw new AppError('Unauthorized');
    const token = BEARER.exec(header)?.[1];
    const caller = token ? await authenticateAccessToken(db, token) : null;
    if (!caller) {
      throw new AppError('Unauthorized', 'The access token is invalid, expired or revoked.', {
        'WWW-Authenticate': 'Bearer',
      });
    }
    res.locals.caller = caller;
    next();
  };
}

export function callerOf(res: Response): Caller {
  const caller = res.locals.caller as Caller | undefined;
  if (!caller) throw new AppError('Unauthorized');
  return caller;
}
