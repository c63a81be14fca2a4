// Linking a customer's GitHub or Discord account in the portal (docs/portal.md, "Linked accounts"):
// the benefits of that platform are granted to it.

import { transaction, type Db } from '../../infra/db.js';
import type { CustomerCaller } from '../customer-sessions/rules.js';
import { findLiveCustomer, markBenefitGrantsStale } from '../customers/repository.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import { OAuthRefusal, type AccountPlatforms, type OAuthProvider, type OAuthTokens } from './platforms.js';
import {
  deleteLinkedAccount,
  linkedAccountsOf,
  lockLinkedAccount,
  saveAccountTokens,
  saveLinkedAccount,
  type LinkedAccount,
} from './repository.js';
import {
  isOwnPage,
  LINK_STATE_TTL_MS,
  linkCallbackUrl,
  needsRenewal,
  PLATFORM_NAMES,
  signLinkState,
  verifyLinkState,
  withLinkError,
} from './rules.js';
import type { AccountLink, AccountLinkCallbackQuery, AccountLinkQuery, AccountPlatform } from './schemas.js';
import { oauthAccountsView } from './views.js';

export type AccountLinkingContext = {
  db: Db;
  publicUrl: string;
  platforms: AccountPlatforms;
  /** Signs the link's state (the deployment's secret). */
  linkSecret: () => Promise<string>;
};

function providerOf(platforms: AccountPlatforms, platform: AccountPlatform): OAuthProvider {
  const provider = platforms[platform];
  if (!provider) {
    throw new AppError('NotImplemented', `${PLATFORM_NAMES[platform]} is not configured on this deployment.`);
  }
  return provider;
}

/** The customer's linked accounts as the portal's customer shows them (`oauth_accounts`). */
export async function oauthAccountsOf(db: Db, customerId: string) {
  return oauthAccountsView(await linkedAccountsOf(db, customerId));
}

/** Where the customer's browser goes to allow the link; it comes back to `callback`. */
export async function startAccountLink(
  ctx: AccountLinkingContext,
  customer: CustomerCaller,
  query: AccountLinkQuery,
): Promise<AccountLink> {
  if (!isOwnPage(query.return_to, ctx.publicUrl)) {
    throw new InvalidFieldError(
      ['query', 'return_to'],
      `return_to must be a page of this deployment (under ${ctx.publicUrl}), such as the customer portal.`,
    );
  }
  const provider = providerOf(ctx.platforms, query.platform);
  const state = signLinkState(
    await ctx.linkSecret(),
    { customerId: customer.customerId, platform: query.platform, returnTo: query.return_to },
    Date.now() + LINK_STATE_TTL_MS,
  );
  return { url: provider.authorizeUrl({ state, redirectUri: linkCallbackUrl(ctx.publicUrl) }) };
}

/**
 * The platform sent the browser back: the code becomes the customer's linked account, their grants
 * waiting for it are looked at again (the dispatcher wakes their workflows within a second), and
 * the browser goes back to the page it came from. Answers that page's address.
 */
export async function completeAccountLink(
  ctx: AccountLinkingContext,
  query: AccountLinkCallbackQuery,
): Promise<string> {
  const check = query.state
    ? verifyLinkState(await ctx.linkSecret(), query.state, Date.now())
    : ({ outcome: 'malformed' } as const);
  // The state is the request's credential: a bad one is invalid input, refused at its name.
  if (check.outcome === 'expired') {
    throw new InvalidFieldError(
      ['query', 'state'],
      'This link to connect your account has expired: start again from the portal.',
    );
  }
  if (check.outcome !== 'valid') {
    throw new InvalidFieldError(
      ['query', 'state'],
      'This link to connect your account is not valid: start again from the portal.',
    );
  }
  // The customer declined on the platform's page (OAuth's `access_denied`), or it failed there.
  if (query.error || !query.code) {
    return withLinkError(
      check.returnTo,
      query.error === 'access_denied' ? 'access_denied' : 'platform_error',
    );
  }
  const customer = await findLiveCustomer(ctx.db, check.customerId);
  if (!customer) throw new InvalidFieldError(['query', 'state'], 'This customer no longer exists.');
  const provider = providerOf(ctx.platforms, check.platform);
  const redirectUri = linkCallbackUrl(ctx.publicUrl);
  let tokens;
  let user;
  try {
    tokens = await provider.exchangeCode({ code: query.code, redirectUri });
    user = await provider.currentUser(tokens.accessToken);
  } catch (error) {
    if (error instanceof OAuthRefusal) return withLinkError(check.returnTo, 'invalid_code');
    throw error;
  }
  await transaction(ctx.db, async ({ prisma }) => {
    await saveLinkedAccount(prisma, {
      organizationId: customer.organizationId,
      customerId: customer.id,
      platform: check.platform,
      accountId: user.id,
      accountUsername: user.username,
      // GitHub's token is never used again (the deployment's token adds collaborators); Discord's
      // adds the customer to a server.
      tokens: check.platform === 'discord' ? tokens : null,
    });
    await markBenefitGrantsStale(prisma, [customer.id]);
  });
  return check.returnTo;
}

/**
 * The account's access token, renewed first when it is about to expire; null when there is none
 * to use (the customer has to link again). A renewal is its own transaction, under the account's
 * row lock: two grant steps never spend one refresh token twice (the platform takes each once),
 * and the new tokens are kept whatever becomes of the step that asked for them.
 */
export async function currentAccessToken(
  db: Db,
  account: LinkedAccount,
  renew: (refreshToken: string) => Promise<OAuthTokens>,
): Promise<string | null> {
  if (account.accessToken && !needsRenewal(account.expiresAt, Date.now())) return account.accessToken;
  return transaction(db, async ({ sql }) => {
    const current = await lockLinkedAccount(sql, account.id);
    if (!current?.accessToken) return null;
    // Another step may have renewed it while this one waited for the lock.
    if (!needsRenewal(current.expiresAt, Date.now())) return current.accessToken;
    if (!current.refreshToken) return null;
    const tokens = await renew(current.refreshToken);
    await saveAccountTokens(sql, current.id, tokens);
    return tokens.accessToken;
  });
}

/** Grants already given stay with the account they went to; revoking them later still works. */
export async function unlinkAccount(
  db: Db,
  customer: CustomerCaller,
  platform: AccountPlatform,
): Promise<void> {
  if (!(await deleteLinkedAccount(db, customer.customerId, platform))) {
    throw new AppError('ResourceNotFound', `No ${PLATFORM_NAMES[platform]} account is linked.`);
  }
}
