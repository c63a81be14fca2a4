import type { Db } from '../../infra/db.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import { findMembership, listMemberOrganizationIds, listMemberships } from './repository.js';
import { hasAnyRole, type Caller, type OrganizationRole } from './rules.js';

/** The organizations a caller may see: a token's own, or every organization a user belongs to. */
export async function accessibleOrganizationIds(db: Db, caller: Caller): Promise<string[]> {
  if (caller.kind === 'organization_access_token') return [caller.organizationId];
  return listMemberOrganizationIds(db, caller.userId);
}

export type OrganizationAccess = 'none' | 'read' | 'manage';

/**
 * What a caller may do with one organization. 'none' must read as not found to the client:
 * answering 403 would confirm that another organization exists.
 */
export async function organizationAccess(
  db: Db,
  caller: Caller,
  organizationId: string,
  managerRoles: readonly OrganizationRole[],
): Promise<OrganizationAccess> {
  if (caller.kind === 'organization_access_token') {
    return caller.organizationId === organizationId ? 'manage' : 'none';
  }
  const membership = await findMembership(db, organizationId, caller.userId);
  if (!membership) return 'none';
  return hasAnyRole(membership.role, managerRoles) ? 'manage' : 'read';
}

/** Organizations in which a signed-in user holds one of `roles`. */
export async function organizationsWithRole(
  db: Db,
  userId: string,
  roles: readonly OrganizationRole[],
): Promise<string[]> {
  const memberships = await listMemberships(db, userId);
  return memberships
    .filter((membership) => hasAnyRole(membership.role, roles))
    .map((membership) => membership.organizationId);
}

/**
 * The organization a new object belongs to. A token writes to its own organization (naming another
 * is an error); a signed-in user names one of theirs in `organization_id`.
 */
export async function organizationForWrite(
  db: Db,
  caller: Caller,
  organizationId: string | null | undefined,
  managerRoles: readonly OrganizationRole[],
): Promise<string> {
  const loc = ['body', 'organization_id'];
  if (caller.kind === 'organization_access_token') {
    if (organizationId && organizationId !== caller.organizationId) {
      throw new InvalidFieldError(loc, 'An organization access token can only act on its own organization.');
    }
    return caller.organizationId;
  }
  if (!organizationId) throw new InvalidFieldError(loc, 'organization_id is required.', 'missing');
  const access = await organizationAccess(db, caller, organizationId, managerRoles);
  if (access === 'none') throw new InvalidFieldError(loc, 'Organization not found.');
  if (access === 'read') throw new AppError('NotPermitted');
  return organizationId;
}

/**
 * Checks that the caller may change an object of `organizationId` (which the caller has already
 * found): 404 when the organization is not theirs, 403 when they may only read it.
 */
export async function assertCanManage(
  db: Db,
  caller: Caller,
  organizationId: string,
  managerRoles: readonly OrganizationRole[],
): Promise<void> {
  const access = await organizationAccess(db, caller, organizationId, managerRoles);
  if (access === 'none') throw new AppError('ResourceNotFound');
  if (access === 'read') throw new AppError('NotPermitted');
}

/** The organizations a list covers: the caller's, narrowed to `organization_id` filters when given. */
export async function organizationsToList(
  db: Db,
  caller: Caller,
  filter: string | string[] | null | undefined,
): Promise<string[]> {
  const accessible = await accessibleOrganizationIds(db, caller);
  if (!filter) return accessible;
  const wanted = new Set(Array.isArray(filter) ? filter : [filter]);
  return accessible.filter((id) => wanted.has(id));
}
