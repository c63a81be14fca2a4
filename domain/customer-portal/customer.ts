// The signed-in customer reads and updates themself (Polar's portal `customer`). Every read is
// scoped to the session's customer.

import type { CustomerCaller } from '../customer-sessions/rules.js';
import { taxIdFormatOf } from '../customers/rules.js';
import type { CustomerRow } from '../customers/repository.js';
import { TAX_ID_FORMATS } from '../customers/schemas.js';
import { applyCustomerUpdate } from '../customer-state/service.js';
import { customerView } from '../customers/views.js';
import { oauthAccountsOf } from '../customer-accounts/service.js';
import { InvalidFieldError } from '../platform/errors.js';
import { signedInCustomer, type PortalContext } from './context.js';
import {
  customerPortalCustomerSchema,
  type CustomerPortalCustomer,
  type CustomerPortalCustomerUpdate,
} from './schemas.js';

/** With the GitHub and Discord accounts the customer linked (our extension's oauth-accounts). */
export const portalCustomerView = (
  row: CustomerRow,
  oauthAccounts: CustomerPortalCustomer['oauth_accounts'],
): CustomerPortalCustomer =>
  customerPortalCustomerSchema.parse({ ...customerView(row), oauth_accounts: oauthAccounts });

export async function getPortalCustomer(ctx: PortalContext, customer: CustomerCaller) {
  const row = await signedInCustomer(ctx.db, customer);
  return portalCustomerView(row, await oauthAccountsOf(ctx.db, row.id));
}

/**
 * What `PATCH customers/me` answers to a new `email`: the address of the account moves only by the
 * emailed link, so whoever holds a session (a forwarded link, a shared computer) cannot move it to
 * an address they do not own.
 */
export const EMAIL_CHANGE_NEEDS_LINK =
  'Your email address changes only once you confirm it: ask for a link to the new address (POST /v1/customer-portal/customers/me/email-update/request) and open it.';

export async function updatePortalCustomer(
  ctx: PortalContext,
  customer: CustomerCaller,
  input: CustomerPortalCustomerUpdate,
): Promise<CustomerPortalCustomer> {
  const current = await signedInCustomer(ctx.db, customer);
  // @polar-sh/sdk@0.33.2 still sends `email`: its current value (a whole form sent back) changes
  // nothing; any other is refused before anything is written.
  if (input.email && input.email !== current.email.toLowerCase()) {
    throw new InvalidFieldError(['body', 'email'], EMAIL_CHANGE_NEEDS_LINK);
  }
  let taxId: [string, (typeof TAX_ID_FORMATS)[number]] | null | undefined;
  if (input.tax_id === null) taxId = null;
  else if (input.tax_id !== undefined) {
    const country =
      (input.billing_address ?? (current.billingAddress as { country?: string } | null))?.country ?? null;
    const format = taxIdFormatOf(input.tax_id, TAX_ID_FORMATS, country);
    if (!format) {
      throw new InvalidFieldError(
        ['body', 'tax_id'],
        'This tax number is not in a format we recognise: check it, with its country prefix (e.g. DE123456789).',
      );
    }
    taxId = [input.tax_id, format];
  }
  const updated = await applyCustomerUpdate(ctx.db, current, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.billing_name !== undefined ? { billing_name: input.billing_name } : {}),
    ...(input.billing_address !== undefined ? { billing_address: input.billing_address } : {}),
    ...(taxId !== undefined ? { tax_id: taxId } : {}),
  } as Parameters<typeof applyCustomerUpdate>[2]);
  return portalCustomerView(updated, await oauthAccountsOf(ctx.db, updated.id));
}
