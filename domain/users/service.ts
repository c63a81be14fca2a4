import type { Db } from '../../infra/db.js';
import { parseRoles } from '../access/rules.js';
import {
  clearSignInFailures,
  findSignInLock,
  findUserByEmailOrUsername,
  lockSignIn,
  recordSignInFailure,
  setUserRole,
} from './repository.js';
import { SIGN_IN_FAILURE_MEMORY_MS, signInLockSeconds, signInThrottleKey } from './rules.js';

export class UserNotFoundError extends Error {
  constructor(identifier: string) {
    super(`No user with the email or username "${identifier}"`);
    this.name = 'UserNotFoundError';
  }
}

/**
 * Makes a user a platform admin (Better Auth's admin plugin: user list, bans, impersonation). The
 * first admin of an install has nobody to promote them, so operators run this from the shell.
 * Other roles the user holds are kept.
 */
export async function grantPlatformAdmin(db: Db, identifier: string) {
  const normalized = identifier.trim().toLowerCase();
  const user = await findUserByEmailOrUsername(
    db,
    normalized.includes('@') ? { email: normalized } : { username: normalized },
  );
  if (!user) throw new UserNotFoundError(identifier);
  const roles = parseRoles(user.role ?? 'user');
  if (roles.includes('admin')) return { user, changed: false };
  const updated = await setUserRole(db, user.id, [...roles, 'admin'].join(','));
  return { user: updated, changed: true };
}

/** The key an attempt to sign in as `typed` (an email or a username) is counted under. */
export async function signInThrottleKeyFor(db: Db, typed: string): Promise<string> {
  const normalized = typed.trim().toLowerCase();
  const user = await findUserByEmailOrUsername(
    db,
    normalized.includes('@') ? { email: normalized } : { username: normalized },
  );
  return signInThrottleKey(user?.id ?? null, normalized);
}

/** Seconds the account still has to wait before it may try again; 0 when it may. */
export async function signInWaitSeconds(db: Db, key: string, now = new Date()): Promise<number> {
  const lockedUntil = await findSignInLock(db, key);
  return lockedUntil && lockedUntil > now ? Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000) : 0;
}

/** A wrong password: counted, and the account locked once it has failed too often. */
export async function recordFailedSignIn(db: Db, key: string): Promise<void> {
  const failures = await recordSignInFailure(db, key, SIGN_IN_FAILURE_MEMORY_MS);
  const seconds = signInLockSeconds(failures);
  if (seconds > 0) await lockSignIn(db, key, seconds);
}

export async function recordSuccessfulSignIn(db: Db, key: string): Promise<void> {
  await clearSignInFailures(db, key);
}
