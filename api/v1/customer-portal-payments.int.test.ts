import { describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { PolarCore } from 'polar-sdk-0481/core.js';
import { customerPortalOrdersConfirmRetryPayment } from 'polar-sdk-0481/funcs/customerPortalOrdersConfirmRetryPayment.js';
import { customerPortalOrdersGetPaymentStatus } from 'polar-sdk-0481/funcs/customerPortalOrdersGetPaymentStatus.js';
import { ManualRetryLimitExceeded } from 'polar-sdk-0481/models/errors/manualretrylimitexceeded.js';
import { OrderNotEligibleForRetry } from 'polar-sdk-0481/models/errors/ordernoteligibleforretry.js';
import { PaymentAlreadyInProgress } from 'polar-sdk-0481/models/errors/paymentalreadyinprogress.js';
import { ResourceNotFound } from 'polar-sdk-0481/models/errors/resourcenotfound.js';
import {
  buyAuthenticatingInSandbox,
  buyInSandbox,
  createAccessToken,
  createOrganization,
} from '../../test/factories.js';
import { eventually } from '../../test/eventually.js';
import { useTestStack } from '../../test/stack.js';

// The customer portal's confirm-payment and payment-status (Polar's, in @polar-sh/sdk from 0.48:
// called here through 0.48.1's own functions, which parse every answer) and a renewal whose card
// needs its buyer to authenticate, on a test clock.
describe('payments that need the buyer, in the customer portal (through @polar-sh/sdk@0.48.1)', () => {
  const env = useTestStack();
  const core = () => new PolarCore({ serverURL: env.stack.baseUrl });

  async function seller() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const plan = await polar.products.create({
      name: 'Pro',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 1500, priceCurrency: 'usd' }],
    });
    const clockCall = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${env.stack.baseUrl}/v1/test-clocks/${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await response.json()) as { id: string; status: string };
    };
    return { organization, polar, plan, clockCall };
  }

  const rowOf = (id: string) => env.database.db.subscription.findUniqueOrThrow({ where: { id } });

  /** A plan bought with a 3-D Secure card on 1 March whose renewal on 1 April needs its buyer. */
  async function renewalWaitingForBuyer() {
    const world = await seller();
    const { polar, clockCall } = world;
    const clock = await clockCall('POST', '', { name: 'SCA', frozen_time: '2026-03-01T09:00:00.000Z' });
    const customer = await polar.customers.create({ email: 'ada@example.test', name: 'Ada' });
    await clockCall('POST', `${clock.id}/customers`, { customer_id: customer.id });
    const { subscriptionId } = await buyAuthenticatingInSandbox(
      polar,
      env.stack.baseUrl,
      world.plan.id,
      customer.id,
    );
    const advance = async (frozenTime: string) => {
      await clockCall('POST', `${clock.id}/advance`, { frozen_time: frozenTime });
      await eventually(
        () => clockCall('GET', clock.id),
        (value) => value.status === 'ready',
        60_000,
      );
    };
    await advance('2026-04-01T12:00:00.000Z');
    const order = await env.database.db.order.findFirstOrThrow({
      where: { subscriptionId: subscriptionId!, billingReason: 'subscription_cycle' },
    });
    const session = await polar.customerSessions.create({ customerId: customer.id });
    return { ...world, customer, subscriptionId: subscriptionId!, order, session, advance };
  }

  const call = (token: string) => async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${env.stack.baseUrl}/v1/customer-portal/${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
  };

  it('a renewal the bank wants confirmed waits for its buyer, who pays it in the portal: active again', async () => {
    const { subscriptionId, order, session, advance, polar } = await renewalWaitingForBuyer();
    const security = { customerSession: session.token };
    const portal = call(session.token);

    expect(await rowOf(subscriptionId)).toMatchObject({ status: 'past_due', failedAttempts: 1 });
    expect(order.status).toBe('pending');
    // The portal names the order and the saved card to confirm it with (our extension).
    const [card] = ((await portal('GET', 'customers/me/payment-methods')).body!.items as { id: string }[])!;
    const waitingOrder = await portal('GET', `orders/${order.id}`);
    expect(waitingOrder.body).toMatchObject({
      status: 'pending',
      payment_confirmation: { payment_method_id: card!.id },
    });
    const waitingPlan = await portal('GET', `subscriptions/${subscriptionId}`);
    expect(waitingPlan.body).toMatchObject({
      status: 'past_due',
      payment_confirmation: { order_id: order.id, payment_method_id: card!.id },
    });
    const status = await customerPortalOrdersGetPaymentStatus(core(), security, { id: order.id });
    expect(status.ok && status.value).toEqual({
      status: 'failed',
      error: 'Your card was declined. This transaction requires authentication.',
    });
    // Charging the card again without the buyer would be declined again: "Retry now" says so.
    const retried = await portal('POST', `subscriptions/${subscriptionId}/retry-payment`);
    expect(retried).toMatchObject({ status: 409 });
    expect(retried.body!.detail).toContain('Your bank asks you to confirm this payment');

    // Try 2 (+2 days) reminds the buyer without charging the card.
    await advance('2026-04-03T13:00:00.000Z');
    expect(await rowOf(subscriptionId)).toMatchObject({ status: 'past_due', failedAttempts: 2 });
    const offSession = await env.database.db.sandboxPayment.findMany({
      where: { idempotencyKey: { startsWith: `subscription:${subscriptionId}:` } },
    });
    expect(offSession).toHaveLength(1);
    const emails = await env.database.db.emailMessage.findMany({
      where: { idempotencyKey: { startsWith: `subscription:${subscriptionId}:order:${order.id}:failed:` } },
      orderBy: { createdAt: 'asc' },
    });
    expect(emails.map((email) => email.subject)).toEqual([
      'Confirm your payment for Pro',
      'Confirm your payment for Pro',
    ]);
    expect(emails[0]!.text).toContain('if it is not paid by April 22, 2026, it ends');

    // The buyer confirms with the saved card: the bank asks them (3-D Secure).
    const confirmed = await customerPortalOrdersConfirmRetryPayment(core(), security, {
      id: order.id,
      customerOrderConfirmPayment: { paymentMethodId: card!.id },
    });
    if (!confirmed.ok) throw confirmed.error;
    expect(confirmed.value).toEqual({
      status: 'requires_action',
      clientSecret: expect.stringMatching(/^pi_sbx_[0-9a-f]{24}_secret_[0-9a-f]{32}$/),
      error: null,
    });
    const pending = await customerPortalOrdersGetPaymentStatus(core(), security, { id: order.id });
    expect(pending.ok && pending.value).toEqual({ status: 'pending', error: null });
    const answered = await fetch(`${env.stack.baseUrl}/api/sandbox/payments/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_secret: confirmed.value.clientSecret, outcome: 'complete' }),
    });
    expect(await answered.json()).toEqual({ status: 'succeeded' });

    await eventually(
      () => polar.subscriptions.get({ id: subscriptionId }),
      (subscription) => subscription.status === 'active',
    );
    const paid = await customerPortalOrdersGetPaymentStatus(core(), security, { id: order.id });
    expect(paid.ok && paid.value).toEqual({ status: 'succeeded', error: null });
    expect((await polar.orders.get({ id: order.id })).status).toBe('paid');
    expect(await rowOf(subscriptionId)).toMatchObject({ failedAttempts: 0, nextAttemptAt: null });
    expect((await portal('GET', `orders/${order.id}`)).body).toMatchObject({ payment_confirmation: null });
    // Paid once: nothing was charged without the buyer after the first try.
    expect(
      await env.database.db.sandboxPayment.count({
        where: { idempotencyKey: { startsWith: `subscription:${subscriptionId}:` } },
      }),
    ).toBe(1);
    const again = await customerPortalOrdersConfirmRetryPayment(core(), security, {
      id: order.id,
      customerOrderConfirmPayment: { paymentMethodId: card!.id },
    });
    expect(!again.ok && again.error).toBeInstanceOf(OrderNotEligibleForRetry);
  });

  it('refuses what it must: no session, another customer’s order, an order with nothing to pay, a bad body, too many tries, one at a time', async () => {
    const { order, session, polar, plan } = await renewalWaitingForBuyer();
    const security = { customerSession: session.token };
    const portal = call(session.token);
    const body = { paymentMethodId: null, confirmationTokenId: 'pm_card_authenticationRequired' };

    const anonymous = await fetch(
      `${env.stack.baseUrl}/v1/customer-portal/orders/${order.id}/payment-status`,
    );
    expect(anonymous.status).toBe(401);
    const anonymousConfirm = await fetch(
      `${env.stack.baseUrl}/v1/customer-portal/orders/${order.id}/confirm-payment`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ confirmation_token_id: 'pm_card_visa' }),
      },
    );
    expect(anonymousConfirm.status).toBe(401);

    // Another customer of the same seller: their own order is fine, this one does not exist.
    const other = await polar.customers.create({ email: 'bob@example.test', name: 'Bob' });
    const { id: otherPaidCheckout } = await buyInSandbox(polar, env.stack.baseUrl, plan.id, other.id);
    const otherSession = await polar.customerSessions.create({ customerId: other.id });
    const otherSecurity = { customerSession: otherSession.token };
    const foreign = await customerPortalOrdersGetPaymentStatus(core(), otherSecurity, { id: order.id });
    expect(!foreign.ok && foreign.error).toBeInstanceOf(ResourceNotFound);
    const foreignConfirm = await customerPortalOrdersConfirmRetryPayment(core(), otherSecurity, {
      id: order.id,
      customerOrderConfirmPayment: body,
    });
    expect(!foreignConfirm.ok && foreignConfirm.error).toBeInstanceOf(ResourceNotFound);

    // Bob's first order was paid by his checkout: nothing to confirm, in Polar's error.
    const [bobsOrder] = (await polar.orders.list({ checkoutId: otherPaidCheckout })).result.items;
    const paidStatus = await customerPortalOrdersGetPaymentStatus(core(), otherSecurity, {
      id: bobsOrder!.id,
    });
    expect(paidStatus.ok && paidStatus.value).toEqual({ status: 'succeeded', error: null });
    const nothingToPay = await customerPortalOrdersConfirmRetryPayment(core(), otherSecurity, {
      id: bobsOrder!.id,
      customerOrderConfirmPayment: body,
    });
    expect(!nothingToPay.ok && nothingToPay.error).toBeInstanceOf(OrderNotEligibleForRetry);
    expect(!nothingToPay.ok && (nothingToPay.error as OrderNotEligibleForRetry).detail).toBe(
      'This order is paid: there is nothing left to pay.',
    );

    // Bodies: neither, both, and a card that is not the buyer's (Bob's), each next to its field.
    expect(await portal('POST', `orders/${order.id}/confirm-payment`, {})).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ['body', 'payment_method_id'],
            msg: 'Choose a saved card (payment_method_id) or a new card (confirmation_token_id).',
            type: 'custom',
          },
        ],
      },
    });
    const [bobsCard] = (await call(otherSession.token)('GET', 'customers/me/payment-methods')).body!
      .items as {
      id: string;
    }[];
    const notTheirs = await portal('POST', `orders/${order.id}/confirm-payment`, {
      payment_method_id: bobsCard!.id,
    });
    expect(notTheirs).toMatchObject({
      status: 422,
      body: {
        detail: [
          { loc: ['body', 'payment_method_id'], msg: expect.stringContaining('not one of your saved cards') },
        ],
      },
    });

    // A payment being sent: a second is refused until it has its answer.
    const sending = await env.database.db.orderCustomerPayment.create({
      data: { orderId: order.id, status: 'creating', createdAt: new Date('2026-04-01T12:00:00.000Z') },
    });
    const busy = await customerPortalOrdersConfirmRetryPayment(core(), security, {
      id: order.id,
      customerOrderConfirmPayment: body,
    });
    expect(!busy.ok && busy.error).toBeInstanceOf(PaymentAlreadyInProgress);
    await env.database.db.orderCustomerPayment.update({
      where: { id: sending.id },
      data: { status: 'failed' },
    });

    // Four more tries (a bank page left each time): the fifth is the last one allowed.
    for (let attempt = 2; attempt <= 5; attempt += 1) {
      const tried = await customerPortalOrdersConfirmRetryPayment(core(), security, {
        id: order.id,
        customerOrderConfirmPayment: body,
      });
      expect(tried.ok && tried.value.status).toBe('requires_action');
    }
    const sixth = await customerPortalOrdersConfirmRetryPayment(core(), security, {
      id: order.id,
      customerOrderConfirmPayment: body,
    });
    expect(!sixth.ok && sixth.error).toBeInstanceOf(ManualRetryLimitExceeded);
    // Each new try canceled the bank page the one before it left open: at most one can pay.
    const tries = await env.database.db.orderCustomerPayment.findMany({
      where: { orderId: order.id },
      orderBy: { createdAt: 'asc' },
    });
    expect(tries.map((each) => each.status)).toEqual([
      'failed',
      'canceled',
      'canceled',
      'canceled',
      'requires_action',
    ]);
  });
});
