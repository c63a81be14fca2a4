import { APIError, createAuthMiddleware, getSessionFromCtx } from 'better-auth/api';
import type { BetterAuthPlugin } from 'better-auth';
import type { DBFieldAttribute } from 'better-auth/db';
import { sellerProfileInputSchema } from '../../domain/organizations/schemas.js';
import { parseRoles } from '../../domain/access/rules.js';

/**
 * The seller profile (spec §3) on Better Auth's camelCase view of the organization. The columns are
 * the ones `/v1/organizations` reads and writes in snake_case; `detailsSubmittedAt` is set only by
 * submitting details there.
 */
export const sellerProfileFields = {
  email: { type: 'string', required: false },
  website: { type: 'string', required: false },
  socials: { type: 'json', required: false, defaultValue: [] },
  detailsSubmittedAt: { type: 'date', required: false, input: false },
  issueFundingEnabled: { type: 'boolean', required: false, defaultValue: false },
  usageBasedBillingEnabled: { type: 'boolean', required: false, defaultValue: false },
  allowMultipleSubscriptions: { type: 'boolean', required: false, defaultValue: false },
  allowCustomerUpdates: { type: 'boolean', required: false, defaultValue: true },
  prorationBehavior: { type: 'string', required: false, defaultValue: 'prorate' },
} satisfies Record<string, DBFieldAttribute>;

/**
 * Better Auth checks only the types of additional fields; the seller profile has rules of its own
 * (email and URLs, known social platforms, proration behaviours). Answered like Better Auth's own
 * validation errors: 400 `VALIDATION_ERROR`, `[body.<field>] <message>`.
 */
export function validateSellerProfile(organization: Record<string, unknown>): void {
  const fields = Object.fromEntries(
    Object.keys(sellerProfileInputSchema.shape)
      .filter((key) => organization[key] !== undefined)
      .map((key) => [key, organization[key]]),
  );
  const result = sellerProfileInputSchema.safeParse(fields);
  if (result.success) return;
  const issue = result.error.issues[0]!;
  throw new APIError('BAD_REQUEST', {
    code: 'VALIDATION_ERROR',
    message: `[body.${issue.path.join('.')}] ${issue.message}`,
  });
}

export type OrganizationCreator = {
  api: { createOrganization(input: { body: never }): Promise<Record<string, unknown> | null> };
};

/**
 * `userId` on `/organization/create` creates an organization for someone else. Better Auth honours
 * it only for server calls and silently ignores it for signed-in callers; here a platform admin may
 * use it over HTTP, and anyone else naming another user is refused rather than ignored.
 */
export function organizationsOnBehalfOfOthers(auth: () => OrganizationCreator): BetterAuthPlugin {
  return {
    id: 'tollgate-organizations-on-behalf',
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path === '/organization/create',
          handler: createAuthMiddleware(async (ctx) => {
            const body = (ctx.body ?? {}) as Record<string, unknown>;
            if (typeof body.userId !== 'string' || !ctx.request) return;
            const session = await getSessionFromCtx(ctx);
            if (!session || session.user.id === body.userId) return;
            const role = (session.user as { role?: string | null }).role ?? '';
            if (!parseRoles(role).includes('admin')) {
              throw new APIError('FORBIDDEN', {
                code: 'YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION',
                message: 'You are not allowed to create a new organization',
              });
            }
            // A server call (no headers) is Better Auth's "system action" that creates for `userId`.
            const { keepCurrentActiveOrganization: _ignored, ...forOwner } = body;
            return ctx.json(await auth().api.createOrganization({ body: forOwner as never }));
          }),
        },
      ],
    },
  };
}
