// Draft orders (`orders.create`, `orders.finalize`, @polar-sh/sdk@0.48.1; docs/orders.md): a
// seller charges an existing customer for a one-time product off-session. The draft is priced and
// taxed when it is made and never repriced; finalizing it charges a saved card in the worker
// (`draft-order-charge:<order>:<try>`), and the API answers with the try's outcome.

import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import { assertCanManage, organizationForWrite } from '../access/service.js';
import { validateCustomFieldData } from '../custom-fields/rules.js';
import { customFieldView } from '../custom-fields/views.js';
import { recordCustomerStateChanged } from '../customer-state/service.js';
import { findLiveCustomerOfOrganization, markBenefitGrantsStale } from '../customers/repository.js';
import { formatMoney } from '../money/rules.js';
import { livePaymentMethodsOf } from '../payment-methods/repository.js';
import { listPaymentsOfOrder } from '../payments/repository.js';
import { AppError, InvalidFieldError, InvalidInputError, type FieldIssue } from '../platform/errors.js';
import { DEFAULT_CURRENCY, minimumChargeAmount } from '../prices/limits.js';
import { priceBilledInAdvance, priceType } from '../prices/registry.js';
import { findProduct } from '../products/repository.js';
import type { TaxCalculator } from '../tax/calculator.js';
import { customerTaxBasis } from '../tax/rules.js';
import { recordEvent } from '../webhook-outbox/repository.js';
import { claimDraftOrder, findOrder, insertOrder, markDraftOrderPaid, type OrderRow } from './repository.js';
import {
  draftChargeAttemptOf,
  draftChargeKey,
  type DraftChargeInput,
  type DraftChargeResult,
} from './rules.js';
import type { Order, OrderCreate, OrderFinalize } from './schemas.js';
import { findOrderFor } from './service.js';
import { orderView } from './views.js';

export type DraftOrderWorkflows = {
  /** Runs try `attempt` in the worker and waits for its answer. */
  charge(input: DraftChargeInput): Promise<DraftChargeResult>;
};

export type DraftOrderContext = { db: Db; tax: TaxCalculator; workflows: DraftOrderWorkflows };

const productIssue = (msg: string): FieldIssue => ({ loc: ['body', 'product_id'], msg, type: 'value_error' });

type ProductRow = NonNullable<Awaited<ReturnType<typeof findProduct>>>;
type Chargeable =
  { price: ProductRow['prices'][number]; issue?: never } | { issue: FieldIssue; price?: never };

/** The product's one price a draft charges, or why the product cannot be charged off-session. */
function chargeablePriceOf(product: ProductRow | null): Chargeable {
  if (!product || product.isArchived) return { issue: productIssue('Product does not exist.') };
  if (product.recurringInterval) {
    return {
      issue: productIssue(
        'Subscription products are not supported by the off-session charge API. Use a one-time product.',
      ),
    };
  }
  const price = priceBilledInAdvance(product.prices);
  if (!price) return { issue: productIssue('Product has no chargeable static prices.') };
  // The amount is the seller's (the price's, or `amount`), never the customer's choice; a draft
  // has no seats to sell, so a price by the seat would be charged for a number nobody chose.
  const { checkout } = priceType(price.amountType);
  if (checkout.takesBuyerAmount || checkout.takesSeats) {
    return { issue: productIssue('Off-session charges only support fixed-price products.') };
  }
  return { price };
}

/**
 * `POST /v1/orders/`: a draft for the customer, priced now: the product's price or `amount`, taxed
 * by the customer's billing address as a renewal is (`customerTaxBasis`). `order.created` is sent
 * now, as Polar does; `order.updated` and `order.paid` when a finalize pays it.
 */
export async function createDraftOrder(
  ctx: DraftOrderContext,
  caller: Caller,
  body: OrderCreate,
): Promise<Order> {
  const organizationId = await organizationForWrite(
    ctx.db,
    caller,
    body.organization_id,
    ORGANIZATION_MANAGERS,
  );
  const [product, customer] = await Promise.all([
    findProduct(ctx.db, body.product_id, [organizationId]),
    findLiveCustomerOfOrganization(ctx.db, organizationId, { id: body.customer_id }),
  ]);
  const issues: FieldIssue[] = [];
  const chargeable = chargeablePriceOf(product);
  if (chargeable.issue) issues.push(chargeable.issue);
  if (!customer)
    issues.push({ loc: ['body', 'customer_id'], msg: 'Customer does not exist.', type: 'value_error' });
  if (issues.length > 0 || !product || !customer || !chargeable.price) throw new InvalidInputError(issues);
  const { price } = chargeable;
  const strategy = priceType(price.amountType);

  // A free price has no currency of its own and fits any; a priced one only its own.
  const ownCurrency = strategy.cycle.currency(price);
  const currency = (body.currency ?? ownCurrency ?? DEFAULT_CURRENCY).toLowerCase();
  if (ownCurrency && ownCurrency !== currency) {
    throw new InvalidFieldError(['body', 'currency'], `Product has no price in currency '${currency}'.`);
  }
  const amount = body.amount ?? strategy.checkout.amount(strategy.checkout.price(price), null, false);
  // The processor cannot charge less than its minimum; 0 is a free order, paid at finalize.
  const minimum = minimumChargeAmount(currency);
  if (body.amount != null && body.amount > 0 && body.amount < minimum) {
    throw new InvalidFieldError(
      ['body', 'amount'],
      `Amount must be at least ${formatMoney(minimum, currency)}.`,
      'greater_than_equal',
    );
  }
  const customFields = validateCustomFieldData(
    product.customFields.map(({ customField, required }) => ({
      field: customFieldView(customField),
      required,
    })),
    body.custom_field_data,
    { validateRequired: false },
  );
  if (customFields.issues.length > 0) throw new InvalidInputError(customFields.issues);

  const at = new Date();
  const requestId = crypto.randomUUID();
  const quote =
    amount > 0
      ? await ctx.tax.quote({
          amount,
          currency,
          ...customerTaxBasis(customer),
          productId: product.id,
          idempotencyKey: `draft-order:${requestId}:tax:${amount}`,
        })
      : null;
  const taxAmount = quote?.amount ?? 0;
  const label = body.description ?? product.name;
  const row = await ctx.db.$transaction(async (tx) => {
    const inserted = await insertOrder(tx, {
      id: requestId,
      organizationId,
      status: 'draft',
      subtotalAmount: amount,
      discountAmount: 0,
      netAmount: amount,
      taxAmount,
      totalAmount: amount + taxAmount,
      currency,
      billingReason: 'purchase',
      billingName: customer.billingName ?? customer.name,
      billingAddress: (customer.billingAddress ?? undefined) as Prisma.InputJsonValue | undefined,
      customerId: customer.id,
      productId: product.id,
      productName: product.name,
      metadata: (body.metadata ?? {}) as Prisma.InputJsonValue,
      customFieldData: customFields.value as Prisma.InputJsonValue,
      createdAt: at,
      items: {
        create: [{ label, amount, taxAmount, proration: false, productPriceId: price.id, createdAt: at }],
      },
    });
    await recordEvent(tx, { organizationId, type: 'order.created', data: orderView(inserted), at });
    return inserted;
  });
  return orderView(row);
}

const notDraft = (order: Pick<OrderRow, 'id' | 'status'>) =>
  new AppError(
    'OrderNotDraft',
    `Order ${order.id} is not in draft status (current: ${order.status}). Only draft orders can be modified or finalized.`,
  );

const missingPaymentMethod = () =>
  new AppError(
    'PaymentFailed',
    'Payment failed with reason: missing_payment_method. The customer has no saved card to charge: they can save one in the customer portal.',
  );

/**
 * `POST /v1/orders/{id}/finalize`: charges the draft off-session on `payment_method_id` (one of the
 * customer's cards) or their default card. Paid: 200 with the paid order. Declined, or a card that
 * asks its holder to authenticate (which an off-session charge cannot): 402 and the order is a
 * draft again, as Polar answers. Not a draft (paid, or another finalize charging it): 412. A draft
 * that costs nothing is paid without a card.
 */
export async function finalizeDraftOrder(
  ctx: DraftOrderContext,
  caller: Caller,
  id: string,
  body: OrderFinalize,
): Promise<Order> {
  const order = await findOrderFor(ctx.db, caller, id);
  await assertCanManage(ctx.db, caller, order.organizationId, ORGANIZATION_MANAGERS);
  // An unfinished try (its worker or this process stopped) is resumed by the same try.
  const heldBy = order.status === 'pending' ? draftChargeAttemptOf(order.id, order.requestKey) : null;
  if (order.status !== 'draft' && heldBy === null) throw notDraft(order);
  const attempt = heldBy ?? (await nextDraftChargeAttempt(ctx.db, order));
  if (order.totalAmount === 0) return orderView(await payFreeDraft(ctx.db, order, attempt));

  const cards = await livePaymentMethodsOf(ctx.db, order.customerId);
  const card = body.payment_method_id ? cards.find((each) => each.id === body.payment_method_id) : cards[0];
  if (!card) throw missingPaymentMethod();
  const result = await ctx.workflows.charge({ orderId: order.id, attempt, paymentMethodId: card.id });
  switch (result.outcome) {
    case 'paid':
    case 'processing':
      return orderView((await findOrder(ctx.db, order.id))!);
    case 'not_draft':
      throw notDraft({ id: order.id, status: result.status });
    case 'declined':
      throw declineError(result);
  }
}

/** One more than the tries recorded: every try that asked the processor left a payment. */
async function nextDraftChargeAttempt(db: Db, order: OrderRow): Promise<number> {
  const payments = await listPaymentsOfOrder(db, order);
  const tries = payments.map((payment) => draftChargeAttemptOf(order.id, payment.requestKey) ?? 0);
  return Math.max(0, ...tries) + 1;
}

/** The bank asks its holder to confirm (3-D Secure): an off-session charge cannot complete it. */
export const AUTHENTICATION_REQUIRED = 'authentication_required';

function declineError(result: Extract<DraftChargeResult, { outcome: 'declined' }>): AppError {
  if (result.declineCode === AUTHENTICATION_REQUIRED) {
    return new AppError(
      'PaymentActionRequired',
      `The card's bank asks the customer to authenticate this payment (3-D Secure), which cannot be done off-session: ask the customer to pay with another card or save this one again in the customer portal. ${result.message}`,
    );
  }
  const reason = result.declineCode === 'missing_payment_method' ? 'missing_payment_method' : 'card_error';
  return new AppError(
    'PaymentFailed',
    `Payment failed with reason: ${reason} (${result.declineCode}). ${result.message}`,
  );
}

async function payFreeDraft(db: Db, order: OrderRow, attempt: number): Promise<OrderRow> {
  const key = draftChargeKey(order.id, attempt);
  const at = new Date();
  return db.$transaction(async (tx) => {
    if (!(await claimDraftOrder(tx, order.id, key, at)))
      throw notDraft((await findOrder(tx, order.id)) ?? order);
    return (await settleDraftPaid(tx, order.id, key, null, at))!;
  });
}

/**
 * The draft's try paid it (or there was nothing to pay), in the caller's transaction: `paid`,
 * `order.updated` and `order.paid`, its benefits granted by the grant workflows, and the
 * customer's state. Null when the try no longer holds the order.
 */
export async function settleDraftPaid(
  tx: Prisma.TransactionClient,
  orderId: string,
  key: string,
  paymentId: string | null,
  at: Date,
): Promise<OrderRow | null> {
  const paid = await markDraftOrderPaid(tx, orderId, key, paymentId, at);
  if (!paid) return null;
  const data = orderView(paid);
  await recordEvent(tx, { organizationId: paid.organizationId, type: 'order.updated', data, at });
  await recordEvent(tx, { organizationId: paid.organizationId, type: 'order.paid', data, at });
  await recordCustomerStateChanged(tx, paid.customer);
  await markBenefitGrantsStale(tx, [paid.customerId]);
  return paid;
}
