import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import {
  recordFailedSignIn,
  recordSuccessfulSignIn,
  signInThrottleKeyFor,
  signInWaitSeconds,
} from '../../domain/users/service.js';
import type { Db } from '../../infra/db.js';

/** The password sign-ins and the field that names the account. */
const SIGN_INS: Record<string, 'email' | 'username'> = {
  '/sign-in/email': 'email',
  '/sign-in/username': 'username',
};

function typedIdentifier(path: string, body: unknown): string | null {
  const field = SIGN_INS[path];
  const value = field ? (body as Record<string, unknown> | undefined)?.[field] : undefined;
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/**
 * Per-account back-off for password sign-ins (Better Auth limits per address only): a few wrong
 * passwords are free, then the account waits 30 s, 1 min, 2 min … up to 15 min before the next
 * attempt, even with the right password and from any address (domain/users/rules.ts).
 */
export function signInThrottle(db: Db): BetterAuthPlugin {
  const matcher = (ctx: { path?: string }) => ctx.path !== undefined && ctx.path in SIGN_INS;
  return {
    id: 'tollgate-sign-in-throttle',
    hooks: {
      before: [
        {
          matcher,
          handler: createAuthMiddleware(async (ctx) => {
            const typed = typedIdentifier(ctx.path, ctx.body);
            if (!typed) return;
            const wait = await signInWaitSeconds(db, await signInThrottleKeyFor(db, typed));
            if (wait > 0) {
              throw new APIError(
                'TOO_MANY_REQUESTS',
                {
                  code: 'TOO_MANY_FAILED_SIGN_INS',
                  message: `Too many failed sign-ins for this account. Try again in ${wait} seconds.`,
                },
                { 'Retry-After': String(wait) },
              );
            }
          }),
        },
      ],
      after: [
        {
          matcher,
          handler: createAuthMiddleware(async (ctx) => {
            const typed = typedIdentifier(ctx.path, ctx.body);
            if (!typed) return;
            const returned = ctx.context.returned;
            const key = await signInThrottleKeyFor(db, typed);
            if (!isAPIError(returned)) await recordSuccessfulSignIn(db, key);
            // A wrong email, username or password; not "email not verified" (the password was right).
            else if (returned.statusCode === 401) await recordFailedSignIn(db, key);
          }),
        },
      ],
    },
  };
}
