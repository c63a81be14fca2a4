import type { Db } from '../../infra/db.js';
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
