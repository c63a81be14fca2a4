import { randomBytes } from 'node:crypto';
import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import { accessibleOrganizationIds, assertCanManage, organizationsToList } from '../access/service.js';
import { AppError, InvalidFieldError, InvalidInputError } from '../platform/errors.js';
import { pageToSkipTake, paginated, parseSorting } from '../platform/rules.js';
import { findPrice, findProduct } from '../products/repository.js';
import { priceBilledInAdvance, priceType } from '../prices/registry.js';
import { trialColumns, trialInputIssues } from '../products/trials.js';
import { resolveProductsToSell } from '../products/service.js';
import {
  checkoutLinkTotals,
  findLiveCheckoutLink,
  insertCheckoutLink,
  listLiveCheckoutLinks,
  replaceLinkProducts,
  updateCheckoutLinkRow,
  type CheckoutLinkRow,
} from './repository.js';
import { checkoutLinkStatsSchema } from './schemas.js';
import type {
  CheckoutLink,
  CheckoutLinkCreate,
  CheckoutLinkStats,
  CheckoutLinkListQuery,
  CheckoutLinkUpdate,
} from './schemas.js';
import { checkoutLinkView } from './views.js';
import { findDiscountOfOrganization } from '../discounts/repository.js';

export type CheckoutLinksContext = { db: Db; publicUrl: string };

async function checkDiscount(db: Db, organizationId: string, discountId: string | null | undefined) {
  if (!discountId) return;
  const discount = await findDiscountOfOrganization(db, organizationId, discountId);
  if (!discount) throw new InvalidFieldError(['body', 'discount_id'], 'Discount not found.');
}

export async function createCheckoutLink(
  ctx: CheckoutLinksContext,
  caller: Caller,
  input: CheckoutLinkCreate,
): Promise<CheckoutLink> {
  const { db } = ctx;
  const trialIssues = trialInputIssues(input);
  if (trialIssues.length > 0) throw new InvalidInputError(trialIssues);
  let wanted: { ids: string[]; loc: (string | number)[] };
  if (input.product_price_id) {
    const price = await findPrice(db, input.product_price_id, await accessibleOrganizationIds(db, caller));
    if (!price || price.isArchived) {
      throw new InvalidFieldError(['body', 'product_price_id'], 'Price not found.');
    }
    wanted = { ids: [price.productId], loc: ['body', 'product_price_id'] };
  } else if (input.product_id) {
    wanted = { ids: [input.product_id], loc: ['body', 'product_id'] };
  } else {
    wanted = { ids: input.products ?? [], loc: ['body', 'products'] };
  }
  const { organizationId, productIds } = await resolveProductsToSell(db, caller, wanted.ids, wanted.loc);
  await checkDiscount(db, organizationId, input.discount_id);
  if (input.seats != null) await checkLinkSeats(db, organizationId, productIds, input.seats);
  const id = await db.$transaction(async (tx) => {
    const link = await insertCheckoutLink(tx, {
      organizationId,
      clientSecret: `tollgate_cl_${randomBytes(24).toString('base64url')}`,
      paymentProcessor: input.payment_processor,
      label: input.label ?? null,
      successUrl: input.success_url ?? null,
      returnUrl: input.return_url ?? null,
      allowDiscountCodes: input.allow_discount_codes ?? true,
      requireBillingAddress: input.require_billing_address ?? false,
      discountId: input.discount_id ?? null,
      metadata: input.metadata ?? {},
      seats: input.seats ?? null,
      ...trialColumns(input),
    });
    await replaceLinkProducts(tx, link.id, productIds);
    return link.id;
  });
  return checkoutLinkView((await findLiveCheckoutLink(db, id))!, ctx.publicUrl);
}

/**
 * A link locked to `seats` sells only products priced by the seat that take that many (Polar's
 * rule); what a product stops taking later is dropped when the link opens (link-visits.ts).
 */
async function checkLinkSeats(db: Db, organizationId: string, productIds: string[], seats: number) {
  for (const productId of productIds) {
    const product = await findProduct(db, productId, [organizationId]);
    const price = product ? priceBilledInAdvance(product.prices) : null;
    const type = price ? priceType(price.amountType).checkout : null;
    if (!price || !type?.takesSeats) {
      throw new InvalidFieldError(
        ['body', 'seats'],
        'Seats can only be set when every product of the link is sold by the seat.',
      );
    }
    const issue = type.seatsIssue(type.price(price), seats);
    if (issue) throw new InvalidFieldError(['body', 'seats'], `${product!.name}: ${issue.msg}`);
  }
}

export async function findCheckoutLinkFor(db: Db, caller: Caller, id: string): Promise<CheckoutLinkRow> {
  const row = await findLiveCheckoutLink(db, id);
  const visible = row && (await accessibleOrganizationIds(db, caller)).includes(row.organizationId);
  if (!row || !visible) throw new AppError('ResourceNotFound', 'Checkout link not found');
  return row;
}

const SORT_COLUMNS = {
  created_at: 'createdAt',
  label: 'label',
  success_url: 'successUrl',
  allow_discount_codes: 'allowDiscountCodes',
} as const;

export async function listCheckoutLinks(
  ctx: CheckoutLinksContext,
  caller: Caller,
  query: CheckoutLinkListQuery,
) {
  const organizationIds = await organizationsToList(ctx.db, caller, query.organization_id);
  const where: Prisma.CheckoutLinkWhereInput = { organizationId: { in: organizationIds } };
  if (query.product_id) where.products = { some: { productId: { in: query.product_id } } };
  const orderBy = parseSorting<keyof typeof SORT_COLUMNS>(query.sorting ?? ['-created_at']).map(
    ({ field, direction }) => ({ [SORT_COLUMNS[field]]: direction }),
  );
  const [rows, total] = await listLiveCheckoutLinks(ctx.db, where, orderBy, pageToSkipTake(query));
  return paginated(
    rows.map((row) => checkoutLinkView(row, ctx.publicUrl)),
    total,
    query,
  );
}

export async function updateCheckoutLink(
  ctx: CheckoutLinksContext,
  caller: Caller,
  id: string,
  input: CheckoutLinkUpdate,
): Promise<CheckoutLink> {
  const { db } = ctx;
  const current = await findCheckoutLinkFor(db, caller, id);
  await assertCanManage(db, caller, current.organizationId, ORGANIZATION_MANAGERS);
  const trialIssues = trialInputIssues(input);
  if (trialIssues.length > 0) throw new InvalidInputError(trialIssues);
  if (input.products) {
    const resolved = await resolveProductsToSell(db, caller, input.products, ['body', 'products']);
    if (resolved.organizationId !== current.organizationId) {
      throw new InvalidFieldError(['body', 'products'], 'Product not found.');
    }
    // A link locked to seats keeps selling only products that take them.
    if (current.seats !== null)
      await checkLinkSeats(db, current.organizationId, resolved.productIds, current.seats);
  }
  await checkDiscount(db, current.organizationId, input.discount_id);
  await db.$transaction(async (tx) => {
    if (input.products) await replaceLinkProducts(tx, id, input.products);
    await updateCheckoutLinkRow(tx, id, {
      ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
      ...(input.label !== undefined ? { label: input.label } : {}),
      ...(input.success_url !== undefined ? { successUrl: input.success_url } : {}),
      ...(input.return_url !== undefined ? { returnUrl: input.return_url } : {}),
      ...(input.discount_id !== undefined ? { discountId: input.discount_id } : {}),
      ...(typeof input.allow_discount_codes === 'boolean'
        ? { allowDiscountCodes: input.allow_discount_codes }
        : {}),
      ...(typeof input.require_billing_address === 'boolean'
        ? { requireBillingAddress: input.require_billing_address }
        : {}),
      ...trialColumns(input),
      modifiedAt: new Date(),
    });
  });
  return checkoutLinkView((await findLiveCheckoutLink(db, id))!, ctx.publicUrl);
}

/** A deleted link stops working; checkouts it started keep their history. */
export async function deleteCheckoutLink(db: Db, caller: Caller, id: string): Promise<void> {
  const current = await findCheckoutLinkFor(db, caller, id);
  await assertCanManage(db, caller, current.organizationId, ORGANIZATION_MANAGERS);
  await db.$transaction((tx) => updateCheckoutLinkRow(tx, id, { deletedAt: new Date() }));
}

/** Visits, conversions and revenue of a link, deleted links included (their history stays). */
export async function getCheckoutLinkStats(db: Db, caller: Caller, id: string): Promise<CheckoutLinkStats> {
  const link = await findCheckoutLinkFor(db, caller, id);
  const totals = await checkoutLinkTotals(db, link.organizationId, link.id);
  return checkoutLinkStatsSchema.parse({
    checkout_link_id: link.id,
    visits: totals.visits,
    conversions: totals.conversions,
    conversion_rate: totals.visits === 0 ? 0 : totals.conversions / totals.visits,
    revenue: totals.revenue,
  });
}
