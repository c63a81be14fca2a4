import { queryOptions } from '@tanstack/react-query';
import { accessTokenSchema } from '../../domain/access-tokens/schemas';
import { organizationSchema } from '../../domain/organizations/schemas';
import { listResourceSchema } from '../../domain/platform/schemas';
import { getJson } from '../api';
import { authClient, unwrap } from '../auth/client';

export const organizationKeys = {
  all: (organizationId: string) => ['organizations', organizationId] as const,
  profile: (organizationId: string) => ['organizations', organizationId, 'profile'] as const,
  teams: (organizationId: string) => ['organizations', organizationId, 'teams'] as const,
  accessTokens: (organizationId: string) => ['organizations', organizationId, 'access-tokens'] as const,
  myTeams: ['teams', 'mine'] as const,
  teamMembers: (teamId: string) => ['teams', teamId, 'members'] as const,
};

/** The seller profile, in the payments API's snake_case shape (GET /v1/organizations/{id}). */
export const organizationProfileQuery = (organizationId: string) =>
  queryOptions({
    queryKey: organizationKeys.profile(organizationId),
    queryFn: () => getJson(`/v1/organizations/${organizationId}`, organizationSchema),
  });

// Tokens of one organization rarely reach a page of 100; the list is not paged.
export const accessTokensQuery = (organizationId: string) =>
  queryOptions({
    queryKey: organizationKeys.accessTokens(organizationId),
    queryFn: () =>
      getJson(
        `/v1/organization-access-tokens/?organization_id=${organizationId}&limit=100`,
        listResourceSchema(accessTokenSchema),
      ),
  });

export const teamsQuery = (organizationId: string) =>
  queryOptions({
    queryKey: organizationKeys.teams(organizationId),
    queryFn: () => unwrap(authClient.organization.listTeams({ query: { organizationId } })),
  });

/** The signed-in user's own teams: Better Auth lists a team's members only to its members. */
export const myTeamsQuery = queryOptions({
  queryKey: organizationKeys.myTeams,
  queryFn: () => unwrap(authClient.organization.listUserTeams()),
});

export const teamMembersQuery = (teamId: string) =>
  queryOptions({
    queryKey: organizationKeys.teamMembers(teamId),
    queryFn: () => unwrap(authClient.organization.listTeamMembers({ query: { teamId } })),
  });

/** An invitation as its invitee sees it; only the invited user may read it. */
export const invitationQuery = (invitationId: string) =>
  queryOptions({
    queryKey: ['invitations', invitationId],
    queryFn: () => unwrap(authClient.organization.getInvitation({ query: { id: invitationId } })),
    // Someone else's, expired or answered: asking again does not change that.
    retry: false,
  });
