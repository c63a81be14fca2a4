import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import type { Caller } from '../domain/access/rules.js';
import { checkoutWorkflowId } from '../domain/checkouts/rules.js';
import { refundWorkflowId } from '../domain/refunds/rules.js';
import { subscriptionWorkflowId } from '../domain/subscriptions/rules.js';
import { reconcileSubscriptionWorkflows } from '../domain/subscriptions/service.js';
import { checkoutConfirmSchema, checkoutCreateSchema } from '../domain/checkouts/schemas.js';
import { confirmClientCheckout } from '../domain/checkouts/client.js';
import { createCheckout } from '../domain/checkouts/seller.js';
import type { CheckoutsContext } from '../domain/checkouts/service.js';
import { reconcileCheckoutWorkflows } from '../domain/checkouts/workflow-state.js';
import { refundCreateSchema } from '../domain/refunds/schemas.js';
import { createRefund, reconcileRefundWorkflows } from '../domain/refunds/service.js';
import { noTax } from '../domain/tax/rules.js';
import { createAccessToken, createOrganization, createSubscription } from '../test/factories.js';
import { useTestStack } from '../test/stack.js';
import { eventually } from '../test/eventually.js';

/** A crash between the commit and the workflow start: the row exists, its workflow never does. */
const lostStarts = {
  start: async () => undefined,
  signalConfirmed: async () => undefined,
  signalPayment: async () => undefined,
  signalOutcome: async () => undefined,
  startMissing: async () => [],
};

describe('reconcile-checkouts and reconcile-refunds: starting the workflows that crashes lost', () => {
  const env = useTestStack();
  /** Both reconcilers, as their schedules run them. */
  const reconcile = async () => {
    const checkouts = await reconcileCheckoutWorkflows(env.database.db, env.stack.workflows.checkouts);
    const refunds = await reconcileRefundWorkflows(env.database.db, env.stack.workflows.refunds);
    return { started: [...checkouts.started, ...refunds.started], woken: checkouts.woken };
  };

  /** A seller with one product at `priceAmount`, and what the services need to sell it. */
  async function sellerOf(name: string, priceAmount: number, workflows: CheckoutsContext['workflows']) {
    const { db } = env.database;
    const organization = await createOrganization(db);
    const polar = new Polar({
      accessToken: await createAccessToken(db, organization.id),
      serverURL: env.stack.baseUrl,
    });
    const product = await polar.products.create({
      name,
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount, priceCurrency: 'usd' }],
    });
    const caller: Caller = {
      kind: 'organization_access_token',
      tokenId: randomUUID(),
      organizationId: organization.id,
      createdById: null,
      scopes: ['checkouts:write', 'orders:write', 'refunds:write'],
    };
    const ctx: CheckoutsContext = {
      db,
      publicUrl: env.stack.baseUrl,
      tax: noTax,
      workflows,
      checkoutTtlMs: 60 * 60 * 1000,
      processorMetadata: {},
    };
    return { db, polar, product, caller, ctx };
  }

  it('starts a lost confirmed checkout and a lost refund once, leaves recent and running ones alone', async () => {
    const { db, polar, product, caller, ctx } = await sellerOf('Atlas', 1800, lostStarts);
    const lost = await createCheckout(ctx, caller, checkoutCreateSchema.parse({ products: [product.id] }));
    await confirmClientCheckout(
      ctx,
      lost.client_secret,
      checkoutConfirmSchema.parse({
        customer_email: 'lost@example.test',
        customer_billing_address: { country: 'FR' },
        confirmation_token_id: 'pm_card_visa',
      }),
    );
    const recent = await createCheckout(ctx, caller, checkoutCreateSchema.parse({ products: [product.id] }));
    const twoMinutesAgo = new Date(Date.now() - 2 * 60 * 1000);
    await db.checkout.update({ where: { id: lost.id }, data: { createdAt: twoMinutesAgo } });

    const first = await reconcile();
    expect(first.started).toEqual([checkoutWorkflowId(lost.id)]);
    // The started workflow charges the confirmation it finds and fulfils it.
    const paid = await eventually(
      () => polar.orders.list({ checkoutId: lost.id }),
      (page) => page.result.items.length === 1,
    );
    const order = paid.result.items[0]!;
    expect(order).toMatchObject({ status: 'paid', totalAmount: 1800 });
    await expect(reconcile()).resolves.toEqual({ started: [], woken: [] });
    await expect(
      env.stack.temporal.workflow.getHandle(checkoutWorkflowId(recent.id)).describe(),
    ).rejects.toThrow();

    const refund = await createRefund(
      { db, workflows: lostStarts },
      caller,
      refundCreateSchema.parse({ order_id: order.id, reason: 'customer_request', amount: 800 }),
    );
    await db.refund.update({ where: { id: refund.id }, data: { createdAt: twoMinutesAgo } });
    const second = await reconcile();
    expect(second.started).toEqual([refundWorkflowId(refund.id)]);
    const settled = await eventually(
      () => polar.orders.get({ id: order.id }),
      (value) => value.status === 'partially_refunded',
    );
    expect(settled.refundedAmount).toBe(800);
    expect(await db.sandboxRefund.count()).toBe(1);
    // Still only the recent checkout is unstarted, and it is too young to be taken for lost.
    await expect(reconcile()).resolves.toEqual({ started: [], woken: [] });
  });

  it('wakes the workflow of a confirmation it was never told about, and charges it once', async () => {
    // The workflow starts as usual; the API dies after committing the confirmation, before its signal.
    const { db, polar, product, caller, ctx } = await sellerOf('Compass', 2400, {
      ...env.stack.workflows.checkouts,
      signalConfirmed: async () => undefined,
    });
    const checkout = await createCheckout(
      ctx,
      caller,
      checkoutCreateSchema.parse({ products: [product.id] }),
    );
    const confirm = (email: string) =>
      confirmClientCheckout(
        ctx,
        checkout.client_secret,
        checkoutConfirmSchema.parse({
          customer_email: email,
          customer_billing_address: { country: 'FR' },
          confirmation_token_id: 'pm_card_visa',
        }),
      );
    await confirm('unheard@example.test');
    const handle = env.stack.temporal.workflow.getHandle(checkoutWorkflowId(checkout.id));
    expect((await handle.describe()).status.name).toBe('RUNNING');
    // Young, it may still be on its way: left alone.
    expect((await reconcile()).woken).toEqual([]);
    await db.checkout.update({
      where: { id: checkout.id },
      data: { modifiedAt: new Date(Date.now() - 20_000) },
    });
    expect((await reconcile()).woken).toEqual([checkoutWorkflowId(checkout.id)]);
    const paid = await eventually(
      () => polar.orders.list({ checkoutId: checkout.id }),
      (page) => page.result.items.length === 1,
    );
    expect(paid.result.items[0]).toMatchObject({ status: 'paid', totalAmount: 2400 });
    expect(await handle.result()).toBe('succeeded');
    // Settled: nothing left to wake, and one charge.
    expect((await reconcile()).woken).toEqual([]);
    expect(await db.sandboxPayment.count({ where: { amount: 2400 } })).toBe(1);
  });

  it('starts the workflow of a billable subscription that has none, once', async () => {
    const { db } = env.database;
    const organization = await createOrganization(db);
    const polar = new Polar({
      accessToken: await createAccessToken(db, organization.id),
      serverURL: env.stack.baseUrl,
    });
    const lost = await createSubscription(db, polar);
    const young = await createSubscription(db, polar);
    await db.subscription.update({
      where: { id: lost.id },
      data: { createdAt: new Date(Date.now() - 2 * 60 * 1000) },
    });
    const reconcileSubscriptions = () =>
      reconcileSubscriptionWorkflows(db, env.stack.workflows.subscriptions);
    const first = await reconcileSubscriptions();
    expect(first.started).toContain(subscriptionWorkflowId(lost.id));
    expect(first.started).not.toContain(subscriptionWorkflowId(young.id));
    const handle = env.stack.temporal.workflow.getHandle(subscriptionWorkflowId(lost.id));
    expect((await handle.describe()).status.name).toBe('RUNNING');
    // It waits for the end of the first period, and says so.
    const waitingFor = await eventually(
      () => handle.query<string>('waitingFor'),
      (value) => value.startsWith('the end of period 0'),
    );
    expect(waitingFor).toMatch(
      /^the end of period 0, until the subscription renews into period 1 at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
    );
    expect((await reconcileSubscriptions()).started).not.toContain(subscriptionWorkflowId(lost.id));
    await handle.terminate('test over');
  });
});
