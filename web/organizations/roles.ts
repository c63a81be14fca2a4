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
