import { authClient, hasRole } from '../auth/client';

export const ORGANIZATION_ROLES = ['owner', 'admin', 'member'] as const;
export type OrganizationRole = (typeof ORGANIZATION_ROLES)[number];

export const ROLE_LABELS: Record<OrganizationRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
};

/** Spec §6: owners and admins manage members, invitations, teams and settings. */
export function canManage(role: string | undefined): boolean {
  return hasRole(role, 'owner') || hasRole(role, 'admin');
}

type MemberLike = { id: string; role: string };

/** Roles the user may hand out: only an owner makes owners (Better Auth refuses it to admins). */
export function assignableRoles(myRole: string | undefined): OrganizationRole[] {
  return ORGANIZATION_ROLES.filter((role) => role !== 'owner' || hasRole(myRole, 'owner'));
}

/**
 * What `me` may do to `member` on the members card (spec §6: owners and admins manage members;
 * Better Auth adds that only owners act on owners and that an organization keeps an owner):
 * the roles it may be given, whether it may be removed, and whether it may leave (for `me` itself).
 */
export function memberActions(
  me: MemberLike | null,
  member: MemberLike,
  members: readonly MemberLike[],
): { roles: OrganizationRole[]; canRemove: boolean; canLeave: boolean } {
  const owners = members.filter((other) => hasRole(other.role, 'owner'));
  const isSoleOwner = hasRole(member.role, 'owner') && owners.length === 1;
  const isMe = me !== null && me.id === member.id;
  const mayAct =
    me !== null && canManage(me.role) && (!hasRole(member.role, 'owner') || hasRole(me.role, 'owner'));
  return {
    roles: mayAct && !isSoleOwner ? assignableRoles(me.role).filter((role) => role !== member.role) : [],
    canRemove: mayAct && !isMe && !isSoleOwner,
    canLeave: isMe && !isSoleOwner,
  };
}

/**
 * Whether the signed-in user may change the active organization's billing (subscriptions, test
 * clocks): the API allows it to owners and admins only, so members are not offered the buttons.
 * Null until the organization's members have loaded (neither the buttons nor a refusal yet).
 */
export function useCanManageActiveOrganization(userId: string): boolean | null {
  const organization = authClient.useActiveOrganization().data;
  if (!organization) return null;
  return canManage(organization.members.find((member) => member.userId === userId)?.role);
}
