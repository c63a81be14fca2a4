// Customer state: the customer with what they hold, read for the API and recorded as
// `customer.state_changed` with every change that alters it, in the change's transaction. The
// customer's own writes are here for that reason; `customers` keeps the record and its lookups.
import type { Db } from '../../infra/db.js';
import { Prisma } from '../../generated/prisma/client.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import { assertCanManage, organizationForWrite, organizationsToList } from '../access/service.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import { recordEvent } from '../webhook-outbox/repository.js';
import {
  findLiveCustomerOfOrganization,
  insertCustomer,
  markBenefitGrantsStale,
  markCustomerMetersStale,
  updateCustomerRow,
  type CustomerRow,
} from '../customers/repository.js';
import { purchaseCustomerChanges, purchaseTaxId, type PurchaseDetails } from '../customers/rules.js';
import {
  customerSummarySchema,
  type Customer,
  type CustomerCreate,
  type CustomerSummary,
  type CustomerUpdate,
} from '../customers/schemas.js';
import {
  checkedTaxId,
  conflictError,
  findCustomerFor,
  findPurchasingCustomer,
  type PurchaseCustomer,
} from '../customers/service.js';
import { countryOf, customerView } from '../customers/views.js';
import { customerHoldingsIn, customerOrderTotals, findLiveCustomerWithHoldings } from './repository.js';
import type { CustomerState } from './schemas.js';
import { customerStateView } from './views.js';

/** The customer's state as the transaction sees it (the state recorded with a change). */
export async function customerState(tx: Prisma.TransactionClient, row: CustomerRow): Promise<CustomerState> {
  return customerStateView(row, await customerHoldingsIn(tx, row.id));
}

/** Writes a customer change and its events (`customer.<kind>` and `customer.state_changed`) together. */
async function withEvents(
  tx: Prisma.TransactionClient,
  row: CustomerRow,
  kind: 'created' | 'updated' | 'deleted',
): Promise<Customer> {
  const customer = customerView(row);
  const at = row.modifiedAt ?? row.createdAt;
  // Usage sent for this external id before anyone had it is theirs now.
  if (kind === 'created' && row.externalId) await markCustomerMetersStale(tx, [row.id]);
  await recordEvent(tx, { organizationId: row.organizationId, type: `customer.${kind}`, data: customer, at });
  await recordEvent(tx, {
    organizationId: row.organizationId,
    type: 'customer.state_changed',
    data: await customerState(tx, row),
    at,
  });
  return customer;
}

export async function createCustomer(db: Db, caller: Caller, input: CustomerCreate): Promise<Customer> {
  const organizationId = await organizationForWrite(db, caller, input.organization_id, ORGANIZATION_MANAGERS);
  const taxId = checkedTaxId(input.tax_id, input.billing_address?.country ?? null);
  return db
    .$transaction(async (tx) => {
      const row = await insertCustomer(tx, {
        organizationId,
        email: input.email,
        externalId: input.external_id ?? null,
        name: input.name ?? null,
        billingAddress: input.billing_address ?? undefined,
        taxId: taxId ?? undefined,
        metadata: input.metadata ?? {},
      });
      return withEvents(tx, row, 'created');
    })
    .catch(conflictError);
}

export async function updateCustomer(
  db: Db,
  caller: Caller,
  ref: { id: string } | { externalId: string },
  input: CustomerUpdate,
): Promise<Customer> {
  const current = await findCustomerFor(db, caller, ref);
  await assertCanManage(db, caller, current.organizationId, ORGANIZATION_MANAGERS);
  return customerView(await applyCustomerUpdate(db, current, input));
}

/** A change of the customer's own record, by the seller or by the customer in the portal. */
export async function applyCustomerUpdate(
  db: Db,
  current: CustomerRow,
  // The billing name is the customer's own to change (the portal), not the seller's (Polar's).
  input: CustomerUpdate & { billing_name?: string | null },
): Promise<CustomerRow> {
  if (
    input.external_id !== undefined &&
    current.externalId !== null &&
    input.external_id !== current.externalId
  ) {
    throw new InvalidFieldError(
      ['body', 'external_id'],
      'The external ID of a customer cannot change once set.',
    );
  }
  const data: Prisma.CustomerUpdateInput = {};
  if (input.email && input.email !== current.email) {
    data.email = input.email;
    data.emailVerified = false;
  }
  if (input.external_id) data.externalId = input.external_id;
  if (input.name !== undefined) data.name = input.name;
  if (input.billing_name !== undefined) data.billingName = input.billing_name;
  if (input.billing_address !== undefined) data.billingAddress = input.billing_address ?? Prisma.DbNull;
  if (input.tax_id !== undefined) {
    const address = input.billing_address === undefined ? current.billingAddress : input.billing_address;
    data.taxId = checkedTaxId(input.tax_id, countryOf(address)) ?? Prisma.DbNull;
  }
  if (input.metadata !== undefined) data.metadata = input.metadata;
  return db
    .$transaction(async (tx) => {
      if (data.externalId) await markCustomerMetersStale(tx, [current.id]);
      const row = await updateCustomerRow(tx, current.id, data);
      await withEvents(tx, row, 'updated');
      return row;
    })
    .catch(conflictError);
}

/**
 * The customer proved they read `email` (the portal's email change): it becomes theirs, verified,
 * in one transaction with `inTransaction` (which spends the proof) and the seller's events.
 */
export async function applyVerifiedEmail(
  db: Db,
  current: CustomerRow,
  email: string,
  inTransaction: (tx: Prisma.TransactionClient) => Promise<void>,
): Promise<CustomerRow> {
  return db
    .$transaction(async (tx) => {
      await inTransaction(tx);
      const row = await updateCustomerRow(tx, current.id, { email, emailVerified: true });
      await withEvents(tx, row, 'updated');
      return row;
    })
    .catch(conflictError);
}

export async function deleteCustomer(
  db: Db,
  caller: Caller,
  ref: { id: string } | { externalId: string },
): Promise<void> {
  const current = await findCustomerFor(db, caller, ref);
  await assertCanManage(db, caller, current.organizationId, ORGANIZATION_MANAGERS);
  await db.$transaction(async (tx) => {
    await withEvents(tx, await updateCustomerRow(tx, current.id, { deletedAt: new Date() }), 'deleted');
    // A deleted customer holds nothing: their grants are revoked.
    await markBenefitGrantsStale(tx, [current.id]);
  });
}

/** As `findCustomerFor` finds the customer, in the statement that reads what they hold. */
export async function getCustomerState(
  db: Db,
  caller: Caller,
  ref: { id: string } | { externalId: string },
): Promise<CustomerState> {
  const organizationIds = await organizationsToList(db, caller, undefined);
  const found = await findLiveCustomerWithHoldings(db.sql, organizationIds, ref);
  if (!found) throw new AppError('ResourceNotFound', 'Customer not found');
  return customerStateView(found.customer, found.holdings);
}

/**
 * What the customer brought in and holds: orders, lifetime value (net of refunds, excluding tax,
 * per currency: amounts in different currencies do not add up), subscriptions.
 */
export async function getCustomerSummary(db: Db, caller: Caller, id: string): Promise<CustomerSummary> {
  const customer = await findCustomerFor(db, caller, { id });
  const totals = await customerOrderTotals(db, customer.organizationId, customer.id);
  return customerSummarySchema.parse({
    customer_id: customer.id,
    orders_count: totals.ordersCount,
    paid_orders_count: totals.paidOrdersCount,
    first_order_at: totals.firstOrderAt?.toISOString() ?? null,
    last_order_at: totals.lastOrderAt?.toISOString() ?? null,
    lifetime_value: totals.byCurrency,
    active_subscriptions_count: totals.activeSubscriptions,
    subscriptions_count: totals.subscriptions,
  });
}

/**
 * The buyer of a successful checkout as a customer: the one the checkout named, else the live
 * customer with its external id, else with its email, given what the checkout collected
 * (`purchaseCustomerChanges`: its renewals are taxed by it); created (with its events) otherwise.
 * Runs in the transaction that creates the order, so a retry finds what an earlier attempt wrote.
 */
export async function customerForPurchase(
  tx: Prisma.TransactionClient,
  buyer: PurchaseCustomer,
): Promise<{ row: CustomerRow; created: boolean }> {
  const billingAddress = (buyer.billingAddress as PurchaseDetails['billingAddress']) ?? null;
  const purchase: PurchaseDetails = {
    name: buyer.name,
    billingAddress,
    taxId: purchaseTaxId(buyer.taxId, billingAddress?.country ?? null),
  };
  const existing = await findPurchasingCustomer(tx, buyer);
  if (existing) {
    const changes = purchaseCustomerChanges(
      {
        name: existing.name,
        billingAddress: existing.billingAddress as PurchaseDetails['billingAddress'],
        taxId: existing.taxId as PurchaseDetails['taxId'],
      },
      purchase,
    );
    if (!changes) return { row: existing, created: false };
    const row = await updateCustomerRow(tx, existing.id, {
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.billingAddress ? { billingAddress: changes.billingAddress } : {}),
      ...(changes.taxId ? { taxId: [...changes.taxId] } : {}),
    });
    // The caller records customer.state_changed with the purchase.
    await recordEvent(tx, {
      organizationId: row.organizationId,
      type: 'customer.updated',
      data: customerView(row),
      at: row.modifiedAt ?? row.createdAt,
    });
    return { row, created: false };
  }
  const row = await insertCustomer(tx, {
    organizationId: buyer.organizationId,
    email: buyer.email.toLowerCase(),
    externalId: buyer.externalId,
    name: buyer.name,
    billingAddress: buyer.billingAddress ?? undefined,
    taxId: purchase.taxId ? [...purchase.taxId] : undefined,
    metadata: {},
  });
  await withEvents(tx, row, 'created');
  return { row, created: true };
}

/**
 * The customer a seat given by email goes to: the organization's customer with that address, or a
 * new one (with its events) the seat's claim link will sign in.
 */
export async function holderCustomerFor(
  tx: Prisma.TransactionClient,
  organizationId: string,
  email: string,
): Promise<CustomerRow> {
  const address = email.toLowerCase();
  const existing = await findLiveCustomerOfOrganization(tx, organizationId, { email: address });
  if (existing) return existing;
  const row = await insertCustomer(tx, { organizationId, email: address, metadata: {} });
  await withEvents(tx, row, 'created');
  return row;
}

/** `customer.state_changed` for a change elsewhere (an order, a grant) that alters what they hold. */
export async function recordCustomerStateChanged(
  tx: Prisma.TransactionClient,
  row: CustomerRow,
): Promise<void> {
  await recordEvent(tx, {
    organizationId: row.organizationId,
    type: 'customer.state_changed',
    data: await customerState(tx, row),
  });
}
