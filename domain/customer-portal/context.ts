// What every part of the customer portal shares (docs/portal.md): the context its operations run
// in, the signed-in customer's row, and the seller as a buyer sees them. Each resource of the
// portal has its own file beside this one, as Polar lays out its portal.

import type { Db } from '../../infra/db.js';
import type { CustomerCaller } from '../customer-sessions/rules.js';
import { findLiveCustomer, type CustomerRow } from '../customers/repository.js';
import type { FileStorage } from '../files/storage.js';
import { findOrganizationById } from '../organizations/repository.js';
import { organizationView } from '../organizations/views.js';
import type { PaymentMethodsContext } from '../payment-methods/service.js';
import { AppError } from '../platform/errors.js';
import type { SubscriptionChangeContext } from '../subscriptions/service.js';
import type { CustomerPaymentContext } from '../subscriptions/customer-payments.js';

export type PortalContext = {
  db: Db;
  publicUrl: string;
  storage: FileStorage;
  /** Signs download links (the deployment's secret). */
  linkSecret: () => Promise<string>;
  subscriptions: SubscriptionChangeContext;
  paymentMethods: PaymentMethodsContext;
  customerPayments: CustomerPaymentContext;
};

export async function signedInCustomer(db: Db, customer: CustomerCaller): Promise<CustomerRow> {
  const row = await findLiveCustomer(db, customer.customerId);
  if (!row) throw new AppError('Unauthorized', 'This customer no longer exists: sign in again.');
  return row;
}

/** The seller of the signed-in customer, in the organization's wire form. */
export async function organizationWire(db: Db, organizationId: string) {
  return organizationView((await findOrganizationById(db.sql, organizationId))!);
}
