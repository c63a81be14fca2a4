import { createHash } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import type { Prisma } from '../../generated/prisma/client.js';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  findIdempotencyKey,
  IDEMPOTENCY_CLAIM_LEASE_SECONDS,
  IDEMPOTENCY_ORPHAN_GRACE_SECONDS,
  releaseIdempotencyKey,
} from '../../domain/platform/repository.js';
import { canonicalJson } from '../../domain/platform/rules.js';
import type { Db } from '../../infra/db.js';
import type { Logger } from '../../infra/logger.js';
import type { ProcessPresence } from '../../infra/process-presence.js';
import { callerOf } from './authenticate.js';
import { callerKey } from './caller-key.js';
import { AppError, InvalidInputError } from '../../domain/platform/errors.js';

const HEADER = 'idempotency-key';
const REQUEST_KEY = 'idempotencyRequestKey';

/**
 * The Idempotency-Key of this request hashed with its caller, for operations whose effect must
 * stay single even when a retry takes over the claim of a process that died after doing the work
 * but before storing its answer: they store it with what they create and look for it first.
 */
export function requestKeyOf(res: Response): string | undefined {
  const value: unknown = res.locals[REQUEST_KEY];
  return typeof value === 'string' ? value : undefined;
}
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * `Idempotency-Key` on POST: the first successful answer for a key is stored and replayed for 24
 * hours (with `Idempotent-Replayed: true`) without doing the work again; the same key with another
 * request is a 422; a retry while the first request still runs is a 409. Requests that fail leave
 * nothing behind, so the key can be retried; a request whose process died before it answered
 * leaves a claim that the same request takes over within seconds when the process held its
 * presence lock (PostgreSQL frees it as the process dies), and after two minutes otherwise.
 */
export function idempotency(db: Db, logger: Logger, presence?: ProcessPresence): RequestHandler {
  return async (req, res, next) => {
    const key = req.get(HEADER);
    if (req.method !== 'POST' || key === undefined) return next();
    if (!VALID_KEY.test(key)) {
      throw new InvalidInputError([
        {
          loc: ['header', 'Idempotency-Key'],
          msg: 'Must be 1 to 255 visible ASCII characters.',
          type: 'value_error',
        },
      ]);
    }
    const owner = callerKey(callerOf(res));
    const path = req.originalUrl.split('?')[0] ?? req.originalUrl;
    const requestHash = createHash('sha256')
      .update(`${req.method} ${path}\n${canonicalJson(req.body ?? null)}`)
      .digest('hex');

    const claim = {
      callerKey: owner,
      key,
      method: req.method,
      path,
      requestHash,
      holderLock: presence?.heldKey ?? null,
    };
    const claimedAt = await claimIdempotencyKey(db, claim);
    if (!claimedAt) {
      const existing = await findIdempotencyKey(db, owner, key);
      if (existing && existing.requestHash !== requestHash) {
        throw new InvalidInputError([
          {
            loc: ['header', 'Idempotency-Key'],
            msg: 'This Idempotency-Key was used with a different request.',
            type: 'idempotency_key_reused',
          },
        ]);
      }
      if (!existing || existing.status === null) {
        // The first request may still be running, or its process died: then this request may take
        // the claim over after the grace (a holder known by its lock) or the lease.
        const claimSeconds =
          existing?.holderLock != null ? IDEMPOTENCY_ORPHAN_GRACE_SECONDS : IDEMPOTENCY_CLAIM_LEASE_SECONDS;
        const leaseLeftMs = existing ? existing.createdAt.getTime() + claimSeconds * 1000 - Date.now() : 1000;
        throw new AppError(
          'Conflict',
          'A request with this Idempotency-Key is still being processed; retry later.',
          { 'Retry-After': String(Math.max(1, Math.min(5, Math.ceil(leaseLeftMs / 1000)))) },
        );
      }
      res.set('Idempotent-Replayed', 'true').status(existing.status).json(existing.responseBody);
      return;
    }

    const mine = { callerKey: owner, key, claimedAt };
    res.locals[REQUEST_KEY] = createHash('sha256').update(`${owner}\n${key}`).digest('hex');
    // A settlement that fails (PostgreSQL restarting) is tried again in the background: until it
    // lands, retries of the key are answered 409 (unless this process dies: then they take it over).
    const settle = (write: () => Promise<unknown>) =>
      persistently(write).catch((error: unknown) =>
        logger.error({ err: error }, 'could not settle an idempotency key'),
      );
    // The answer is stored before it is sent, so a retry that follows it always finds it.
    const send = res.json.bind(res);
    res.json = (body: unknown) => {
      const answer = { status: res.statusCode, body: (body ?? null) as Prisma.InputJsonValue };
      const first =
        res.statusCode < 400 ? completeIdempotencyKey(db, mine, answer) : releaseIdempotencyKey(db, mine);
      void first
        .catch(() => {
          void settle(() =>
            answer.status < 400 ? completeIdempotencyKey(db, mine, answer) : releaseIdempotencyKey(db, mine),
          );
        })
        .finally(() => send(body));
      return res;
    };
    // Answers without a JSON body (204) and aborted requests.
    res.once('close', () => {
      if (res.statusCode >= 400 || !res.writableFinished) void settle(() => releaseIdempotencyKey(db, mine));
      else if (res.statusCode === 204)
        void settle(() => completeIdempotencyKey(db, mine, { status: 204, body: {} }));
    });
    next();
  };
}

/**
 * Retries `write` for up to a minute, inside the claim's lease. The write settles only this
 * request's own claim, so a claim another request took over meanwhile is left as it is.
 */
async function persistently(write: () => Promise<unknown>): Promise<void> {
  const deadline = Date.now() + (IDEMPOTENCY_CLAIM_LEASE_SECONDS * 1000) / 2;
  for (let pauseMs = 500; ; pauseMs = Math.min(pauseMs * 2, 8000)) {
    try {
      await write();
      return;
    } catch (error) {
      if (Date.now() + pauseMs >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
}
