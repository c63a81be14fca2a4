import type { Request, RequestHandler, Response } from 'express';
import { fromNodeHeaders } from 'better-auth/node';
import type { Caller } from '../../domain/access/rules.js';
import { authenticateAccessToken } from '../../domain/access-tokens/service.js';
import { looksLikeAccessToken } from '../../domain/access-tokens/rules.js';
import { looksLikeOAuthAccessToken } from '../../domain/oauth2/rules.js';
import { authenticateOAuthAccessToken } from '../../domain/oauth2/bearer.js';
import type { AccessTokenCache } from '../../domain/access-tokens/cache.js';
import type { CustomerCaller } from '../../domain/customer-sessions/rules.js';
import { authenticateCustomerSession } from '../../domain/customer-portal/sign-in.js';
import type { Db } from '../../infra/db.js';
import type { Auth } from '../auth/auth.js';
import { untrustedOriginMessage } from '../auth/origins.js';
import { AppError } from '../../domain/platform/errors.js';

const BEARER = /^Bearer\s+(\S+)$/i;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A browser attaches the session cookie to any site's form post or fetch, so a change made with the
 * cookie alone must come from a page of a trusted origin (the one rule Better Auth applies to
 * `/api/auth`). Bearer tokens are not sent by browsers on their own and need no such check.
 */
async function assertTrustedOrigin(auth: Auth, origin: string | undefined): Promise<void> {
  if (!origin || origin === 'null') {
    throw new AppError('NotPermitted', 'Changes made with the dashboard session must send an Origin header.');
  }
  const context = await auth.$context;
  if (!context.isTrustedOrigin(origin)) {
    throw new AppError(
      'NotPermitted',
      `Changes made with the dashboard session must come from the dashboard. ${untrustedOriginMessage(context.baseURL)}`,
    );
  }
}

/**
 * The signed-in user of the dashboard's session cookie, or null; a change made with it must come
 * from a trusted origin.
 */
export async function sessionUserOf(auth: Auth, req: Request): Promise<Caller | null> {
  const session = await auth.api.getSession({ headers: fromNodeHeaders(req.headers) });
  if (!session) return null;
  if (!SAFE_METHODS.has(req.method)) await assertTrustedOrigin(auth, req.get('origin'));
  return { kind: 'user_session', userId: session.user.id, sessionId: session.session.id };
}

/** The token of `Authorization: Bearer …`, if the request carries one. */
export const bearerTokenOf = (req: Request): string | undefined =>
  BEARER.exec(req.get('authorization') ?? '')?.[1];

/**
 * Authenticates /v1 callers: an organization access token or an OAuth app's access token
 * (`Authorization: Bearer …`), else the dashboard's Better Auth session cookie (changes only from a
 * trusted origin). A bad token is never retried as a session.
 */
export function authenticate(db: Db, auth: Auth, accessTokens?: AccessTokenCache): RequestHandler {
  return async (req, res, next) => {
    const header = req.get('authorization');
    let caller: Caller | null;
    if (header) {
      const token = BEARER.exec(header)?.[1];
      if (token && looksLikeOAuthAccessToken(token)) caller = await authenticateOAuthAccessToken(db, token);
      else caller = token ? await authenticateAccessToken(db, token, { cache: accessTokens }) : null;
      if (!caller) {
        throw new AppError('Unauthorized', 'The access token is invalid, expired or revoked.', {
          'WWW-Authenticate': 'Bearer',
        });
      }
    } else {
      caller = await sessionUserOf(auth, req);
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

/**
 * Reads the customer-portal caller: a customer session's token (or a paid checkout's). A token of
 * another kind, or one that expired, is refused by the operations that need a customer
 * (`customerOf`); those without a caller (validating a license key, a signed download) go on.
 */
export function authenticateCustomer(db: Db): RequestHandler {
  return async (req, res, next) => {
    const header = req.get('authorization');
    if (!header) return next();
    const token = BEARER.exec(header)?.[1] ?? '';
    // Kept for the operations that need a customer: those that need none ignore the header.
    if (looksLikeAccessToken(token)) {
      res.locals.customerRefusal = new AppError(
        'Unauthorized',
        "The customer portal takes a customer session's token (customerSessions.create), not an organization access token.",
        { 'WWW-Authenticate': 'Bearer' },
      );
      return next();
    }
    const customer = await authenticateCustomerSession(db, token);
    if (customer) res.locals.customer = customer;
    else {
      res.locals.customerRefusal = new AppError(
        'Unauthorized',
        'The customer session is invalid or expired: sign in again.',
        { 'WWW-Authenticate': 'Bearer' },
      );
    }
    next();
  };
}

export function customerOf(res: Response): CustomerCaller {
  const refusal = res.locals.customerRefusal as AppError | undefined;
  if (refusal) throw refusal;
  const customer = res.locals.customer as CustomerCaller | undefined;
  if (!customer)
    throw new AppError('Unauthorized', 'Sign in to the customer portal first.', {
      'WWW-Authenticate': 'Bearer',
    });
  return customer;
}
