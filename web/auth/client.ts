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
        // The sign-in's destination (an app's consent page) survives the second factor.
        const returnTo = new URLSearchParams(window.location.search).get('return_to');
        window.location.assign(
          returnTo ? `/two-factor?${new URLSearchParams({ return_to: returnTo }).toString()}` : '/two-factor',
        );
      },
    }),
    adminClient(),
  ],
});

type AuthError = { message?: string; statusText?: string };

/** The message the API gave, for showing to people as it is. */
export function errorMessage(error: AuthError | null | undefined): string | null {
  if (!error) return null;
  return error.message || error.statusText || 'Something went wrong.';
}

/** A Better Auth client result as a value, or its message as a thrown Error (for React Query). */
export async function unwrap<T>(call: Promise<{ data: T; error: null } | { data: null; error: AuthError }>) {
  const result = await call;
  if (result.error) throw new Error(errorMessage(result.error) ?? undefined);
  return result.data as T;
}

export { hasRole } from '../../domain/users/rules';
