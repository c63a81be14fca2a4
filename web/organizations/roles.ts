import { hasRole } from '../auth/client';

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
