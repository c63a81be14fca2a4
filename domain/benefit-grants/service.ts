// Benefit grants: what each customer should hold, and each grant's steps (docs/benefits.md).

import { transaction, type Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { findBenefitOrThrow } from '../benefits/repository.js';
import { benefitView } from '../benefits/views.js';
import type { BenefitType } from '../benefits/schemas.js';
import { findCustomerOrThrow, liveCustomerIdsAmong } from '../customers/repository.js';
import { recordCustomerStateChanged } from '../customer-state/service.js';
import { customerView } from '../customers/views.js';
import { recordEvents } from '../webhook-outbox/repository.js';
import type { WebhookEventType } from '../webhook-outbox/schemas.js';
import { benefitIdsOfProducts } from '../products/repository.js';
import {
  grantRowsOfCustomers,
  holdsThroughAnotherGrant,
  insertDesiredGrants,
  lockCustomersForGrants,
  lockGrantsOfPair,
  pendingPairsOf,
  propertiesOfOtherHeldGrants,
  recordGrantErrors,
  setGrantDesires,
  stalePendingPairs,
  updateGrantRow,
  type GrantPair,
  type GrantRecord,
  paidPurchasesOf,
  ordersWithBenefitsRevoked,
  benefitHoldingSubscriptionsOf,
  claimedSeatsOf,
  seatHoldersOfBuyers,
} from './repository.js';
import { nextGrantStep, planGrants, type DesiredGrant, type GrantStep } from './rules.js';
import { benefitGrantSchema } from '../benefits/schemas.js';
import { GrantWaitsForCustomer, STRATEGIES, type AccountAccess, type GrantProperties } from './strategies.js';
import type { AccountPlatforms } from '../customer-accounts/platforms.js';
import { findLinkedAccountSql } from '../customer-accounts/repository.js';
import { currentAccessToken } from '../customer-accounts/service.js';
import { claimGrantSyncs, clockTimeOfCustomer } from '../customers/repository.js';
import { BILLABLE_STATUSES } from '../products/schemas.js';

/** Customers one dispatcher round looks at: one transaction. */
export const CUSTOMERS_PER_SYNC = 200;

const SYNC_TRANSACTION = { maxWait: 10_000, timeout: 60_000 };
const STEP_TRANSACTION = { maxWait: 10_000, timeout: 60_000 };

/**
 * One round of the dispatcher: takes the marked customers and brings their grant rows to what they
 * should hold now (a one-time order paid and not refunded with `revoke_benefits`, a subscription
 * billable and not ended, each through its product's live benefits). Answers the (customer,
 * benefit) pairs with work for their grant workflow. The marks go in the same transaction.
 */
export async function syncBenefitGrants(
  db: Db,
  limit = CUSTOMERS_PER_SYNC,
): Promise<{ customers: number; pairs: GrantPair[] }> {
  return transaction(
    db,
    async ({ prisma, sql }) => {
      const marked = await claimGrantSyncs(sql, limit);
      if (marked.length === 0) return { customers: 0, pairs: [] };
      const customerIds = [...new Set([...marked, ...(await seatHoldersOfBuyers(sql, marked))])];
      await lockCustomersForGrants(sql, customerIds);
      const live = await liveCustomerIdsAmong(prisma, customerIds);
      const seats = await claimedSeatsOf(sql, live);
      const seatOrderIds = seats.flatMap((seat) => (seat.orderId ? [seat.orderId] : []));
      const seatSubscriptionIds = seats.flatMap((seat) => (seat.subscriptionId ? [seat.subscriptionId] : []));
      const liveSet = new Set(live);
      const purchases = await paidPurchasesOf(sql, live, seatOrderIds);
      const revoked = await ordersWithBenefitsRevoked(
        prisma,
        purchases.map(({ id }) => id),
      );
      const subscriptions = await benefitHoldingSubscriptionsOf(
        sql,
        live,
        BILLABLE_STATUSES,
        seatSubscriptionIds,
      );
      const benefitsOf = await benefitIdsOfProducts(sql, [
        ...purchases.map(({ productId }) => productId),
        ...subscriptions.map(({ productId }) => productId),
      ]);
      type Holding = { productId: string; kind: 'order' | 'subscription'; seats: number | null };
      const holding = new Map<string, Holding>([
        ...purchases
          .filter((order) => !revoked.has(order.id))
          .map((order) => [order.id, { ...order, kind: 'order' as const }] as const),
        ...subscriptions.map(
          (subscription) => [subscription.id, { ...subscription, kind: 'subscription' as const }] as const,
        ),
      ]);
      const grantsOf = (customerId: string, purchaseId: string, bySeat: boolean): DesiredGrant[] => {
        const purchase = holding.get(purchaseId);
        // A plan moved off its seat price gives nothing through the seats it had.
        if (!purchase || (bySeat && purchase.seats === null)) return [];
        return (benefitsOf.get(purchase.productId) ?? []).map((benefitId) => ({
          customerId,
          benefitId,
          source: { kind: purchase.kind, id: purchaseId },
        }));
      };
      // A purchase of seats gives its benefits to the seats' holders (the buyer too, when they
      // claim one of them), not to the buyer as such (Polar's rule, docs/seats.md).
      const desired: DesiredGrant[] = [
        ...[...purchases, ...subscriptions]
          .filter((purchase) => purchase.seats === null && liveSet.has(purchase.customerId))
          .flatMap((purchase) => grantsOf(purchase.customerId, purchase.id, false)),
        ...seats.flatMap((seat) => grantsOf(seat.customerId, (seat.subscriptionId ?? seat.orderId)!, true)),
      ];
      const plan = planGrants(desired, await grantRowsOfCustomers(sql, customerIds));
      await insertDesiredGrants(sql, plan.create);
      await setGrantDesires(sql, plan.desire);
      return { customers: marked.length, pairs: await pendingPairsOf(sql, customerIds) };
    },
    SYNC_TRANSACTION,
  );
}

const EVENT_OF_STEP: Record<Exclude<GrantStep, null>, WebhookEventType> = {
  grant: 'benefit_grant.created',
  revoke: 'benefit_grant.revoked',
  cycle: 'benefit_grant.cycled',
  update: 'benefit_grant.updated',
};

export type GrantOutcome = { done: number; waiting: string | null };

/**
 * Brings every grant of one customer and benefit to what it should be, one step at a time, each
 * grant in the pair's transaction: a retry after a crash finds the grant as it was and does the
 * step once. A step that fails records its error on the grant (shown as `is_granted: false` and
 * in the dashboard) and throws, so the workflow retries it with back-off; a grant that waits for
 * the customer (a linked account) answers `waiting` instead.
 */
export type GrantStepDeps = {
  db: Db;
  /** GitHub and Discord, where those benefits are granted (null: not configured). */
  platforms: AccountPlatforms;
};

export async function applyBenefitGrants(
  { db, platforms }: GrantStepDeps,
  pair: GrantPair,
  now = new Date(),
): Promise<GrantOutcome> {
  try {
    return await transaction(
      db,
      async ({ prisma, sql }) => {
        const grants = await lockGrantsOfPair(sql, pair);
        if (!grants.some((grant) => nextGrantStep(grant))) return { done: 0, waiting: null };
        const benefit = await findBenefitOrThrow(prisma, pair.benefitId);
        const customer = await findCustomerOrThrow(prisma, pair.customerId);
        // A customer on a test clock lives in its time: their credits and keys are dated by it.
        const at = (await clockTimeOfCustomer(prisma, customer)) ?? now;
        const strategy = STRATEGIES[benefit.type as BenefitType];
        const accounts: AccountAccess = {
          platforms,
          linked: (platform) => findLinkedAccountSql(sql, customer.id, platform),
          // A renewal takes a connection of its own, so that it outlives a failed step.
          accessToken: (account, renew) => currentAccessToken(db, account, renew),
        };
        const events: Parameters<typeof recordEvents>[1] = [];
        let done = 0;
        for (let grant of grants) {
          for (let step = nextGrantStep(grant); step; step = nextGrantStep(grant)) {
            const context = {
              sql,
              grant,
              benefit,
              customer,
              at,
              heldElsewhere: () => holdsThroughAnotherGrant(sql, pair, grant.id),
              heldByOthers: () => propertiesOfOtherHeldGrants(sql, pair, grant.id),
              accounts,
            };
            const previous = grant.properties as GrantProperties;
            const properties = await strategy[step](context);
            const change: Partial<GrantRecord> = { properties, error: null as never };
            if (step === 'grant') {
              Object.assign(change, {
                grantedAt: at,
                revokedAt: null,
                cyclesApplied: grant.cyclesRequested,
                updateRequested: false,
              });
            }
            if (step === 'revoke') Object.assign(change, { revokedAt: at, updateRequested: false });
            if (step === 'cycle') change.cyclesApplied = grant.cyclesRequested;
            if (step === 'update') change.updateRequested = false;
            const type = step === 'grant' && grant.grantedAt ? 'benefit_grant.updated' : EVENT_OF_STEP[step];
            grant = (await updateGrantRow(sql, grant.id, change))!;
            done += 1;
            events.push({
              organizationId: benefit.organizationId,
              type,
              data: {
                ...grantView(grant, customer),
                benefit: benefitView(benefit),
                previous_properties: step === 'update' || step === 'cycle' ? previous : null,
              },
              at,
            });
          }
        }
        await recordEvents(sql, events);
        if (customer.deletedAt === null) await recordCustomerStateChanged(prisma, customer);
        return { done, waiting: null };
      },
      STEP_TRANSACTION,
    );
  } catch (error) {
    const waits = error instanceof GrantWaitsForCustomer;
    const pending = (await lockGrantsOfPairOutside(db, pair)).filter((grant) => nextGrantStep(grant));
    await recordGrantErrors(
      db.sql,
      pending.map(({ id }) => id),
      {
        message: error instanceof Error ? error.message : String(error),
        type: waits ? (error as GrantWaitsForCustomer).type : 'grant_failed',
        timestamp: new Date().toISOString(),
      },
    );
    if (waits) return { done: 0, waiting: (error as Error).message };
    throw error;
  }
}

const lockGrantsOfPairOutside = (db: Db, pair: GrantPair) =>
  transaction(db, ({ sql }) => lockGrantsOfPair(sql, pair));

/** A grant in its wire shape, with the customer it was given to. */
export function grantView(
  grant: GrantRecord,
  customer: Parameters<typeof customerView>[0],
): Prisma.InputJsonObject {
  return benefitGrantSchema.parse({
    created_at: grant.createdAt.toISOString(),
    modified_at: grant.modifiedAt?.toISOString() ?? null,
    id: grant.id,
    granted_at: grant.grantedAt?.toISOString() ?? null,
    is_granted: grant.grantedAt !== null && grant.revokedAt === null,
    revoked_at: grant.revokedAt?.toISOString() ?? null,
    is_revoked: grant.revokedAt !== null,
    subscription_id: grant.subscriptionId,
    order_id: grant.orderId,
    customer_id: grant.customerId,
    benefit_id: grant.benefitId,
    error: grant.error ?? null,
    customer: customerView(customer),
    properties: grant.properties,
  }) as Prisma.InputJsonObject;
}

export type BenefitGrantWorkflows = {
  /** Starts the dispatcher unless it runs; answers whether it started it. */
  ensureDispatcher(): Promise<boolean>;
  /** Wakes each pair's grant workflow, starting it if need be. */
  wake(pairs: GrantPair[]): Promise<void>;
};

/** A pending grant untouched this long lost its workflow's start: the reconciler wakes it. */
const RECONCILE_MIN_AGE_MS = 60_000;

export async function reconcileBenefitGrantWorkflows(
  db: Db,
  workflows: BenefitGrantWorkflows,
  now = new Date(),
): Promise<{ woken: number }> {
  const pairs = await stalePendingPairs(db.sql, new Date(now.getTime() - RECONCILE_MIN_AGE_MS), 500);
  await workflows.wake(pairs);
  return { woken: pairs.length };
}
