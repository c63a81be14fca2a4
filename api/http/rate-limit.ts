import type { Request, RequestHandler, Response } from 'express';
import { releaseRequests, reserveRequests } from '../../domain/platform/repository.js';
import type { Db } from '../../infra/db.js';
import type { Logger } from '../../infra/logger.js';
import { callerOf } from './authenticate.js';
import { callerKey } from './caller-key.js';
import { AppError } from '../../domain/platform/errors.js';
import { RateLimiter } from './rate-limiter.js';

const WINDOW_SECONDS = 60;

/** Whose budget a request draws from; the key names a counter row shared by every API process. */
export type RateLimitKey = (req: Request, res: Response) => string;

/** Per token or per signed-in user: the `/v1` API after authentication. */
export const perCaller: RateLimitKey = (_req, res) => callerKey(callerOf(res));

/**
 * Per client address as Express resolves it (honouring `trust proxy`), for calls without a caller
 * (the buyer's). `scope` keeps these counters apart from the callers' and from each other.
 */
export function perClientIp(scope: string): RateLimitKey {
  return (req) => `${scope}:ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
}

/**
 * `limit` requests a minute per key, shared by every API process through the counters in
 * PostgreSQL (`RateLimiter`: reserved in blocks, admitted in memory). 429 with `Retry-After`
 * beyond it.
 */
export function rateLimit(
  db: Db,
  options: { limit: number; key: RateLimitKey; logger: Logger },
): RequestHandler {
  const { limit, key, logger } = options;
  const limiter = new RateLimiter(
    {
      reserve: (counter, reservation) => reserveRequests(db, counter, reservation),
      release: (counter, windowStart, unused) => releaseRequests(db, counter, windowStart, unused),
    },
    {
      limit,
      windowSeconds: WINDOW_SECONDS,
      onReleaseError: (error) => logger.warn({ err: error }, 'rate limit: unused requests not given back'),
    },
  );
  return async (req, res, next) => {
    const { allowed, remaining, resetSeconds } = await limiter.admit(key(req, res));
    res.set({
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(remaining),
      'X-RateLimit-Reset': String(resetSeconds),
    });
    if (!allowed) {
      throw new AppError('TooManyRequests', `Rate limit of ${limit} requests per minute exceeded.`, {
        'Retry-After': String(resetSeconds),
      });
    }
    next();
  };
}
