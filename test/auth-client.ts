import { createAuthClient } from 'better-auth/client';
import {
  adminClient,
  inferOrgAdditionalFields,
  organizationClient,
  twoFactorClient,
  usernameClient,
} from 'better-auth/client/plugins';
import { sellerProfileFields } from '../api/auth/organizations.js';

/**
 * Better Auth's own client, as a browser would use it: a cookie jar (Node's fetch keeps none) and
 * the Origin header that cookie-authenticated POSTs must carry.
 */
export function createTestAuthClient(baseUrl: string) {
  const cookies = new Map<string, string>();
  const fetchWithCookies: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('origin', baseUrl);
    if (cookies.size > 0)
      headers.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(input, { ...init, headers });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = cookie.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute)) || value === '';
      if (expired) cookies.delete(name);
      else cookies.set(name, value);
    }
    return response;
  };
  const client = createAuthClient({
    baseURL: `${baseUrl}/api/auth`,
    fetchOptions: { customFetchImpl: fetchWithCookies },
    plugins: [
      organizationClient({
        teams: { enabled: true },
        schema: inferOrgAdditionalFields({ organization: { additionalFields: sellerProfileFields } }),
      }),
      usernameClient(),
      twoFactorClient(),
      adminClient(),
    ],
  });
  return {
    client,
    cookies,
    cookieHeader: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    /** What the dashboard's own requests carry: the session cookie and the page's Origin. */
    sessionHeaders: () => ({
      cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      origin: baseUrl,
    }),
  };
}

let userCounter = 0;

/** Signs a new user up (email + username + password) and returns their signed-in client. */
export async function signUpUser(
  baseUrl: string,
  overrides: { email?: string; username?: string; name?: string } = {},
) {
  userCounter += 1;
  const suffix = `${process.pid}${userCounter}${Date.now().toString(36)}`;
  const credentials = {
    email: overrides.email ?? `user${suffix}@example.test`,
    username: overrides.username ?? `user_${suffix}`,
    name: overrides.name ?? `User ${suffix}`,
    password: 'correct horse battery staple',
  };
  const session = createTestAuthClient(baseUrl);
  const result = await session.client.signUp.email(credentials);
  if (result.error) throw new Error(`sign-up failed: ${JSON.stringify(result.error)}`);
  // The Better Auth session's token: what `grant_type=web` exchanges (docs/oauth2.md).
  const sessionToken = result.data.token ?? '';
  return { ...session, credentials, user: result.data.user, sessionToken };
}

/**
 * A raw POST to `/api/auth` as the app's own page sends it (its Origin, an optional session cookie),
 * so a test sees the server's status and body rather than a client library's reading of them.
 */
export async function postAuth(
  baseUrl: string,
  path: string,
  body: unknown,
  cookie?: string,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${baseUrl}/api/auth${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as unknown };
}
