import type { RequestHandler } from 'express';
import { countRequest } from '../../domain/platform/repository.js';
import { retryAfterSeconds } from '../../domain/platform/rules.js';
import type { Db } from '../../infra/db.js';
import { callerOf } from './authenticate.js';
import { callerKey } from './caller-key.js';
import { AppError } from './errors.js';

const WINDOW_SECONDS = 60;

/**
 * Per token or per signed-in user, `limit` requests a minute, counted in PostgreSQL so every API
 * process shares the same budget. 429 with `Retry-After` beyond it.
 */
export function rateLimit(db: Db, limit: number): RequestHandler {
  return async (_req, res, next) => {
    const { count, windowStart, now } = await countRequest(db, callerKey(callerOf(res)), WINDOW_SECONDS);
    const resetSeconds = retryAfterSeconds(windowStart, WINDOW_SECONDS, now);
    res.set({
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(Math.max(0, limit - count)),
      'X-RateLimit-Reset': String(resetSeconds),
    });
    if (count > limit) {
      throw new AppError('TooManyRequests', `Rate limit of ${limit} requests per minute exceeded.`, {
        'Retry-After': String(resetSeconds),
      });
    }
    next();
  };
}
