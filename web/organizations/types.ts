import type { authClient } from '../auth/client';

/** Better Auth's full view of the active organization: members with their users, invitations. */
export type ActiveOrganization = NonNullable<ReturnType<typeof authClient.useActiveOrganization>['data']>;
