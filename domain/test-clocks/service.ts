// Test clocks (sandbox only, our extension): create one, attach customers, advance it. Advancing
// only moves the frozen time and wakes the workflows of the attached customers' subscriptions;
// each workflow then lives through the time that passed and reports how far it got.
import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import {
  accessibleOrganizationIds,
  assertCanManage,
  organizationForWrite,
  organizationsToList,
} from '../access/service.js';
import { findLiveCustomerOfOrganization } from '../customers/repository.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import { pageToSkipTake, paginated } from '../platform/rules.js';
import { markCaughtUpWithClock, subscriptionsOnTestClocks } from '../subscriptions/repository.js';
import type { SubscriptionWorkflows } from '../subscriptions/service.js';
import {
  attachCustomerToClock,
  deleteTestClockRow,
  detachCustomersFromClock,
  hasRunningSubscriptions,
  hasSubscriptions,
  findTestClock,
  insertTestClock,
  listTestClockRows,
  lockTestClock,
  updateTestClockRow,
  type TestClockRow,
} from './repository.js';
import {
  advanceRefusal,
  isBehind,
  isSettledForGood,
  MAX_CUSTOMERS_PER_TEST_CLOCK,
  testClockStatus,
  type ClockedSubscription,
} from './rules.js';
import { testClockSchema, type TestClock, type TestClockCreate, type TestClockListQuery } from './schemas.js';

export type TestClocksContext = {
  db: Db;
  /** Test clocks exist only on a sandbox server: a live one takes real payments on real time. */
  sandbox: boolean;
  workflows: Pick<SubscriptionWorkflows, 'signalChanged'>;
};

function assertSandbox(ctx: TestClocksContext) {
  if (!ctx.sandbox) {
    throw new AppError(
      'NotPermitted',
      'Test clocks exist only in sandbox mode: this server takes real payments, which follow real time.',
    );
  }
}

type Clocked = ClockedSubscription & { id: string; testClockId: string | null };

async function clockedSubscriptions(
  db: Db | Prisma.TransactionClient,
  testClockIds: string[],
): Promise<Clocked[]> {
  if (testClockIds.length === 0) return [];
  const rows = await subscriptionsOnTestClocks(db, testClockIds);
  return rows.map((row) => ({
    id: row.id,
    testClockId: row.customer.testClockId,
    clockCaughtUpTo: row.clockCaughtUpTo,
    endedAt: row.endedAt,
    hasPendingOrder: row.orders.length > 0,
  }));
}

function testClockView(row: TestClockRow, subscriptions: readonly Clocked[]): TestClock {
  return testClockSchema.parse({
    id: row.id,
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    organization_id: row.organizationId,
    name: row.name,
    frozen_time: row.frozenTime.toISOString(),
    status: testClockStatus(
      row.frozenTime,
      subscriptions.filter((subscription) => subscription.testClockId === row.id),
    ),
    customer_ids: row.customers.map((customer) => customer.id),
  });
}

async function viewOf(db: Db, row: TestClockRow) {
  return testClockView(row, await clockedSubscriptions(db, [row.id]));
}

async function findTestClockFor(ctx: TestClocksContext, caller: Caller, id: string) {
  const row = await findTestClock(ctx.db, id, await accessibleOrganizationIds(ctx.db, caller));
  if (!row) throw new AppError('ResourceNotFound', 'Test clock not found');
  return row;
}

export async function listTestClocks(ctx: TestClocksContext, caller: Caller, query: TestClockListQuery) {
  assertSandbox(ctx);
  const organizationIds = await organizationsToList(ctx.db, caller, query.organization_id);
  const [rows, total] = await listTestClockRows(
    ctx.db,
    { organizationId: { in: organizationIds } },
    pageToSkipTake(query),
  );
  const subscriptions = await clockedSubscriptions(
    ctx.db,
    rows.map((row) => row.id),
  );
  return paginated(
    rows.map((row) => testClockView(row, subscriptions)),
    total,
    query,
  );
}

export async function getTestClock(ctx: TestClocksContext, caller: Caller, id: string) {
  assertSandbox(ctx);
  return viewOf(ctx.db, await findTestClockFor(ctx, caller, id));
}

export async function createTestClock(ctx: TestClocksContext, caller: Caller, input: TestClockCreate) {
  assertSandbox(ctx);
  const organizationId = await organizationForWrite(
    ctx.db,
    caller,
    input.organization_id,
    ORGANIZATION_MANAGERS,
  );
  const row = await insertTestClock(ctx.db, {
    organizationId,
    name: input.name ?? null,
    frozenTime: new Date(input.frozen_time),
  });
  return testClockView(row, []);
}

/**
 * Moves the clock forward and wakes the workflow of every subscription of its customers that has
 * something to live through; the answer comes at once, `advancing` until they all caught up.
 */
export async function advanceTestClock(
  ctx: TestClocksContext,
  caller: Caller,
  id: string,
  input: { frozen_time: string },
  requestKey?: string,
): Promise<TestClock> {
  assertSandbox(ctx);
  const found = await findTestClockFor(ctx, caller, id);
  await assertCanManage(ctx.db, caller, found.organizationId, ORGANIZATION_MANAGERS);
  const to = new Date(input.frozen_time);
  const { row, toWake } = await ctx.db.$transaction(async (tx) => {
    await lockTestClock(tx, id);
    const clock = (await findTestClock(tx, id, [found.organizationId]))!;
    const subscriptions = await clockedSubscriptions(tx, [id]);
    // The retry of an advance whose answer was lost (its process died, or the database went away
    // after the commit): the clock is already there; the plans are woken again, which is harmless.
    if (requestKey && clock.advanceRequestKey === requestKey && clock.frozenTime.getTime() === to.getTime()) {
      return { row: clock, toWake: subscriptions.filter((subscription) => !isSettledForGood(subscription)) };
    }
    if (subscriptions.some((subscription) => isBehind(subscription, clock.frozenTime))) {
      throw new AppError('Conflict', 'The clock is still advancing; advance it again once it is ready.');
    }
    const refusal = advanceRefusal(clock.frozenTime, to);
    if (refusal) throw new InvalidFieldError(['body', 'frozen_time'], refusal);
    // Plans that ended with nothing left to collect have no workflow to wake: caught up already.
    const settled = subscriptions.filter(isSettledForGood);
    await markCaughtUpWithClock(
      tx,
      settled.map((subscription) => subscription.id),
      to,
    );
    const updated = await updateTestClockRow(tx, id, {
      frozenTime: to,
      advanceRequestKey: requestKey ?? null,
    });
    return { row: updated, toWake: subscriptions.filter((subscription) => !isSettledForGood(subscription)) };
  });
  // A wake lost here (Temporal unreachable) is healed by the reconcile-subscriptions schedule.
  await Promise.all(toWake.map((subscription) => ctx.workflows.signalChanged(subscription.id)));
  return viewOf(ctx.db, row);
}

/**
 * Puts a customer on the clock: their plans from now on live in its time. Only a customer without
 * subscriptions, so no plan ever jumps between two times.
 */
export async function attachTestClockCustomer(
  ctx: TestClocksContext,
  caller: Caller,
  id: string,
  input: { customer_id: string },
): Promise<TestClock> {
  assertSandbox(ctx);
  const found = await findTestClockFor(ctx, caller, id);
  await assertCanManage(ctx.db, caller, found.organizationId, ORGANIZATION_MANAGERS);
  const refuse = (message: string): never => {
    throw new InvalidFieldError(['body', 'customer_id'], message);
  };
  const row = await ctx.db.$transaction(async (tx) => {
    await lockTestClock(tx, id);
    const clock = (await findTestClock(tx, id, [found.organizationId]))!;
    const customer = await findLiveCustomerOfOrganization(tx, found.organizationId, {
      id: input.customer_id,
    });
    if (!customer) return refuse('Customer not found.');
    if (customer.testClockId === id) return clock;
    if (customer.testClockId) refuse('This customer is on another test clock.');
    if (await hasSubscriptions(tx, customer.id)) {
      refuse('This customer already has subscriptions, which follow real time: attach a new customer.');
    }
    if (clock.customers.length >= MAX_CUSTOMERS_PER_TEST_CLOCK) {
      refuse(`A test clock holds at most ${MAX_CUSTOMERS_PER_TEST_CLOCK} customers: create another clock.`);
    }
    await attachCustomerToClock(tx, customer.id, id);
    return (await findTestClock(tx, id, [found.organizationId]))!;
  });
  return viewOf(ctx.db, row);
}

/**
 * Deletes the clock; its customers go back to real time. Refused while a plan of theirs is still
 * billable: it would jump from the clock's time to today's.
 */
export async function deleteTestClock(ctx: TestClocksContext, caller: Caller, id: string): Promise<void> {
  assertSandbox(ctx);
  const found = await findTestClockFor(ctx, caller, id);
  await assertCanManage(ctx.db, caller, found.organizationId, ORGANIZATION_MANAGERS);
  await ctx.db.$transaction(async (tx) => {
    await lockTestClock(tx, id);
    if (await hasRunningSubscriptions(tx, id)) {
      throw new AppError(
        'Conflict',
        'Customers of this clock have subscriptions that are still running: revoke them before deleting the clock.',
      );
    }
    await detachCustomersFromClock(tx, id);
    await deleteTestClockRow(tx, id);
  });
}
