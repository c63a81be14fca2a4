// `POST /v1/subscriptions/`: a subscription to a free plan, started without a checkout (Polar's
// `SubscriptionCreate`). A plan that costs anything goes through a checkout, which collects a card.

import { transaction, type Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import { accessibleOrganizationIds, assertCanManage } from '../access/service.js';
import { recordCustomerStateChanged } from '../customer-state/service.js';
import {
  findLiveCustomer,
  findLiveCustomerByExternalId,
  findLiveCustomerOfOrganization,
  markBenefitGrantsStale,
  markCustomerMetersStale,
} from '../customers/repository.js';
import { InvalidInputError, type FieldIssue } from '../platform/errors.js';
import { priceBilledInAdvance, priceType, storedUsagePricesOf } from '../prices/registry.js';
import { findProduct } from '../products/repository.js';
import type { RecurringInterval } from './rules.js';
import type { Subscription, SubscriptionCreate } from './schemas.js';
import { getSubscription, startSubscription, type SubscriptionWorkflows } from './service.js';

export type SubscriptionCreationContext = {
  db: Db;
  publicUrl: string;
  workflows: Pick<SubscriptionWorkflows, 'start'>;
  /** The processor that would charge its renewals: a free plan's only charge is metered usage. */
  paymentProcessor: string;
};

/** A free price (or none billed up front: usage only) charges nothing today. */
const FREE_CURRENCY_FALLBACK = 'usd';

export async function createSubscription(
  ctx: SubscriptionCreationContext,
  caller: Caller,
  body: SubscriptionCreate,
): Promise<Subscription> {
  const organizationIds = await accessibleOrganizationIds(ctx.db, caller);
  const product = await findProduct(ctx.db, body.product_id, organizationIds);
  // A read-only member is refused before anything about the body is said.
  if (product) await assertCanManage(ctx.db, caller, product.organizationId, ORGANIZATION_MANAGERS);
  const issues: FieldIssue[] = [];
  const productIssue = (msg: string) =>
    issues.push({ loc: ['body', 'product_id'], msg, type: 'value_error' });
  const staticPrice = product ? priceBilledInAdvance(product.prices) : null;
  if (!product || product.isArchived) productIssue('Product does not exist.');
  else if (!product.recurringInterval) productIssue('Product is not a recurring product.');
  else if (staticPrice && !priceType(staticPrice.amountType).checkout.isFree) {
    productIssue(
      'Product is not free. The customer should go through a checkout to create a paid subscription.',
    );
  }
  const byId = 'customer_id' in body;
  // Without a product, the customer is still looked for among the caller's organizations, so a
  // body wrong in both places says both, as Polar does.
  const customer = product
    ? await findLiveCustomerOfOrganization(
        ctx.db,
        product.organizationId,
        byId ? { id: body.customer_id } : { externalId: body.external_customer_id },
      )
    : await findReadableCustomer(ctx.db, organizationIds, body);
  if (!customer) {
    issues.push({
      loc: ['body', byId ? 'customer_id' : 'external_customer_id'],
      msg: 'Customer does not exist.',
      type: 'value_error',
    });
  }
  if (issues.length > 0 || !product || !customer) throw new InvalidInputError(issues);

  const usage = storedUsagePricesOf(product.prices);
  const at = new Date();
  const currency =
    [staticPrice, ...usage]
      .map((price) => price && priceType(price.amountType).cycle.currency(price))
      .find((value): value is string => Boolean(value)) ?? FREE_CURRENCY_FALLBACK;
  const subscriptionId = await transaction(ctx.db, async ({ prisma: tx }) => {
    const row = await startSubscription(
      tx,
      {
        organizationId: product.organizationId,
        customerId: customer.id,
        productId: product.id,
        checkoutId: null,
        recurringInterval: product.recurringInterval as RecurringInterval,
        recurringIntervalCount: product.recurringIntervalCount ?? 1,
        currency,
        prices: [...(staticPrice ? [staticPrice] : []), ...usage].map((price) => ({
          productPriceId: price.id,
          amount: 0,
        })),
        amount: 0,
        discountId: null,
        metadata: (body.metadata ?? {}) as Prisma.InputJsonValue,
        customFieldData: {},
        paymentProcessor: ctx.paymentProcessor,
        savedPaymentMethod: null,
        at,
      },
      ctx.publicUrl,
    );
    await recordCustomerStateChanged(tx, customer);
    // Its benefits are granted by the benefit-grant workflows (docs/benefits.md).
    await markBenefitGrantsStale(tx, [customer.id]);
    if (usage.length > 0) await markCustomerMetersStale(tx, [customer.id]);
    return row.id;
  });
  await ctx.workflows.start(subscriptionId);
  return getSubscription(ctx, caller, subscriptionId);
}

async function findReadableCustomer(db: Db, organizationIds: string[], body: SubscriptionCreate) {
  if ('external_customer_id' in body) {
    return findLiveCustomerByExternalId(db, organizationIds, body.external_customer_id);
  }
  const row = await findLiveCustomer(db, body.customer_id);
  return row && organizationIds.includes(row.organizationId) ? row : null;
}
