import { adminClient, organizationClient, twoFactorClient, usernameClient } from 'better-auth/client/plugins';
import { createAuthClient } from 'better-auth/react';

/** Better Auth's own client: same origin, so the browser carries the session cookie and the Origin header. */
export const authClient = createAuthClient({
  baseURL: `${window.location.origin}/api/auth`,
  plugins: [
    organizationClient({ teams: { enabled: true } }),
    usernameClient(),
    twoFactorClient({
      onTwoFactorRedirect() {
        window.location.assign('/two-factor');
      },
    }),
    adminClient(),
  ],
});

/** The message the API gave, for showing to people as it is. */
export function errorMessage(
  error: { message?: string; statusText?: string } | null | undefined,
): string | null {
  if (!error) return null;
  return error.message || error.statusText || 'Something went wrong.';
}
