import type { CustomerPortalCustomer } from '../customer-portal/schemas.js';
import type { LinkedAccount } from './repository.js';
import type { AccountPlatform } from './schemas.js';

/** `oauth_accounts` of the portal's customer: each linked platform's account id and username. */
export function oauthAccountsView(accounts: LinkedAccount[]): CustomerPortalCustomer['oauth_accounts'] {
  return Object.fromEntries(
    accounts.map((account) => [
      account.platform as AccountPlatform,
      { account_id: account.accountId, account_username: account.accountUsername },
    ]),
  );
}
