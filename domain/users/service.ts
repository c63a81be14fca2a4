import type { Db } from '../../infra/db.js';
import { parseRoles } from '../access/rules.js';
import { findUserByEmailOrUsername, setUserRole } from './repository.js';

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
