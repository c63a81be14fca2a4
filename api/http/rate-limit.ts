import type { RequestHandler } from 'express';
import { releaseRequests, reserveRequests } from '../../domain/platform/repository.js';
import type { Db } from '../../infra/db.js';
import type { Logger } from '../../infra/logger.js';
import { callerOf } from './authenticate.js';
import { callerKey } from './caller-key.js';
import { AppError } from './errors.js';
import { RateLimiter } from './rate-limiter.js';

const WINDOW_SECONDS = 60;

/**
 * Per token or per signed-in user, `limit` requests a minute, shared by every API process through
 * the counters in PostgreSQL (`RateLimiter`: reserved in blocks, admitted in memory). 429 with
 * `Retry-After` beyond it.
 */
export function rateLimit(db: Db, limit: number, logger: Logger): RequestHandler {
  const limiter = new RateLimiter(
    {
      reserve: (key, options) => reserveRequests(db, key, options),
      release: (key, windowStart, unused) => releaseRequests(db, key, windowStart, unused),
    },
    {
      limit,
      windowSeconds: WINDOW_SECONDS,
      onReleaseError: (error) => logger.warn({ err: error }, 'rate limit: unused requests not given back'),
    },
  );
  return async (_req, res, next) => {
    const { allowed, remaining, resetSeconds } = await limiter.admit(callerKey(callerOf(res)));
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
