// Subscriptions: how one starts (from a paid checkout of a plan) and what the seller reads. Their
// billing state is changed only by the `subscription:<id>` workflow's steps (docs/subscriptions.md).
import { keepProductMeterCycle } from './meter-cycling.js';
import { clearPendingUpdate, NO_PENDING_UPDATE } from './pending-updates.js';
import { transaction, type Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import { accessibleOrganizationIds, assertCanManage, organizationsToList } from '../access/service.js';
import { metadataWhere } from '../metadata/rules.js';
import { csvLine, pageToSkipTake, paginated, parseSorting } from '../platform/rules.js';
import { NOT_AVAILABLE_YET, type PageQuery } from '../platform/schemas.js';
import { listPaymentAttemptsOfSubscription } from '../orders/repository.js';
import { recordEvent } from '../webhook-outbox/repository.js';
import { AppError, InvalidInputError } from '../platform/errors.js';
import type { PaymentMethodSummary, SavedPaymentMethod } from '../payments/processor.js';
import {
  periodStart,
  type CustomerPaymentInput,
  type CustomerPaymentOutcome,
  type CustomerPaymentResult,
  type RecurringInterval,
} from './rules.js';
import {
  findBillableSubscriptionIds,
  findSubscription,
  findSubscriptionIdsBehindTheirClock,
  insertSubscription,
  listSubscriptionRows,
  lockSubscription,
  recordSubscriptionProduct,
  subscriptionNow,
  updateSubscriptionRow,
  type SubscriptionRow,
} from './repository.js';
import type { TaxCalculator } from '../tax/calculator.js';
import { recordSubscriptionChange } from './change-events.js';
import { isPaused } from './pause.js';
import { cancelScheduledPause, pauseAtPeriodEnd, resumeNow } from './pausing.js';
import { changeTrialEnd } from './trial-changes.js';
import { assertCaughtUpWithClock, changeSubscriptionProduct, previewProductChange } from './changes.js';
import { changeSubscriptionDiscount } from './discount-changes.js';
import { changeSubscriptionSeats } from './seat-changes.js';
import {
  ACTIVE_STATUSES,
  BILLABLE_STATUSES,
  type ProrationPreview,
  type ProrationPreviewRequest,
  type Subscription,
  type SubscriptionListQuery,
  type SubscriptionStatus,
  type SubscriptionUpdate,
} from './schemas.js';
import { SUBSCRIPTION_EXPORT_COLUMNS, subscriptionExportRow, subscriptionView } from './views.js';
import { trialingFields } from './trials.js';

export type NewSubscription = {
  organizationId: string;
  /** The seats bought at a seat-based price, billed each period. */
  seats?: number | null;
  customerId: string;
  productId: string;
  checkoutId: string | null;
  recurringInterval: RecurringInterval;
  /** Intervals per period (the product's `recurring_interval_count`); 1 when absent. */
  recurringIntervalCount?: number;
  currency: string;
  /** The price the buyer chose and what they pay for it each period (a custom price's amount). */
  prices: { productPriceId: string; amount: number }[];
  /** The fee of one period after the discount, before tax. */
  amount: number;
  discountId: string | null;
  metadata: Prisma.InputJsonValue;
  customFieldData: Prisma.InputJsonValue;
  paymentProcessor: string;
  savedPaymentMethod: SavedPaymentMethod | null;
  at: Date;
  /** Its customer is on a test clock, whose time `at` is. */
  onTestClock?: boolean;
  /** It starts with a free trial that ends then (trials.ts): `trialing`, first charged then. */
  trialEnd?: Date | null;
};

/**
 * A subscription that starts now, its first period paid by the checkout: `active`, anchored at
 * `at` (later periods keep its day of month), with its `subscription.created` and
 * `subscription.active` events, in the caller's transaction (the checkout's fulfilment, so the
 * subscription, its first order and their events commit together).
 */
export async function startSubscription(
  tx: Prisma.TransactionClient,
  input: NewSubscription,
  publicUrl: string,
): Promise<SubscriptionRow> {
  const paymentMethod: PaymentMethodSummary | null = input.savedPaymentMethod?.summary ?? null;
  const inserted = await insertSubscription(tx, {
    organizationId: input.organizationId,
    customerId: input.customerId,
    productId: input.productId,
    checkoutId: input.checkoutId,
    discountId: input.discountId,
    discountFirstPeriodStart: input.discountId ? input.at : null,
    status: 'active',
    amount: input.amount,
    seats: input.seats ?? null,
    currency: input.currency,
    recurringInterval: input.recurringInterval,
    recurringIntervalCount: input.recurringIntervalCount ?? 1,
    billingAnchor: input.at,
    currentPeriodIndex: 0,
    currentPeriodStart: input.at,
    currentPeriodEnd: periodStart(input.at, input.recurringInterval, 1, input.recurringIntervalCount),
    startedAt: input.at,
    metadata: input.metadata,
    customFieldData: input.customFieldData,
    paymentProcessor: input.paymentProcessor,
    processorCustomerId: input.savedPaymentMethod?.processorCustomerId ?? null,
    paymentMethodId: input.savedPaymentMethod?.paymentMethodId ?? null,
    ...(paymentMethod ? { paymentMethod } : {}),
    periodBilled: input.amount,
    periodUsed: 0,
    periodLedgerSince: input.at,
    // Its workflow starts where the clock stands: the clock is not `advancing` for a new plan.
    clockCaughtUpTo: input.onTestClock ? input.at : null,
    createdAt: input.at,
    prices: { create: input.prices.map((price) => ({ ...price, createdAt: input.at })) },
    ...(input.trialEnd
      ? {
          ...trialingFields(input.at, input.trialEnd),
          // Its duration counts from the first period charged, not from the trial.
          discountFirstPeriodStart: input.discountId ? input.trialEnd : null,
        }
      : {}),
  });
  const row = await keepProductMeterCycle(tx, inserted);
  await recordSubscriptionProduct(tx, {
    subscriptionId: row.id,
    productId: row.productId,
    productName: row.product.name,
    since: input.at,
  });
  const data = subscriptionView(row, publicUrl);
  for (const type of ['subscription.created', 'subscription.active'] as const) {
    await recordEvent(tx, { organizationId: row.organizationId, type, data, at: input.at });
  }
  return row;
}

export type SubscriptionWorkflows = {
  /** Starts the subscription's workflow unless it runs. */
  start(subscriptionId: string): Promise<void>;
  /** Its row changed (cancel, revoke, new card…): the workflow reads it again, started if need be. */
  signalChanged(subscriptionId: string): Promise<void>;
  /** Starts the workflow of each of these subscriptions that has none running; answers their ids. */
  startMissing(subscriptionIds: string[]): Promise<string[]>;
  /** A payment the customer made for one of its orders ended (a processor event). */
  signalCustomerPayment(subscriptionId: string, outcome: CustomerPaymentOutcome): Promise<void>;
  /** Asks the processor for the customer's payment (`customer-payment:<id>`) and answers its result. */
  payAsCustomer(input: CustomerPaymentInput): Promise<CustomerPaymentResult>;
};

/** A subscription younger than this may still be starting its workflow. */
const RECONCILE_MIN_AGE_MS = 60_000;

/** Heals billable subscriptions whose workflow start was lost (a worker died after the checkout). */
export async function reconcileSubscriptionWorkflows(
  db: Db,
  workflows: SubscriptionWorkflows,
  now = new Date(),
): Promise<{ started: string[]; woken: string[] }> {
  const before = new Date(now.getTime() - RECONCILE_MIN_AGE_MS);
  const billable = await findBillableSubscriptionIds(db, before, 500);
  const started = await workflows.startMissing(billable.map(({ id }) => id));
  // A test clock's advance whose wake-up was lost (Temporal was unreachable) would stay
  // `advancing` for ever: its subscriptions still behind it are woken again.
  const behind = await findSubscriptionIdsBehindTheirClock(db, before, 500);
  await Promise.all(behind.map((id) => workflows.signalChanged(id)));
  return { started, woken: behind };
}

export type SubscriptionsContext = { db: Db; publicUrl: string };

export const SUBSCRIPTION_SORTS: Record<
  string,
  (direction: 'asc' | 'desc') => Prisma.SubscriptionOrderByWithRelationInput
> = {
  customer: (direction) => ({ customer: { email: direction } }),
  status: (direction) => ({ status: direction }),
  started_at: (direction) => ({ startedAt: direction }),
  current_period_end: (direction) => ({ currentPeriodEnd: direction }),
  amount: (direction) => ({ amount: direction }),
  product: (direction) => ({ product: { name: direction } }),
  discount: (direction) => ({ discount: { name: direction } }),
};

/** Polar lists only subscriptions that started (`started_at` set), with its filters. */
function listWhere(organizationIds: string[], query: SubscriptionListQuery): Prisma.SubscriptionWhereInput {
  const where: Prisma.SubscriptionWhereInput = {
    organizationId: { in: organizationIds },
    startedAt: { not: null },
  };
  if (query.product_id) where.productId = { in: query.product_id };
  if (query.customer_id) where.customerId = { in: query.customer_id };
  if (query.discount_id) where.discountId = { in: query.discount_id };
  if (query.active !== undefined) {
    where.status = query.active ? { in: [...ACTIVE_STATUSES] } : { notIn: [...ACTIVE_STATUSES] };
  }
  if (query.metadata) where.AND = metadataWhere(query.metadata);
  return where;
}

export async function listSubscriptions(
  ctx: SubscriptionsContext,
  caller: Caller,
  query: SubscriptionListQuery,
) {
  const organizationIds = await organizationsToList(ctx.db, caller, query.organization_id);
  const orderBy = [
    ...parseSorting<string>(query.sorting ?? ['-started_at']).map(({ field, direction }) =>
      SUBSCRIPTION_SORTS[field]!(direction),
    ),
    { id: 'asc' as const },
  ];
  const [rows, total] = await listSubscriptionRows(
    ctx.db,
    listWhere(organizationIds, query),
    orderBy,
    pageToSkipTake(query),
  );
  return paginated(
    rows.map((row) => subscriptionView(row, ctx.publicUrl)),
    total,
    query,
  );
}

export async function findSubscriptionFor(db: Db, caller: Caller, id: string): Promise<SubscriptionRow> {
  const row = await findSubscription(db, id);
  if (!row || !row.startedAt || !(await accessibleOrganizationIds(db, caller)).includes(row.organizationId)) {
    throw new AppError('ResourceNotFound', 'Subscription not found');
  }
  return row;
}

export async function getSubscription(ctx: SubscriptionsContext, caller: Caller, id: string) {
  return subscriptionView(await findSubscriptionFor(ctx.db, caller, id), ctx.publicUrl);
}

const EXPORT_PAGE = 500;

/**
 * Every started subscription of the organizations as CSV, in Polar's columns, newest first. Read
 * in pages so a large export never holds every row at once.
 */
export async function* exportSubscriptions(
  ctx: SubscriptionsContext,
  caller: Caller,
  query: Pick<SubscriptionListQuery, 'organization_id'>,
): AsyncGenerator<string> {
  const organizationIds = await organizationsToList(ctx.db, caller, query.organization_id);
  yield csvLine(SUBSCRIPTION_EXPORT_COLUMNS);
  for (let skip = 0; ; skip += EXPORT_PAGE) {
    const [rows] = await listSubscriptionRows(
      ctx.db,
      { organizationId: { in: organizationIds }, startedAt: { not: null } },
      [{ createdAt: 'desc' }, { id: 'asc' }],
      { skip, take: EXPORT_PAGE },
    );
    for (const row of rows) yield csvLine(subscriptionExportRow(row));
    if (rows.length < EXPORT_PAGE) return;
  }
}

export type SubscriptionChangeContext = SubscriptionsContext & {
  workflows: Pick<SubscriptionWorkflows, 'signalChanged'>;
  /** Tax on a plan change billed now. */
  tax: TaxCalculator;
};

export type Cancellation = Pick<
  Extract<SubscriptionUpdate, { cancel_at_period_end: boolean }>,
  'customer_cancellation_reason' | 'customer_cancellation_comment'
>;

/**
 * Applies a seller's change under the subscription's row lock, with its events, then wakes the
 * workflow so that it reads the row again (stops retrying a cancelled plan, ends a revoked one).
 */
async function changeSubscription(
  ctx: SubscriptionChangeContext,
  caller: Caller,
  id: string,
  change: (row: SubscriptionRow, now: Date) => Prisma.SubscriptionUncheckedUpdateInput,
): Promise<Subscription> {
  const current = await findSubscriptionFor(ctx.db, caller, id);
  await assertCanManage(ctx.db, caller, current.organizationId, ORGANIZATION_MANAGERS);
  return applySubscriptionChange(ctx, id, change);
}

export async function applySubscriptionChange(
  ctx: SubscriptionChangeContext,
  id: string,
  change: (row: SubscriptionRow, now: Date) => Prisma.SubscriptionUncheckedUpdateInput,
): Promise<Subscription> {
  const after = await transaction(ctx.db, async (tx) => {
    await lockSubscription(tx.prisma, id);
    const row = (await findSubscription(tx.prisma, id))!;
    assertCaughtUpWithClock(row);
    const now = subscriptionNow(row);
    const updated = await updateSubscriptionRow(tx.prisma, id, change(row, now));
    await recordSubscriptionChange(ctx, tx, row, updated, now);
    return updated;
  });
  await ctx.workflows.signalChanged(id);
  return subscriptionView(after, ctx.publicUrl);
}

const isBillable = (row: SubscriptionRow) =>
  row.endedAt === null && BILLABLE_STATUSES.includes(row.status as SubscriptionStatus);

function cancellationFields(fields: Cancellation) {
  return {
    ...(fields.customer_cancellation_reason !== undefined
      ? { customerCancellationReason: fields.customer_cancellation_reason }
      : {}),
    ...(fields.customer_cancellation_comment !== undefined
      ? { customerCancellationComment: fields.customer_cancellation_comment }
      : {}),
  };
}

/** Cancel at the end of the period: benefits are kept until then, and nothing more is charged. */
export function cancelAtPeriodEnd(fields: Cancellation) {
  return (row: SubscriptionRow, now: Date): Prisma.SubscriptionUncheckedUpdateInput => {
    if (!isBillable(row) || row.cancelAtPeriodEnd) throw new AppError('AlreadyCanceledSubscription');
    return {
      cancelAtPeriodEnd: true,
      canceledAt: now,
      endsAt: row.currentPeriodEnd,
      // It ends at the period's end instead of changing plans then.
      ...NO_PENDING_UPDATE,
      ...cancellationFields(fields),
    };
  };
}

export function uncancel(row: SubscriptionRow): Prisma.SubscriptionUncheckedUpdateInput {
  if (row.endedAt !== null)
    throw new AppError('ResourceUnavailable', 'This subscription has ended; it cannot be resumed.');
  if (!ACTIVE_STATUSES.includes(row.status as SubscriptionStatus) || !row.cancelAtPeriodEnd) {
    throw new AppError('BadRequest', 'This subscription is not set to cancel.');
  }
  return {
    cancelAtPeriodEnd: false,
    canceledAt: null,
    endsAt: null,
    customerCancellationReason: null,
    customerCancellationComment: null,
  };
}

/** Ends it now: no refund, nothing more charged, benefits revoked. */
function revokeNow(fields: Cancellation) {
  return (row: SubscriptionRow, now: Date): Prisma.SubscriptionUncheckedUpdateInput => {
    // A paused plan can be revoked without resuming it first, as on Polar.
    if (!isBillable(row) && !isPaused(row)) throw new AppError('AlreadyCanceledSubscription');
    return {
      status: 'canceled',
      cancelAtPeriodEnd: false,
      canceledAt: row.canceledAt ?? now,
      endsAt: now,
      endedAt: now,
      nextAttemptAt: null,
      ...cancellationFields(fields),
    };
  };
}

/** PATCH /v1/subscriptions/{id}: the body's shape says which change it is (Polar's union). */
export async function updateSubscription(
  ctx: SubscriptionChangeContext,
  caller: Caller,
  id: string,
  body: SubscriptionUpdate,
): Promise<Subscription> {
  if ('revoke' in body) return changeSubscription(ctx, caller, id, revokeNow(body));
  if ('pause_at_period_end' in body) {
    const resumesAt = body.resumes_at ? new Date(body.resumes_at) : null;
    return changeSubscription(
      ctx,
      caller,
      id,
      body.pause_at_period_end ? pauseAtPeriodEnd(resumesAt) : cancelScheduledPause,
    );
  }
  if ('resume' in body) return changeSubscription(ctx, caller, id, resumeNow);
  if (isTrialChange(body)) return changeSubscription(ctx, caller, id, changeTrialEnd(body.trial_end));
  if ('cancel_at_period_end' in body) {
    return changeSubscription(
      ctx,
      caller,
      id,
      body.cancel_at_period_end ? cancelAtPeriodEnd(body) : uncancel,
    );
  }
  const current = await findSubscriptionFor(ctx.db, caller, id);
  await assertCanManage(ctx.db, caller, current.organizationId, ORGANIZATION_MANAGERS);
  if ('product_id' in body) return changeSubscriptionProduct(ctx, current, body);
  if ('discount_id' in body) return changeSubscriptionDiscount(ctx, current, body.discount_id);
  if ('pending_update' in body) return clearPendingUpdate(ctx, id);
  if ('seats' in body) return changeSubscriptionSeats(ctx, current, body);
  // A moved billing period is refused by the schema.
  throw new InvalidInputError([
    { loc: ['body'], msg: 'This change is not available yet.', type: NOT_AVAILABLE_YET },
  ]);
}

const isTrialChange = (body: SubscriptionUpdate): body is { trial_end: string } =>
  'trial_end' in body &&
  typeof body.trial_end === 'string' &&
  !('product_id' in body) &&
  !('discount_id' in body);

/** DELETE /v1/subscriptions/{id}: revokes it now. */
export function revokeSubscription(ctx: SubscriptionChangeContext, caller: Caller, id: string) {
  return changeSubscription(ctx, caller, id, revokeNow({}));
}

/** POST /v1/subscriptions/{id}/proration-preview (our extension): a plan change's bill, unmade. */
export async function previewSubscriptionChange(
  ctx: SubscriptionsContext,
  caller: Caller,
  id: string,
  body: ProrationPreviewRequest,
): Promise<ProrationPreview> {
  const current = await findSubscriptionFor(ctx.db, caller, id);
  await assertCanManage(ctx.db, caller, current.organizationId, ORGANIZATION_MANAGERS);
  return previewProductChange(ctx, current, body);
}

/**
 * GET /v1/subscriptions/{id}/payment-attempts (our extension): every try to collect its orders,
 * newest first, and when the next try of a failing one is due, for the seller's dashboard.
 */
export async function listSubscriptionPaymentAttempts(
  ctx: SubscriptionsContext,
  caller: Caller,
  id: string,
  query: PageQuery,
) {
  const subscription = await findSubscriptionFor(ctx.db, caller, id);
  const [rows, total] = await listPaymentAttemptsOfSubscription(ctx.db, id, pageToSkipTake(query));
  return {
    ...paginated(
      rows.map((row) => ({
        id: row.id,
        order_id: row.orderId,
        attempt: row.attempt,
        status: row.status as 'succeeded' | 'failed',
        decline_code: row.declineCode,
        message: row.message,
        created_at: row.createdAt.toISOString(),
      })),
      total,
      query,
    ),
    next_attempt_at: subscription.nextAttemptAt?.toISOString() ?? null,
  };
}
