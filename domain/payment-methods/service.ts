// A customer's saved cards (docs/portal.md, "Payment methods"). The API process holds no payment
// processor: saving a card with the processor (and taking one off) runs in a workflow's activity,
// and the portal waits for the outcome of a save.

import type { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/db.js';
import type { Caller } from '../access/rules.js';
import type { CustomerCaller } from '../customer-sessions/rules.js';
import { findLiveCustomerOfOrganization } from '../customers/repository.js';
import { findCustomerFor } from '../customers/service.js';
import type { PaymentProcessor } from '../payments/processor.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import { pageToSkipTake, paginated } from '../platform/rules.js';
import type { PageQuery } from '../platform/schemas.js';
import type { SubscriptionWorkflows } from '../subscriptions/service.js';
import {
  billableSubscriptionsOn,
  findLivePaymentMethod,
  findPaymentMethod,
  latestLivePlanCurrencyOf,
  latestProcessorCustomerIdOf,
  listPaymentMethodRows,
  livePaymentMethodsOf,
  lockCustomerForPaymentMethods,
  moveSubscriptionsToPaymentMethod,
  processorCustomerIdOfCards,
  setDefaultPaymentMethod,
  softDeletePaymentMethod,
  upsertPaymentMethod,
  type PaymentMethodRow,
  type SavedCard,
} from './repository.js';
import { planDeletion, type PaymentMethodSetupInput, type PaymentMethodSetupResult } from './rules.js';

export type { PaymentMethodSetupInput, PaymentMethodSetupResult };
import {
  customerPaymentMethodSchema,
  paymentMethodSchema,
  type CustomerPaymentMethod,
  type PaymentMethod,
  type PaymentMethodConfirm,
  type PaymentMethodCreate,
  type PaymentMethodCreateResponse,
} from './schemas.js';

export type PaymentMethodWorkflows = {
  /** Saves a card with the processor and answers how it went (`payment-method-setup:<request>`). */
  setUp(input: PaymentMethodSetupInput): Promise<PaymentMethodSetupResult>;
  /** Takes a deleted card off the processor's customer, retried until done. */
  detach(paymentMethodId: string): Promise<void>;
};

type Wakes = Pick<SubscriptionWorkflows, 'signalChanged'>;

export function paymentMethodView(row: PaymentMethodRow): PaymentMethod {
  const common = { id: row.id, created_at: row.createdAt.toISOString(), default: row.isDefault };
  const { brand, last4, expMonth, expYear } = row;
  if (row.type === 'card' && brand && last4 && expMonth && expYear) {
    return paymentMethodSchema.parse({
      ...common,
      type: 'card',
      card: { brand, last4, exp_month: expMonth, exp_year: expYear, wallet: row.wallet },
    });
  }
  return paymentMethodSchema.parse({ ...common, type: row.type });
}

/** A saved card as the seller's API shows it. */
export function customerPaymentMethodView(row: PaymentMethodRow): CustomerPaymentMethod {
  const common = {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    processor: 'stripe' as const,
    customer_id: row.customerId,
    is_default: row.isDefault,
  };
  const { brand, last4, expMonth, expYear } = row;
  if (row.type === 'card' && brand && last4 && expMonth && expYear) {
    return customerPaymentMethodSchema.parse({
      ...common,
      type: 'card',
      method_metadata: { brand, last4, exp_month: expMonth, exp_year: expYear, wallet: row.wallet },
    });
  }
  return customerPaymentMethodSchema.parse({ ...common, type: row.type });
}

/** The seller's view of a customer's saved cards, the default first; another organization's is not found. */
export async function listCustomerPaymentMethods(
  db: Db,
  caller: Caller,
  ref: { id: string } | { externalId: string },
  query: PageQuery,
) {
  const customer = await findCustomerFor(db, caller, ref);
  const [rows, total] = await listPaymentMethodRows(db, customer.id, pageToSkipTake(query));
  return paginated(rows.map(customerPaymentMethodView), total, query);
}

/**
 * Keeps a card the processor saved on the customer, in the caller's transaction. It becomes the
 * default when asked, or when the customer has none; becoming the default moves the customer's
 * plans onto it. Answers the plans moved, whose workflows the caller wakes after the commit.
 */
export async function keepPaymentMethod(
  tx: Prisma.TransactionClient,
  input: SavedCard & { makeDefault: boolean },
): Promise<{ row: PaymentMethodRow; movedSubscriptionIds: string[] }> {
  await lockCustomerForPaymentMethods(tx, input.customerId);
  const row = await upsertPaymentMethod(tx, input);
  const cards = await livePaymentMethodsOf(tx, input.customerId);
  const hasDefault = cards.some((card) => card.isDefault && card.id !== row.id);
  if (!input.makeDefault && hasDefault) return { row, movedSubscriptionIds: [] };
  return makeDefault(tx, row, input.at);
}

async function makeDefault(tx: Prisma.TransactionClient, row: PaymentMethodRow, at: Date) {
  await setDefaultPaymentMethod(tx, row.customerId, row.id, at);
  const plans = await billableSubscriptionsOn(tx, row.customerId, 'any', row.processor);
  const moving = plans.filter((plan) => plan.paymentMethodId !== row.processorPaymentMethodId);
  await moveSubscriptionsToPaymentMethod(tx, moving, row, at);
  return { row: { ...row, isDefault: true }, movedSubscriptionIds: moving.map((plan) => plan.id) };
}

// Processor side (activities) ---------------------------------------------------------------------

/** The processor customer the customer's cards live on: their existing one, or a new one. */
async function processorCustomerOf(
  db: Db,
  processor: PaymentProcessor,
  customer: { id: string; email: string; name: string | null },
): Promise<string> {
  const known =
    (await processorCustomerIdOfCards(db, customer.id, processor.name)) ??
    (await latestProcessorCustomerIdOf(db, customer.id, processor.name));
  if (known) return known;
  const created = await processor.ensureCustomer({
    idempotencyKey: `customer:${customer.id}:processor-customer`,
    email: customer.email,
    name: customer.name,
    customerId: customer.id,
  });
  return created.processorCustomerId;
}

export async function setUpPaymentMethod(
  ctx: { db: Db; processor: PaymentProcessor; subscriptions: Wakes },
  input: PaymentMethodSetupInput,
): Promise<PaymentMethodSetupResult> {
  const customer = await findLiveCustomerOfOrganization(ctx.db, input.organizationId, {
    id: input.customerId,
  });
  if (!customer) return { status: 'declined', message: 'This customer no longer exists.' };
  const processorCustomerId = await processorCustomerOf(ctx.db, ctx.processor, customer);
  let setupId: string;
  if ('setupIntentId' in input) {
    setupId = input.setupIntentId;
  } else {
    const planCurrency = await latestLivePlanCurrencyOf(ctx.db, customer.id);
    const result = await ctx.processor.setUpOffSession({
      idempotencyKey: `payment-method-setup:${input.requestId}`,
      confirmationTokenId: input.confirmationTokenId,
      processorCustomerId,
      currency: planCurrency ?? 'usd',
      metadata: { customer_id: customer.id, organization_id: customer.organizationId },
      description: 'Card saved in the customer portal',
    });
    if (result.status === 'failed') return { status: 'declined', message: result.message };
    // Kept open for the buyer: their bank's page confirms it, then `confirm` saves the card.
    if (result.status === 'requires_action') {
      return {
        status: 'requires_action',
        setupIntentId: result.paymentId,
        clientSecret: result.clientSecret,
      };
    }
    if (result.status === 'processing') {
      throw new Error(`card setup ${result.paymentId} is still processing`);
    }
    setupId = result.paymentId;
  }
  const saved = await ctx.processor.savedPaymentMethod({ paymentId: setupId });
  if ('setupIntentId' in input && saved?.processorCustomerId !== processorCustomerId) {
    // Not confirmed (yet), failed at the bank, or another customer's setup: nothing to save.
    return { status: 'declined', message: 'Your bank has not confirmed this card.' };
  }
  if (!saved) throw new Error(`card setup ${setupId} succeeded without a saved card`);
  const kept = await ctx.db.$transaction((tx) =>
    keepPaymentMethod(tx, {
      organizationId: customer.organizationId,
      customerId: customer.id,
      processor: ctx.processor.name,
      saved,
      makeDefault: input.setDefault,
      at: new Date(),
    }),
  );
  await Promise.all(kept.movedSubscriptionIds.map((id) => ctx.subscriptions.signalChanged(id)));
  return { status: 'saved', paymentMethodId: kept.row.id };
}

/** A deleted card leaves the processor unless it was saved again meanwhile. */
export async function detachDeletedPaymentMethod(
  ctx: { db: Db; processor: PaymentProcessor },
  paymentMethodId: string,
): Promise<'detached' | 'kept'> {
  const row = await findPaymentMethod(ctx.db, paymentMethodId);
  if (!row || row.deletedAt === null || row.processor !== ctx.processor.name) return 'kept';
  await ctx.processor.detachPaymentMethod({ paymentMethodId: row.processorPaymentMethodId });
  return 'detached';
}

// The portal (API) ------------------------------------------------------------------------------------

export type PaymentMethodsContext = {
  db: Db;
  workflows: { paymentMethods: PaymentMethodWorkflows; subscriptions: Wakes };
};

export async function listPortalPaymentMethods(
  ctx: PaymentMethodsContext,
  customer: CustomerCaller,
  query: PageQuery,
) {
  const [rows, total] = await listPaymentMethodRows(ctx.db, customer.customerId, pageToSkipTake(query));
  return paginated(rows.map(paymentMethodView), total, query);
}

/** The answer of a save: the card, or the bank's step the buyer has to take first. */
async function setupAnswer(
  ctx: PaymentMethodsContext,
  customer: CustomerCaller,
  result: PaymentMethodSetupResult,
  field: 'confirmation_token_id' | 'setup_intent_id',
): Promise<PaymentMethodCreateResponse> {
  if (result.status === 'declined') {
    throw new InvalidFieldError(['body', field], `${result.message} Try another card.`);
  }
  if (result.status === 'requires_action') {
    return { status: 'requires_action', client_secret: result.clientSecret };
  }
  const row = await findLivePaymentMethod(ctx.db, customer.customerId, result.paymentMethodId);
  if (!row) throw new AppError('Conflict', 'The card was deleted while it was being saved.');
  return {
    ...paymentMethodView(row),
    status: 'succeeded',
    payment_method: customerPaymentMethodView(row),
  } as PaymentMethodCreateResponse;
}

export async function addPortalPaymentMethod(
  ctx: PaymentMethodsContext,
  customer: CustomerCaller,
  input: PaymentMethodCreate,
  requestId: string,
): Promise<PaymentMethodCreateResponse> {
  const result = await ctx.workflows.paymentMethods.setUp({
    requestId,
    organizationId: customer.organizationId,
    customerId: customer.customerId,
    confirmationTokenId: input.confirmation_token_id,
    setDefault: input.set_default,
  });
  return setupAnswer(ctx, customer, result, 'confirmation_token_id');
}

/**
 * After the bank's page (3-D Secure on saving a card): the setup the add answered
 * `requires_action` for is saved once the processor says the buyer confirmed it.
 */
export async function confirmPortalPaymentMethod(
  ctx: PaymentMethodsContext,
  customer: CustomerCaller,
  input: PaymentMethodConfirm,
  requestId: string,
): Promise<PaymentMethodCreateResponse> {
  const result = await ctx.workflows.paymentMethods.setUp({
    requestId,
    organizationId: customer.organizationId,
    customerId: customer.customerId,
    setupIntentId: input.setup_intent_id,
    setDefault: input.set_default,
  });
  return setupAnswer(ctx, customer, result, 'setup_intent_id');
}

async function lockedCard(tx: Prisma.TransactionClient, customer: CustomerCaller, id: string) {
  await lockCustomerForPaymentMethods(tx, customer.customerId);
  const row = await findLivePaymentMethod(tx, customer.customerId, id);
  if (!row) throw new AppError('ResourceNotFound', 'Payment method not found.');
  return row;
}

/** Our extension: the card becomes the default, and the customer's plans renew on it. */
export async function setDefaultPortalPaymentMethod(
  ctx: PaymentMethodsContext,
  customer: CustomerCaller,
  id: string,
): Promise<PaymentMethod> {
  const { row, movedSubscriptionIds } = await ctx.db.$transaction(async (tx) =>
    makeDefault(tx, await lockedCard(tx, customer, id), new Date()),
  );
  await Promise.all(movedSubscriptionIds.map((moved) => ctx.workflows.subscriptions.signalChanged(moved)));
  return paymentMethodView(row);
}

export async function deletePortalPaymentMethod(
  ctx: PaymentMethodsContext,
  customer: CustomerCaller,
  id: string,
): Promise<void> {
  const moved = await ctx.db.$transaction(async (tx) => {
    const target = await lockedCard(tx, customer, id);
    const onTarget = await billableSubscriptionsOn(
      tx,
      customer.customerId,
      [target.processorPaymentMethodId],
      target.processor,
    );
    const cards = await livePaymentMethodsOf(tx, customer.customerId);
    const plan = planDeletion({ target, liveCards: cards, subscriptionsOnTarget: onTarget.length });
    if (plan.kind === 'refuse') {
      throw new InvalidFieldError(
        ['path', 'id'],
        onTarget.length === 1
          ? 'Your subscription renews on this card. Add another card first, then delete this one.'
          : `Your ${onTarget.length} subscriptions renew on this card. Add another card first, then delete this one.`,
      );
    }
    const at = new Date();
    await softDeletePaymentMethod(tx, target.id, at);
    if (plan.newDefaultId) await setDefaultPaymentMethod(tx, customer.customerId, plan.newDefaultId, at);
    const heir = plan.moveSubscriptionsTo ? cards.find((card) => card.id === plan.moveSubscriptionsTo) : null;
    if (heir) await moveSubscriptionsToPaymentMethod(tx, onTarget, heir, at);
    return heir ? onTarget.map((subscription) => subscription.id) : [];
  });
  await ctx.workflows.paymentMethods.detach(id);
  await Promise.all(moved.map((subscriptionId) => ctx.workflows.subscriptions.signalChanged(subscriptionId)));
}
