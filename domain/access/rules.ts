// Who is calling /v1, and what the organization roles of spec §6 allow.

/**
 * Set when the caller is an OAuth app holding a token a user granted it (domain/oauth2): its scopes
 * bound it even when they name no `/v1` resource, unlike an organization access token's.
 */
export type OAuthGrant = { tokenId: string; clientId: string; scopes: string[] };

export type Caller =
  | {
      kind: 'organization_access_token';
      tokenId: string;
      organizationId: string;
      createdById: string | null;
      scopes: string[];
      oauth?: OAuthGrant;
    }
  /** A signed-in user (Better Auth session), or an OAuth app acting as one (`sessionId` null). */
  | { kind: 'user_session'; userId: string; sessionId: string | null; oauth?: OAuthGrant };

export const ORGANIZATION_ROLES = ['owner', 'admin', 'member'] as const;
export type OrganizationRole = (typeof ORGANIZATION_ROLES)[number];

/** A member may hold several comma-separated roles; a permission is granted if any role allows it (spec §6). */
export function parseRoles(role: string): string[] {
  return role
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

export function hasAnyRole(memberRole: string, allowed: readonly OrganizationRole[]): boolean {
  return parseRoles(memberRole).some((role) => (allowed as readonly string[]).includes(role));
}

/** Roles allowed to change an organization's profile and its API access (spec §6 "organization update"). */
export const ORGANIZATION_MANAGERS: readonly OrganizationRole[] = ['owner', 'admin'];

/** Roles that may read the organization's orders, and so may get its "New order" email. */
export const ORDER_READERS: readonly OrganizationRole[] = ORGANIZATION_ROLES;

/** Roles that get the "New order" email unless the member switches it off; the others may switch it on. */
export const NEW_ORDER_EMAIL_ROLES: readonly OrganizationRole[] = ORGANIZATION_MANAGERS;

/** Whether a member gets the "New order" email: their own choice, else their role's default. */
export function getsNewOrderEmail(member: { role: string; newOrderEmail: boolean | null }): boolean {
  if (!hasAnyRole(member.role, ORDER_READERS)) return false;
  return member.newOrderEmail ?? hasAnyRole(member.role, NEW_ORDER_EMAIL_ROLES);
}
