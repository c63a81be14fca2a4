import type { Db } from '../../infra/db.js';
import { Prisma } from '../../generated/prisma/client.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import { assertCanManage, organizationForWrite, organizationsToList } from '../access/service.js';
import { recordEvent } from '../webhook-outbox/repository.js';
import { metadataWhere } from '../metadata/rules.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import { csvLine, pageToSkipTake, paginated, parseSorting } from '../platform/rules.js';
import {
  customerOrderTotals,
  findLiveCustomer,
  findLiveCustomerByExternalId,
  insertCustomer,
  listLiveCustomerPage,
  listLiveCustomers,
  updateCustomerRow,
  violatedCustomerConstraint,
  type CustomerRow,
  findLiveCustomerOfOrganization,
  customerHoldingsIn,
  findLiveCustomerWithHoldings,
  markBenefitGrantsStale,
  markCustomerMetersStale,
} from './repository.js';
import { purchaseCustomerChanges, purchaseTaxId, validateTaxId, type PurchaseDetails } from './rules.js';
import {
  customerSummarySchema,
  type Customer,
  type CustomerExportQuery,
  type CustomerSummary,
  type CustomerCreate,
  type CustomerListQuery,
  type CustomerState,
  type CustomerUpdate,
} from './schemas.js';
import { customerStateView } from './state-view.js';
import { CUSTOMER_EXPORT_COLUMNS, customerExportRow, customerView } from './views.js';

/** The customer's state as the transaction sees it (the state recorded with a change). */
export async function customerState(tx: Prisma.TransactionClient, row: CustomerRow): Promise<CustomerState> {
  return customerStateView(row, await customerHoldingsIn(tx, row.id));
}

function checkedTaxId(taxId: CustomerCreate['tax_id']): Prisma.InputJsonValue | null | undefined {
  if (!taxId) return taxId;
  const [value, format] = taxId;
  const normalized = validateTaxId(value, format);
  if (!normalized) throw new InvalidFieldError(['body', 'tax_id'], `Not a valid ${format} number.`);
  return [normalized, format];
}

function conflictError(error: unknown): never {
  const constraint = violatedCustomerConstraint(error);
  if (constraint === 'email') {
    throw new InvalidFieldError(['body', 'email'], 'A customer with this email address already exists.');
  }
  if (constraint === 'external_id') {
    throw new InvalidFieldError(['body', 'external_id'], 'A customer with this external ID already exists.');
  }
  throw error;
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
  const taxId = checkedTaxId(input.tax_id);
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

const SORT_COLUMNS = { created_at: 'createdAt', email: 'email', name: 'name' } as const;

/** The customers of `organizationIds` the list's filters keep. */
function customerWhere(organizationIds: string[], query: CustomerExportQuery): Prisma.CustomerWhereInput {
  const where: Prisma.CustomerWhereInput = { organizationId: { in: organizationIds } };
  if (query.email) where.email = query.email.toLowerCase();
  if (query.query) {
    where.OR = [
      { email: { contains: query.query, mode: 'insensitive' } },
      { name: { contains: query.query, mode: 'insensitive' } },
      { externalId: { contains: query.query, mode: 'insensitive' } },
    ];
  }
  if (query.metadata) where.AND = metadataWhere(query.metadata);
  return where;
}

const customerSorting = (sorting: CustomerExportQuery['sorting']) => [
  ...parseSorting<keyof typeof SORT_COLUMNS>(sorting ?? ['-created_at']).map(({ field, direction }) => ({
    [SORT_COLUMNS[field]]: direction,
  })),
  // Equal keys still page in one order.
  { id: 'asc' as const },
];

export async function listCustomers(db: Db, caller: Caller, query: CustomerListQuery) {
  const organizationIds = await organizationsToList(db, caller, query.organization_id);
  const [rows, total] = await listLiveCustomers(
    db,
    customerWhere(organizationIds, query),
    customerSorting(query.sorting),
    pageToSkipTake(query),
  );
  return paginated(rows.map(customerView), total, query);
}

const EXPORT_PAGE = 500;

/** The list's customers as CSV lines (header first), read a page at a time. */
export async function* exportCustomers(
  db: Db,
  caller: Caller,
  query: CustomerExportQuery,
): AsyncGenerator<string> {
  const organizationIds = await organizationsToList(db, caller, query.organization_id);
  const where = customerWhere(organizationIds, query);
  const orderBy = customerSorting(query.sorting);
  yield csvLine(CUSTOMER_EXPORT_COLUMNS);
  for (let skip = 0; ; skip += EXPORT_PAGE) {
    const rows = await listLiveCustomerPage(db, where, orderBy, { skip, take: EXPORT_PAGE });
    for (const row of rows) yield csvLine(customerExportRow(row));
    if (rows.length < EXPORT_PAGE) return;
  }
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

/** A live customer the caller may see, by id or by external id; others are not found. */
export async function findCustomerFor(
  db: Db,
  caller: Caller,
  ref: { id: string } | { externalId: string },
): Promise<CustomerRow> {
  const organizationIds = await organizationsToList(db, caller, undefined);
  const row =
    'id' in ref
      ? await findLiveCustomer(db, ref.id)
      : await findLiveCustomerByExternalId(db, organizationIds, ref.externalId);
  if (!row || !organizationIds.includes(row.organizationId))
    throw new AppError('ResourceNotFound', 'Customer not found');
  return row;
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
  input: CustomerUpdate,
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
  if (input.billing_address !== undefined) data.billingAddress = input.billing_address ?? Prisma.DbNull;
  if (input.tax_id !== undefined) data.taxId = checkedTaxId(input.tax_id) ?? Prisma.DbNull;
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

export type PurchaseCustomer = {
  organizationId: string;
  /** The customer the seller named on the checkout, if any. */
  customerId: string | null;
  externalId: string | null;
  email: string;
  name: string | null;
  billingAddress: Prisma.InputJsonValue | null;
  /** The tax number the buyer typed, if any (a checkout's has no format). */
  taxId: string | null;
};

/** The existing customer a purchase goes to: by id, then external id, then email. */
export async function findPurchasingCustomer(
  db: Db | Prisma.TransactionClient,
  buyer: Pick<PurchaseCustomer, 'organizationId' | 'customerId' | 'externalId' | 'email'>,
): Promise<CustomerRow | null> {
  const find = (by: Parameters<typeof findLiveCustomerOfOrganization>[2]) =>
    findLiveCustomerOfOrganization(db, buyer.organizationId, by);
  return (
    (buyer.customerId ? await find({ id: buyer.customerId }) : null) ??
    (buyer.externalId ? await find({ externalId: buyer.externalId }) : null) ??
    (await find({ email: buyer.email.toLowerCase() }))
  );
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
