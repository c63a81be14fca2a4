import { createAuthEndpoint } from 'better-auth/api';
import type { BetterAuthPlugin } from 'better-auth';
import { z } from 'zod';

export type PasswordSetter = {
  api: {
    setPassword(input: { body: { newPassword: string }; headers: Headers }): Promise<{ status: boolean }>;
  };
};

/**
 * Spec §7 lists `POST /set-password`; Better Auth 1.7 offers it to server code only. It gives a
 * password to an account that has none (one that signed up with a social provider) and refuses
 * accounts that already have one, so it is safe to expose for the signed-in user.
 */
export function setPasswordEndpoint(auth: () => PasswordSetter): BetterAuthPlugin {
  return {
    id: 'tollgate-set-password',
    endpoints: {
      setPasswordOverHttp: createAuthEndpoint(
        '/set-password',
        { method: 'POST', body: z.object({ newPassword: z.string() }) },
        async (ctx) =>
          ctx.json(await auth().api.setPassword({ body: ctx.body, headers: ctx.headers ?? new Headers() })),
      ),
    },
  };
}
