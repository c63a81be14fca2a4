// The customer's linked GitHub and Discord accounts (Polar's portal `oauth-accounts`).
import {
  accountLinkCallbackQuerySchema,
  accountLinkQuerySchema,
  accountLinkSchema,
  accountPlatformParamsSchema,
} from '../../../domain/customer-accounts/schemas.js';
import {
  completeAccountLink,
  startAccountLink,
  unlinkAccount,
  type AccountLinkingContext,
} from '../../../domain/customer-accounts/service.js';
import type { OperationRegistry } from '../../http/operations.js';
import { PORTAL_TAG as tag } from './tag.js';

const extension = (what: string) =>
  `Tollgate extension, not in @polar-sh/sdk 0.33.2: ${what} (GitHub and Discord benefits are granted to the linked account).`;

/**
 * Linking the customer's GitHub or Discord account (OAuth 2). Registered after the portal's
 * authentication; the callback takes no session, its signed `state` names the customer.
 */
export function registerPortalOAuthAccountOperations(api: OperationRegistry, ctx: AccountLinkingContext) {
  // Before `/{platform}`: its 405 for other methods would otherwise answer these paths.
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/oauth-accounts/authorize',
      operationId: 'customer_portal:oauth_accounts:authorize',
      summary: "Start linking a GitHub or Discord account: the platform's page to send the customer to",
      extension: extension(
        'the platform sends the browser back to `callback`, which returns it to `return_to` (a page of this deployment); the link is valid 10 minutes',
      ),
      tag,
      query: accountLinkQuerySchema,
      response: accountLinkSchema,
      errors: ['NotImplemented'],
    },
    ({ customer, query }) => startAccountLink(ctx, customer, query),
  );
  api.addPublic(
    {
      method: 'get',
      path: '/customer-portal/oauth-accounts/callback',
      operationId: 'customer_portal:oauth_accounts:callback',
      summary: "The platform's redirect back: links the account, then 302 to return_to",
      extension: extension(
        'no credentials, the signed `state` is one; a declined or refused link returns to return_to with `oauth_error`',
      ),
      tag,
      query: accountLinkCallbackQuerySchema,
      errors: ['NotImplemented'],
    },
    async ({ query, res }) => {
      res.redirect(302, await completeAccountLink(ctx, query));
    },
  );
  api.addForCustomer(
    {
      method: 'delete',
      path: '/customer-portal/oauth-accounts/{platform}',
      operationId: 'customer_portal:oauth_accounts:delete',
      summary: 'Unlink the GitHub or Discord account',
      extension: extension('benefits already granted to the account stay until they are revoked'),
      tag,
      params: accountPlatformParamsSchema,
      status: 204,
      errors: ['ResourceNotFound'],
    },
    async ({ customer, params }) => {
      await unlinkAccount(ctx.db, customer, params.platform);
    },
  );
}
