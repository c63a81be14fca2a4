import type { BetterAuthPlugin } from 'better-auth';

// Which pages may make signed-in changes: Better Auth trusts PUBLIC_URL's origin and
// TRUSTED_ORIGINS, and so does /v1 for the dashboard's session (api/http/authenticate.ts).

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The origins trusted beside PUBLIC_URL's own: TRUSTED_ORIGINS, and outside production, when
 * PUBLIC_URL is a loopback address, its other loopback spellings on the same port
 * (http://127.0.0.1:3000 and http://[::1]:3000 for http://localhost:3000). A browser counts each
 * as a site of its own, though all three reach the same server on this machine.
 */
export function trustedOriginsFor(input: {
  publicUrl: string;
  configured: readonly string[];
  isProduction: boolean;
}): string[] {
  const url = new URL(input.publicUrl);
  const aliases =
    !input.isProduction && LOOPBACK_HOSTS.includes(url.hostname)
      ? LOOPBACK_HOSTS.map((host) => `${url.protocol}//${host}${url.port ? `:${url.port}` : ''}`).filter(
          (origin) => origin !== url.origin,
        )
      : [];
  return [...new Set([...input.configured, ...aliases])];
}

/** What an operator changes when a page at an untrusted address is refused. */
export function untrustedOriginMessage(publicUrl: string): string {
  const origin = new URL(publicUrl).origin;
  return (
    `This page's address is not one this server trusts for signed-in changes. Open ${origin} instead; ` +
    'to use this address, the operator sets PUBLIC_URL to it, or adds it to TRUSTED_ORIGINS, and restarts Tollgate.'
  );
}

/** Better Auth's "Invalid origin" refusal, said with the settings that decide it. */
export function explainUntrustedOrigins(publicUrl: string): BetterAuthPlugin {
  return {
    id: 'tollgate-untrusted-origins',
    async onResponse(response) {
      if (response.status !== 403 || !response.headers.get('content-type')?.includes('application/json'))
        return;
      const body = (await response
        .clone()
        .json()
        .catch(() => null)) as { code?: unknown } | null;
      if (body?.code !== 'INVALID_ORIGIN') return;
      const headers = new Headers(response.headers);
      headers.delete('content-length');
      return {
        response: new Response(JSON.stringify({ ...body, message: untrustedOriginMessage(publicUrl) }), {
          status: 403,
          headers,
        }),
      };
    },
  };
}
