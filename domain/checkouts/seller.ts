// The seller's checkouts (an organization's token or dashboard user): create, read, list, export as
// CSV, and change an open one.
import { trialColumns, trialInputIssues } from '../products/trials.js';
import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import { accessibleOrganizationIds, assertCanManage, organizationsToList } from '../access/service.js';
import { findLiveCustomerOfOrganization } from '../customers/repository.js';
import { findDiscountOfOrganization } from '../discounts/repository.js';
import { AppError, InvalidFieldError, InvalidInputError } from '../platform/errors.js';
import { csvLine, pageToSkipTake, paginated, parseSorting } from '../platform/rules.js';
import { findCurrentPrice } from '../products/repository.js';
import { resolveProductsToSell } from '../products/service.js';
import { applyChanges, assertChangeable } from './changes.js';
import { priceCheckout } from './pricing.js';
import {
  findCheckout,
  listCheckoutExportRows,
  listCheckoutRows,
  lockCheckout,
  type CheckoutRow,
} from './repository.js';
import type {
  Checkout,
  CheckoutCreate,
  CheckoutExportQuery,
  CheckoutListQuery,
  CheckoutUpdate,
} from './schemas.js';
import {
  addressOf,
  LOCKING_TRANSACTION,
  nowOf,
  openCheckout,
  recordCheckoutUpdated,
  renderCheckout,
  renderCheckouts,
  type CheckoutsContext,
} from './service.js';
import { CHECKOUT_EXPORT_COLUMNS, checkoutExportRow } from './views.js';

/**
 * The products a checkout sells: current products of one organization the caller manages, one-time
 * only until subscriptions exist.
 */
async function resolveProducts(db: Db, caller: Caller, input: CheckoutCreate) {
  const visible = await accessibleOrganizationIds(db, caller);
  let productIds: string[];
  let loc: (string | number)[];
  let priceId: string | null = null;
  if (input.product_price_id) {
    const price = await findCurrentPrice(db, input.product_price_id, visible);
    if (!price) throw new InvalidFieldError(['body', 'product_price_id'], 'Price not found.');
    productIds = [price.productId];
    loc = ['body', 'product_price_id'];
    priceId = price.id;
  } else if (input.product_id) {
    productIds = [input.product_id];
    loc = ['body', 'product_id'];
  } else {
    productIds = input.products ?? [];
    loc = ['body', 'products'];
  }
  const { organizationId } = await resolveProductsToSell(db, caller, productIds, loc);
  return { organizationId, productIds, priceId };
}

async function customerForCheckout(
  db: Db,
  organizationId: string,
  input: Pick<CheckoutCreate, 'customer_id' | 'customer_external_id'>,
) {
  if (input.customer_id) {
    const customer = await findLiveCustomerOfOrganization(db, organizationId, { id: input.customer_id });
    if (!customer) throw new InvalidFieldError(['body', 'customer_id'], 'Customer not found.');
    return customer;
  }
  // The seller's own id of a customer who exists already names them, as Polar has it: the form
  // opens with their email and name (a seller's app such as Polar's Better Auth plugin sends only
  // this id). An id nobody has yet is kept for the customer the payment creates.
  if (!input.customer_external_id) return null;
  return findLiveCustomerOfOrganization(db, organizationId, { externalId: input.customer_external_id });
}

export async function createCheckout(
  ctx: CheckoutsContext,
  caller: Caller,
  input: CheckoutCreate,
): Promise<Checkout> {
  const { db } = ctx;
  const trialIssues = trialInputIssues(input);
  if (trialIssues.length > 0) throw new InvalidInputError(trialIssues);
  if (input.subscription_id) {
    throw new InvalidFieldError(
      ['body', 'subscription_id'],
      'Upgrading a subscription through a checkout is not supported yet.',
    );
  }
  const { organizationId, productIds, priceId } = await resolveProducts(db, caller, input);
  if (input.discount_id && !(await findDiscountOfOrganization(db, organizationId, input.discount_id))) {
    throw new InvalidFieldError(['body', 'discount_id'], 'Discount not found.');
  }
  const customer = await customerForCheckout(db, organizationId, input);
  const billingAddress = input.customer_billing_address ?? addressOf(customer?.billingAddress);
  const now = nowOf(ctx);
  const priced = await priceCheckout(
    db,
    ctx.tax,
    {
      organizationId,
      checkoutId: null,
      productIds,
      productId: productIds[0]!,
      productPriceId: priceId,
      requestedAmount: input.amount ?? null,
      seats: input.seats ?? null,
      seatBounds: { minimum: input.min_seats ?? null, maximum: input.max_seats ?? null, asked: true },
      discountId: input.discount_id ?? null,
      customFieldData: input.custom_field_data ?? {},
      billingAddress,
      taxId: input.customer_tax_id ?? null,
      requireBillingAddress: input.require_billing_address,
      isBusinessCustomer: input.is_business_customer,
      discountHeld: false,
    },
    { now, strict: false, failOnInapplicableDiscount: input.discount_id ? 'discount_id' : null },
  );
  const row = await openCheckout(ctx, now, priced, {
    organizationId,
    successUrl: input.success_url ?? null,
    returnUrl: input.return_url ?? null,
    embedOrigin: input.embed_origin ?? null,
    productIds,
    minSeats: input.min_seats ?? null,
    maxSeats: input.max_seats ?? null,
    allowDiscountCodes: input.allow_discount_codes,
    allowTrial: input.allow_trial ?? true,
    ...trialColumns(input),
    requireBillingAddress: input.require_billing_address,
    isBusinessCustomer: input.is_business_customer,
    customerId: customer?.id ?? null,
    customerName: input.customer_name ?? customer?.name ?? null,
    customerEmail: input.customer_email ?? customer?.email ?? null,
    customerIpAddress: input.customer_ip_address ?? null,
    customerBillingName: input.customer_billing_name ?? null,
    customerBillingAddress: billingAddress ?? undefined,
    customerTaxId: input.customer_tax_id ?? null,
    customerExternalId: input.customer_external_id ?? customer?.externalId ?? null,
    customerMetadata: input.customer_metadata ?? {},
    metadata: input.metadata ?? {},
    paymentProcessor: input.payment_processor,
  });
  return renderCheckout(ctx, row);
}

export async function findCheckoutFor(db: Db, caller: Caller, id: string): Promise<CheckoutRow> {
  const row = await findCheckout(db, id);
  if (!row || !(await accessibleOrganizationIds(db, caller)).includes(row.organizationId)) {
    throw new AppError('ResourceNotFound', 'Checkout not found');
  }
  return row;
}

export async function getCheckout(ctx: CheckoutsContext, caller: Caller, id: string): Promise<Checkout> {
  return renderCheckout(ctx, await findCheckoutFor(ctx.db, caller, id));
}

const SORT_COLUMNS = { created_at: 'createdAt', expires_at: 'expiresAt', status: 'status' } as const;

/** The checkouts of `organizationIds` the list's filters keep. */
function checkoutWhere(organizationIds: string[], query: CheckoutExportQuery): Prisma.CheckoutWhereInput {
  const where: Prisma.CheckoutWhereInput = { organizationId: { in: organizationIds } };
  if (query.product_id) where.productId = { in: query.product_id };
  if (query.customer_id) where.customerId = { in: query.customer_id };
  if (query.checkout_link_id) where.checkoutLinkId = { in: query.checkout_link_id };
  if (query.status) where.status = { in: query.status };
  if (query.query) {
    where.OR = [
      { customerEmail: { contains: query.query, mode: 'insensitive' } },
      { customerName: { contains: query.query, mode: 'insensitive' } },
    ];
  }
  return where;
}

const checkoutSorting = (sorting: CheckoutExportQuery['sorting']) => [
  ...parseSorting<keyof typeof SORT_COLUMNS>(sorting ?? ['-created_at']).map(({ field, direction }) => ({
    [SORT_COLUMNS[field]]: direction,
  })),
  // Equal keys still page in one order.
  { id: 'asc' as const },
];

export async function listCheckouts(ctx: CheckoutsContext, caller: Caller, query: CheckoutListQuery) {
  const organizationIds = await organizationsToList(ctx.db, caller, query.organization_id);
  const [rows, total] = await listCheckoutRows(
    ctx.db,
    checkoutWhere(organizationIds, query),
    checkoutSorting(query.sorting),
    pageToSkipTake(query),
  );
  return paginated(await renderCheckouts(ctx, rows), total, query);
}

const EXPORT_PAGE = 500;

/** The list's checkouts as CSV lines (header first), read a page at a time. */
export async function* exportCheckouts(
  db: Db,
  caller: Caller,
  query: CheckoutExportQuery,
): AsyncGenerator<string> {
  const organizationIds = await organizationsToList(db, caller, query.organization_id);
  const where = checkoutWhere(organizationIds, query);
  const orderBy = checkoutSorting(query.sorting);
  yield csvLine(CHECKOUT_EXPORT_COLUMNS);
  for (let skip = 0; ; skip += EXPORT_PAGE) {
    const rows = await listCheckoutExportRows(db, where, orderBy, { skip, take: EXPORT_PAGE });
    for (const row of rows) yield csvLine(checkoutExportRow(row));
    if (rows.length < EXPORT_PAGE) return;
  }
}

export async function updateCheckout(
  ctx: CheckoutsContext,
  caller: Caller,
  id: string,
  input: CheckoutUpdate,
): Promise<Checkout> {
  const current = await findCheckoutFor(ctx.db, caller, id);
  await assertCanManage(ctx.db, caller, current.organizationId, ORGANIZATION_MANAGERS);
  const row = await ctx.db.$transaction(async (tx) => {
    await lockCheckout(tx, id);
    const locked = (await findCheckout(tx, id))!;
    assertChangeable(locked, nowOf(ctx));
    const updated = await applyChanges(ctx, tx, locked, input, { confirming: false });
    await recordCheckoutUpdated(ctx, tx, updated);
    return updated;
  }, LOCKING_TRANSACTION);
  return renderCheckout(ctx, row);
}
