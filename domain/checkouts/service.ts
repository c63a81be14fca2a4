import { assertMayStartSubscription } from './subscription-limit.js';
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import { accessibleOrganizationIds, assertCanManage, organizationsToList } from '../access/service.js';
import { customFieldValueFromText } from '../custom-fields/rules.js';
import type { CustomFieldType } from '../custom-fields/schemas.js';
import { addressSchema } from '../addresses/schemas.js';
import { recordEvent } from '../events/repository.js';
import { readMetadata } from '../metadata/rules.js';
import { METADATA_MAX_KEYS, type Metadata } from '../metadata/schemas.js';
import { AppError, InvalidFieldError, InvalidInputError } from '../platform/errors.js';
import { csvLine, pageToSkipTake, paginated, parseSorting } from '../platform/rules.js';
import { resolveProductsToSell } from '../products/service.js';
import type { TaxCalculator } from '../tax/calculator.js';
import { priceCheckout, type PricedCheckout } from './pricing.js';
import {
  findCheckout,
  findCheckoutBySecret,
  findCheckoutProgress,
  findEmbedOrigin,
  findStalledConfirmations,
  findUnfinishedCheckouts,
  insertCheckout,
  listCheckoutExportRows,
  listCheckoutRows,
  lockCheckout,
  updateCheckoutRow,
  type CheckoutRow,
} from './repository.js';
import {
  checkoutWorkflowId,
  savesCardWithoutCharge,
  withoutRefusedPrefills,
  type CheckoutPaymentSignal,
  type PricedPrefills,
} from './rules.js';
import {
  checkoutPublicConfirmedSchema,
  type Checkout,
  type CheckoutClientUpdate,
  type CheckoutConfirm,
  type CheckoutCreate,
  type CheckoutExportQuery,
  type CheckoutLinkPrefill,
  type CheckoutListQuery,
  type CheckoutPublic,
  type CheckoutPublicConfirmed,
  type CheckoutStatus,
  type CheckoutUpdate,
} from './schemas.js';
import {
  CHECKOUT_EXPORT_COLUMNS,
  checkoutExportRow,
  checkoutView,
  checkoutPublicView,
  checkoutUrl,
  readCustomFieldData,
} from './views.js';
import {
  findProductsByIds,
  findCurrentPrice,
  findLiveProductIds,
  findProductCustomFieldTypes,
} from '../products/repository.js';
import {
  findDiscountByCode,
  findDiscountOfOrganization,
  redeemDiscount,
  releaseDiscount,
  type DiscountWithProducts,
} from '../discounts/repository.js';
import { findLiveCustomerOfOrganization } from '../customers/repository.js';

/** What checkouts ask of their `checkout:<id>` workflows; temporal/checkouts.ts implements it. */
export type CheckoutWorkflows = {
  /** Starts the checkout's workflow unless it runs; a new checkout's expiry saves the first read. */
  start(checkoutId: string, created?: { expiresAt: Date }): Promise<void>;
  /** The buyer confirmed payment attempt `attempt`: wakes the workflow, starting it if it ended. */
  signalConfirmed(checkoutId: string, attempt: number): Promise<void>;
  /** The processor's word on one of the checkout's payments: wakes the workflow the same way. */
  signalPayment(checkoutId: string, payment: CheckoutPaymentSignal): Promise<void>;
  /** Starts the workflow of each of these checkouts that has none running; answers their workflow ids. */
  startMissing(checkoutIds: string[]): Promise<string[]>;
};

export type CheckoutsContext = {
  db: Db;
  publicUrl: string;
  tax: TaxCalculator;
  workflows: CheckoutWorkflows;
  /** How long a new checkout stays open. */
  checkoutTtlMs: number;
  /** Shown to the hosted page (e.g. Stripe's publishable key); string values only. */
  processorMetadata: Record<string, string>;
  now?: () => Date;
};

const nowOf = (ctx: { now?: () => Date }) => ctx.now?.() ?? new Date();

type DbClient = Db | Prisma.TransactionClient;

/** Row locks serialize a checkout's writes; under a burst they wait longer than Prisma's defaults. */
const LOCKING_TRANSACTION = { maxWait: 60_000, timeout: 60_000 } as const;

/** What rendering a checkout needs (activities have it without the API's tax and workflows). */
export type CheckoutViewContext = Pick<CheckoutsContext, 'db' | 'publicUrl' | 'processorMetadata'>;

/** Renders checkouts, loading the products each one offers in one query for all of them. */
async function renderCheckouts(ctx: CheckoutViewContext, rows: CheckoutRow[], client: DbClient = ctx.db) {
  const offered = await findProductsByIds(client, [...new Set(rows.flatMap((row) => row.productIds))]);
  return rows.map((row) =>
    checkoutView(
      row,
      offered.filter((product) => product.organizationId === row.organizationId),
      ctx,
    ),
  );
}

/** `client`: the transaction the row was read in, so rendering inside it needs no second connection. */
async function renderCheckout(ctx: CheckoutViewContext, row: CheckoutRow, client: DbClient = ctx.db) {
  const [checkout] = await renderCheckouts(ctx, [row], client);
  return checkout!;
}

async function renderPublicCheckout(ctx: CheckoutViewContext, row: CheckoutRow): Promise<CheckoutPublic> {
  const offered = await findProductsByIds(ctx.db, row.productIds);
  return checkoutPublicView(
    row,
    offered.filter((product) => product.organizationId === row.organizationId),
    ctx,
  );
}

/** The columns a pricing decides, for inserts and updates alike. */
function pricingColumns(priced: PricedCheckout) {
  return {
    productId: priced.productId,
    productPriceId: priced.productPriceId,
    currency: priced.currency,
    amount: priced.amount,
    discountId: priced.discountId,
    discountAmount: priced.discountAmount,
    netAmount: priced.netAmount,
    taxAmount: priced.taxAmount,
    taxReference: priced.taxReference,
    totalAmount: priced.totalAmount,
    customFieldData: priced.customFieldData,
  };
}

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

async function customerForCheckout(db: Db, organizationId: string, customerId: string | null | undefined) {
  if (!customerId) return null;
  const customer = await findLiveCustomerOfOrganization(db, organizationId, { id: customerId });
  if (!customer) throw new InvalidFieldError(['body', 'customer_id'], 'Customer not found.');
  return customer;
}

function newClientSecret(): string {
  return `tollgate_c_${randomBytes(24).toString('base64url')}`;
}

type OpeningFields = Omit<
  Prisma.CheckoutUncheckedCreateInput,
  keyof ReturnType<typeof pricingColumns> | 'status' | 'clientSecret' | 'expiresAt' | 'createdAt'
>;

/** Writes a new open checkout with its `checkout.created`, then starts its workflow. */
async function openCheckout(
  ctx: CheckoutsContext,
  now: Date,
  priced: PricedCheckout,
  fields: OpeningFields,
): Promise<CheckoutRow> {
  const row = await ctx.db.$transaction(async (tx) => {
    const created = await insertCheckout(tx, {
      ...fields,
      ...pricingColumns(priced),
      status: 'open',
      clientSecret: newClientSecret(),
      expiresAt: new Date(now.getTime() + ctx.checkoutTtlMs),
      createdAt: now,
    });
    await recordEvent(tx, {
      organizationId: created.organizationId,
      type: 'checkout.created',
      data: await renderCheckout(ctx, created, tx),
      at: now,
    });
    return created;
  });
  await ctx.workflows.start(row.id, { expiresAt: row.expiresAt });
  return row;
}

export async function createCheckout(
  ctx: CheckoutsContext,
  caller: Caller,
  input: CheckoutCreate,
): Promise<Checkout> {
  const { db } = ctx;
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
  const customer = await customerForCheckout(db, organizationId, input.customer_id);
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
    embedOrigin: input.embed_origin ?? null,
    productIds,
    allowDiscountCodes: input.allow_discount_codes,
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

/**
 * A fresh checkout from a checkout link's public URL (no caller: the link's secret is the
 * capability). It takes the link's products, discount, options, success URL and metadata, and
 * what the URL prefills (`CheckoutLinkPrefill`): a prefill that does not fit this checkout is left
 * out instead of failing the visit, because a shared link must never break.
 */
export async function createCheckoutFromLink(
  ctx: CheckoutsContext,
  link: {
    id: string;
    organizationId: string;
    productIds: string[];
    discountId: string | null;
    allowDiscountCodes: boolean;
    requireBillingAddress: boolean;
    successUrl: string | null;
    paymentProcessor: string;
    metadata: Prisma.JsonValue;
  },
  prefill: CheckoutLinkPrefill,
): Promise<{ url: string }> {
  const { db } = ctx;
  const live = await findLiveProductIds(db, link.organizationId, link.productIds);
  const productIds = link.productIds.filter((id) => live.includes(id));
  if (productIds.length === 0)
    throw new AppError('ResourceNotFound', 'This link sells nothing at the moment.');
  const productId = productIds[0]!;
  const now = nowOf(ctx);
  // As on the client update: a code only where the checkout takes codes.
  const codeDiscount =
    prefill.discountCode && link.allowDiscountCodes
      ? await findDiscountByCode(db, link.organizationId, prefill.discountCode)
      : null;
  let prefills: PricedPrefills | null = {
    amount: prefill.amount,
    discountId: codeDiscount?.id ?? null,
    customFieldData: await customFieldPrefills(db, link.organizationId, productId, prefill.customFieldData),
  };
  let priced: PricedCheckout | undefined;
  while (!priced) {
    const { amount, discountId, customFieldData } = prefills;
    try {
      priced = await priceCheckout(
        db,
        ctx.tax,
        {
          organizationId: link.organizationId,
          checkoutId: null,
          productIds,
          productId,
          productPriceId: null,
          requestedAmount: amount,
          discountId: discountId ?? link.discountId,
          customFieldData,
          billingAddress: null,
          taxId: null,
          requireBillingAddress: link.requireBillingAddress,
          isBusinessCustomer: false,
          discountHeld: false,
        },
        // A link's own discount that no longer applies is dropped quietly, not shown as an error;
        // a prefilled code that does not apply is reported, to be left out below.
        { now, strict: false, failOnInapplicableDiscount: discountId ? 'discount_code' : null },
      );
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      prefills = withoutRefusedPrefills(prefills, error.issues);
      if (!prefills) throw error;
    }
  }
  const row = await openCheckout(ctx, now, priced, {
    organizationId: link.organizationId,
    successUrl: link.successUrl,
    embedOrigin: prefill.embedOrigin,
    checkoutLinkId: link.id,
    productIds,
    allowDiscountCodes: link.allowDiscountCodes,
    requireBillingAddress: link.requireBillingAddress,
    customerEmail: prefill.customerEmail,
    customerName: prefill.customerName,
    metadata: linkCheckoutMetadata(readMetadata(link.metadata), prefill.metadata),
    paymentProcessor: link.paymentProcessor,
  });
  return { url: checkoutUrl(ctx.publicUrl, row.clientSecret) };
}

/** Prefilled custom field text as the product's fields read it (a checkbox's yes/no words). */
async function customFieldPrefills(
  db: Db,
  organizationId: string,
  productId: string,
  texts: Record<string, string>,
): Promise<Record<string, string | boolean>> {
  if (Object.keys(texts).length === 0) return {};
  const fields = await findProductCustomFieldTypes(db, organizationId, productId);
  const types = new Map(fields.map(({ slug, type }) => [slug, type as CustomFieldType]));
  return Object.fromEntries(
    Object.entries(texts).map(([slug, text]) => {
      const type = types.get(slug);
      return [slug, type ? customFieldValueFromText(type, text) : text];
    }),
  );
}

/**
 * The link's metadata, then the URL's attribution keys the link does not set itself (Polar: the
 * seller's values win), within the metadata key limit.
 */
function linkCheckoutMetadata(linkMetadata: Metadata, fromUrl: CheckoutLinkPrefill['metadata']): Metadata {
  const metadata = { ...linkMetadata };
  for (const [key, value] of Object.entries(fromUrl)) {
    if (key in metadata || Object.keys(metadata).length >= METADATA_MAX_KEYS) continue;
    metadata[key] = value;
  }
  return metadata;
}

function addressOf(value: Prisma.JsonValue | null | undefined) {
  return value === null || value === undefined ? null : addressSchema.parse(value);
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

/** Open (or failed and retryable) and not past its expiry; anything else refuses changes. */
function assertChangeable(row: CheckoutRow, now: Date): void {
  if (
    row.status === 'expired' ||
    ((row.status === 'open' || row.status === 'failed') && row.expiresAt <= now)
  ) {
    throw new AppError('ExpiredCheckoutError', 'This checkout session has expired.');
  }
  if (row.status !== 'open' && row.status !== 'failed') {
    throw new AppError('NotOpenCheckout', `This checkout is ${row.status}.`);
  }
}

type Changes = CheckoutClientUpdate & Partial<CheckoutUpdate>;

/** Applies buyer/seller changes to a locked row: re-prices and writes, with `checkout.updated`. */
async function applyChanges(
  ctx: CheckoutsContext,
  tx: Prisma.TransactionClient,
  row: CheckoutRow,
  changes: Changes,
  options: { confirming: boolean; extra?: Prisma.CheckoutUncheckedUpdateInput },
): Promise<CheckoutRow> {
  const now = nowOf(ctx);
  let discountId = changes.discount_id !== undefined ? changes.discount_id : row.discountId;
  let failOnInapplicableDiscount: 'discount_code' | 'discount_id' | null = changes.discount_id
    ? 'discount_id'
    : null;
  if (changes.discount_code !== undefined) {
    if (!changes.discount_code) {
      discountId = null;
    } else {
      if (!row.allowDiscountCodes) {
        throw new InvalidFieldError(
          ['body', 'discount_code'],
          'Discount codes are not accepted on this checkout.',
        );
      }
      const discount: DiscountWithProducts | null = await findDiscountByCode(
        tx,
        row.organizationId,
        changes.discount_code,
      );
      if (!discount) throw new InvalidFieldError(['body', 'discount_code'], 'Discount code not found.');
      discountId = discount.id;
      failOnInapplicableDiscount = 'discount_code';
    }
  }
  if (
    changes.discount_id &&
    !(await findDiscountOfOrganization(tx, row.organizationId, changes.discount_id))
  ) {
    throw new InvalidFieldError(['body', 'discount_id'], 'Discount not found.');
  }
  const productChanged = changes.product_id && changes.product_id !== row.productId;
  if (changes.product_id && !row.productIds.includes(changes.product_id)) {
    throw new InvalidFieldError(['body', 'product_id'], 'This product is not offered in this checkout.');
  }
  const billingAddress =
    changes.customer_billing_address !== undefined
      ? changes.customer_billing_address
      : addressOf(row.customerBillingAddress);
  const taxId = changes.customer_tax_id !== undefined ? changes.customer_tax_id : row.customerTaxId;
  const requireBillingAddress = changes.require_billing_address ?? row.requireBillingAddress;
  const priced = await priceCheckout(
    tx,
    ctx.tax,
    {
      organizationId: row.organizationId,
      checkoutId: row.id,
      productIds: row.productIds,
      productId: changes.product_id ?? row.productId,
      productPriceId: changes.product_price_id ?? (productChanged ? null : row.productPriceId),
      requestedAmount: changes.amount !== undefined ? changes.amount : productChanged ? null : row.amount,
      discountId,
      customFieldData: { ...readCustomFieldData(row.customFieldData), ...(changes.custom_field_data ?? {}) },
      billingAddress,
      taxId,
      requireBillingAddress,
      isBusinessCustomer: changes.is_business_customer ?? row.isBusinessCustomer,
      discountHeld: row.discountRedeemed && discountId === row.discountId,
    },
    { now, strict: options.confirming, failOnInapplicableDiscount },
  );
  const data: Prisma.CheckoutUncheckedUpdateInput = {
    ...pricingColumns(priced),
    ...(changes.is_business_customer != null ? { isBusinessCustomer: changes.is_business_customer } : {}),
    ...(changes.customer_name !== undefined ? { customerName: changes.customer_name } : {}),
    ...(changes.customer_email !== undefined ? { customerEmail: changes.customer_email } : {}),
    ...(changes.customer_billing_name !== undefined
      ? { customerBillingName: changes.customer_billing_name }
      : {}),
    ...(changes.customer_billing_address !== undefined
      ? { customerBillingAddress: changes.customer_billing_address ?? DbNull }
      : {}),
    ...(changes.customer_tax_id !== undefined ? { customerTaxId: changes.customer_tax_id } : {}),
    ...(changes.metadata !== undefined ? { metadata: changes.metadata } : {}),
    ...(changes.allow_discount_codes != null ? { allowDiscountCodes: changes.allow_discount_codes } : {}),
    ...(changes.require_billing_address != null
      ? { requireBillingAddress: changes.require_billing_address }
      : {}),
    ...(changes.customer_ip_address !== undefined ? { customerIpAddress: changes.customer_ip_address } : {}),
    ...(changes.customer_metadata != null ? { customerMetadata: changes.customer_metadata } : {}),
    ...(changes.success_url !== undefined ? { successUrl: changes.success_url } : {}),
    ...(changes.embed_origin !== undefined ? { embedOrigin: changes.embed_origin } : {}),
    ...options.extra,
  };
  if (row.discountRedeemed && priced.discountId !== row.discountId && row.discountId) {
    // The buyer swapped a redeemed code for another one (only possible after a failed payment).
    await releaseDiscount(tx, row.discountId);
    data.discountRedeemed = false;
  }
  const updated = await updateCheckoutRow(tx, row.id, data);
  return updated;
}

const DbNull = 'DbNull' as unknown as Prisma.NullableJsonNullValueInput;

async function recordUpdated(ctx: CheckoutViewContext, tx: Prisma.TransactionClient, row: CheckoutRow) {
  await recordEvent(tx, {
    organizationId: row.organizationId,
    type: 'checkout.updated',
    data: await renderCheckout(ctx, row, tx),
    at: row.modifiedAt ?? new Date(),
  });
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
    await recordUpdated(ctx, tx, updated);
    return updated;
  }, LOCKING_TRANSACTION);
  return renderCheckout(ctx, row);
}

async function findBySecret(db: Db, clientSecret: string): Promise<CheckoutRow> {
  const row = await findCheckoutBySecret(db, clientSecret);
  if (!row) throw new AppError('ResourceNotFound', 'Checkout not found');
  return row;
}

export async function getClientCheckout(
  ctx: CheckoutsContext,
  clientSecret: string,
): Promise<CheckoutPublic> {
  const row = await findBySecret(ctx.db, clientSecret);
  if (row.status === 'expired' || (row.status === 'open' && row.expiresAt <= nowOf(ctx))) {
    throw new AppError('ExpiredCheckoutError', 'This checkout session has expired.');
  }
  return renderPublicCheckout(ctx, row);
}

/** The checkout behind a client secret, for CORS decisions (its embed origin). */
export async function embedOriginOf(db: Db, clientSecret: string): Promise<string | null> {
  return findEmbedOrigin(db, clientSecret);
}

export async function updateClientCheckout(
  ctx: CheckoutsContext,
  clientSecret: string,
  input: CheckoutClientUpdate,
): Promise<CheckoutPublic> {
  const { id } = await findBySecret(ctx.db, clientSecret);
  const row = await ctx.db.$transaction(async (tx) => {
    await lockCheckout(tx, id);
    const locked = (await findCheckout(tx, id))!;
    assertChangeable(locked, nowOf(ctx));
    const updated = await applyChanges(ctx, tx, locked, input, { confirming: false });
    await recordUpdated(ctx, tx, updated);
    return updated;
  }, LOCKING_TRANSACTION);
  return renderPublicCheckout(ctx, row);
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * The buyer commits: the last changes are applied and checked strictly, the discount redemption is
 * taken (atomically, see `redeemDiscount`), the checkout becomes `confirmed` and its workflow is
 * told to charge. Nothing is charged here; the workflow does it, so a crash cannot double it.
 */
export async function confirmClientCheckout(
  ctx: CheckoutsContext,
  clientSecret: string,
  input: CheckoutConfirm,
): Promise<CheckoutPublicConfirmed> {
  const { id } = await findBySecret(ctx.db, clientSecret);
  const sessionToken = `tollgate_cst_${randomBytes(24).toString('base64url')}`;
  const { confirmation_token_id: confirmationTokenId, ...changes } = input;
  const row = await ctx.db.$transaction(async (tx) => {
    await lockCheckout(tx, id);
    const locked = (await findCheckout(tx, id))!;
    assertChangeable(locked, nowOf(ctx));
    let updated = await applyChanges(ctx, tx, locked, changes, { confirming: true });
    const email = updated.customerEmail;
    if (!email) throw new InvalidFieldError(['body', 'customer_email'], 'An email address is required.');
    if (updated.product.recurringInterval) {
      await assertMayStartSubscription(tx, {
        organizationId: updated.organizationId,
        allowMultipleSubscriptions: updated.organization.allowMultipleSubscriptions,
        checkoutId: updated.id,
        customerId: updated.customerId,
        externalId: updated.customerExternalId,
        email,
      });
    }
    const paymentRequired = updated.totalAmount > 0 || savesCardWithoutCharge(updated);
    if (paymentRequired && !confirmationTokenId) {
      throw new InvalidFieldError(['body', 'confirmation_token_id'], 'A payment method is required.');
    }
    const redeem = updated.discountId !== null && updated.discountAmount > 0 && !updated.discountRedeemed;
    const discountId = updated.discountId;
    updated = await updateCheckoutRow(tx, id, {
      status: 'confirmed',
      discountRedeemed: redeem || updated.discountRedeemed,
      confirmationTokenId: paymentRequired ? confirmationTokenId : null,
      paymentAttempt: { increment: 1 },
      // A new attempt: a late event about the previous payment must not be taken for this one.
      paymentId: null,
      paymentClientSecret: null,
      failureReason: null,
      customerSessionTokenHash: sha256(sessionToken),
    });
    await recordUpdated(ctx, tx, updated);
    // Last, so the discount row is locked only for the commit that follows.
    if (redeem && !(await redeemDiscount(tx, discountId!))) {
      throw new InvalidFieldError(
        [
          'body',
          locked.discountId === discountId && !changes.discount_code ? 'discount_id' : 'discount_code',
        ],
        'This discount has been fully redeemed.',
      );
    }
    return updated;
  }, LOCKING_TRANSACTION);
  await ctx.workflows.signalConfirmed(row.id, row.paymentAttempt);
  return checkoutPublicConfirmedSchema.parse({
    ...(await renderPublicCheckout(ctx, row)),
    customer_session_token: sessionToken,
  });
}

export type CheckoutWorkflowState = {
  status: CheckoutStatus;
  expiresAtMs: number;
  paymentAttempt: number;
  paymentId: string | null;
  /** The payment waits for the buyer to authenticate (3-D Secure) on the hosted page. */
  awaitingAuthentication: boolean;
};

export async function checkoutWorkflowState(db: Db, id: string): Promise<CheckoutWorkflowState | null> {
  const row = await findCheckoutProgress(db, id);
  if (!row) return null;
  return {
    status: row.status as CheckoutStatus,
    expiresAtMs: row.expiresAt.getTime(),
    paymentAttempt: row.paymentAttempt,
    paymentId: row.paymentId,
    awaitingAuthentication: row.status === 'confirmed' && row.paymentClientSecret !== null,
  };
}

/** Grace for a just-created checkout whose workflow start is still on its way. */
const RECONCILE_MIN_AGE_MS = 60_000;
/**
 * Grace for a confirmation's signal, which the API sends right after the commit: past it, the API
 * died in between, and the buyer waits for their charge only until the reconciler's next run.
 */
const STALLED_CONFIRMATION_AGE_MS = 15_000;

/**
 * The healing path for a crash or a Temporal outage between a commit and what should follow it:
 * starts the workflow of every unfinished checkout that has none, and wakes the workflow of every
 * confirmation it was never told about (a wake-up is harmless: the workflow re-reads the row and
 * charges an attempt at most once).
 */
export async function reconcileCheckoutWorkflows(
  db: Db,
  workflows: CheckoutWorkflows,
  now = new Date(),
): Promise<{ started: string[]; woken: string[] }> {
  const before = new Date(now.getTime() - RECONCILE_MIN_AGE_MS);
  const unfinished = await findUnfinishedCheckouts(db, before, 500);
  const started = await workflows.startMissing(unfinished.map(({ id }) => id));
  const stalled = await findStalledConfirmations(
    db,
    new Date(now.getTime() - STALLED_CONFIRMATION_AGE_MS),
    500,
  );
  for (const { id, paymentAttempt } of stalled) await workflows.signalConfirmed(id, paymentAttempt);
  return { started, woken: stalled.map(({ id }) => checkoutWorkflowId(id)) };
}

export { recordUpdated as recordCheckoutUpdated };
