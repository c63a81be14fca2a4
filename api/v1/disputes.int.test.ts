import { describe, expect, it } from '@jest/globals';
import { Polar } from 'polar-sdk-0481';
import { eventually } from '../../test/eventually.js';
import { buyInSandbox, createAccessToken, createOrganization } from '../../test/factories.js';
import { callV1 } from '../../test/http.js';
import { useTestStack } from '../../test/stack.js';

// Polar's disputes (`disputes.list`, `disputes.get` through @polar-sh/sdk@0.48.1 with its response
// validation on; `accept`, which 0.48.1 lacks, over HTTP), opened by the sandbox's disputed test
// card a few seconds after its payment, through the processor-event path and the dispute's
// workflow, as Stripe's `charge.dispute.created` opens them.
describe('disputes', () => {
  const env = useTestStack();
  const DISPUTE_WAIT_MS = 30_000;

  async function seller(name = 'Acme') {
    const organization = await createOrganization(env.database.db, { name });
    const token = await createAccessToken(env.database.db, organization.id);
    return { organization, token, polar: new Polar({ accessToken: token, serverURL: env.stack.baseUrl }) };
  }

  /** A one-time product with a custom benefit, bought with `card`. */
  async function purchase(polar: Polar, card: string, amount = 4900) {
    const benefit = await polar.benefits.create({ type: 'custom', description: 'Support', properties: {} });
    const product = await polar.products.create({
      name: 'Desk lamp',
      prices: [{ amountType: 'fixed', priceAmount: amount, priceCurrency: 'usd' }],
    });
    await polar.products.updateBenefits({
      id: product.id,
      productBenefitsUpdate: { benefits: [benefit.id] },
    });
    const customer = await polar.customers.create({ email: `buyer-${card}-${amount}@example.test` });
    const checkout = await buyInSandbox(polar as never, env.stack.baseUrl, product.id, customer.id, card);
    const [order] = (await polar.orders.list({ checkoutId: checkout.id })).result.items;
    return { benefit, order: order!, customer };
  }

  const disputesOf = (polar: Polar, orderId: string) =>
    eventually(
      async () => (await polar.disputes.list({ orderId })).result.items,
      (items) => items.length > 0,
      DISPUTE_WAIT_MS,
    );

  const grantsOf = async (polar: Polar, benefitId: string) =>
    (await polar.benefits.grants({ id: benefitId })).result.items;

  it('opens a dispute of the disputed test card a few seconds after the payment; lists, gets and filters it', async () => {
    const { polar, organization } = await seller();
    const { order } = await purchase(polar, 'pm_card_createDispute');
    const paidAt = Date.now();
    const [dispute] = await disputesOf(polar, order.id);
    expect(dispute).toMatchObject({
      status: 'needs_response',
      resolved: false,
      closed: false,
      amount: order.totalAmount - order.taxAmount,
      taxAmount: order.taxAmount,
      currency: 'usd',
      orderId: order.id,
    });
    // The workflow waited for the dispute's time, five seconds after the payment.
    expect(dispute!.createdAt.getTime()).toBeGreaterThan(paidAt - 5_000);
    const [payment] = (await polar.payments.list({ orderId: order.id, status: ['succeeded'] })).result.items;
    expect(dispute!.paymentId).toBe(payment!.id);

    expect(await polar.disputes.get({ id: dispute!.id })).toEqual(dispute);
    const filtered = await polar.disputes.list({
      organizationId: organization.id,
      status: ['needs_response', 'under_review'],
      sorting: ['-amount'],
    });
    expect(filtered.result.items.map((item) => item.id)).toEqual([dispute!.id]);
    expect((await polar.disputes.list({ status: 'won' })).result.items).toEqual([]);

    // Shown on the order's timeline, after the payment.
    const timeline = await callV1(
      env.stack.baseUrl,
      await createAccessToken(env.database.db, organization.id),
      'GET',
      `/orders/${order.id}/timeline`,
    );
    const types = (timeline.body.items as { type: string; detail: string | null }[]).map((item) => item.type);
    expect(types.indexOf('dispute_opened')).toBeGreaterThan(types.indexOf('payment_attempt'));

    // Counted in the metrics (ours, x-tollgate: the SDK leaves them out) on the day it opened.
    const today = new Date().toISOString().slice(0, 10);
    const metrics = await callV1(
      env.stack.baseUrl,
      await createAccessToken(env.database.db, organization.id),
      'GET',
      `/metrics/?start_date=${today}&end_date=${today}&interval=day&timezone=UTC`,
    );
    expect(metrics.status).toBe(200);
    expect(metrics.body.totals).toMatchObject({ disputes: 1, disputed_amount: dispute!.amount });
    expect((metrics.body as { metrics: Record<string, unknown> }).metrics.disputed_amount).toMatchObject({
      type: 'currency',
    });
  }, 60_000);

  it('a paid order with an ordinary card has no dispute', async () => {
    const { polar } = await seller();
    const { order } = await purchase(polar, 'pm_card_visa');
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect((await polar.disputes.list({ orderId: order.id })).result.items).toEqual([]);
  }, 60_000);

  it('accepting closes the dispute as lost; accepting again answers it unchanged; a read-only token may not', async () => {
    const { polar, token, organization } = await seller();
    const { order } = await purchase(polar, 'pm_card_createDispute');
    const [dispute] = await disputesOf(polar, order.id);
    const readOnly = await createAccessToken(env.database.db, organization.id, { scopes: ['disputes:read'] });
    const refused = await callV1(env.stack.baseUrl, readOnly, 'POST', `/disputes/${dispute!.id}/accept`);
    expect(refused.status).toBe(403);
    expect((await polar.disputes.get({ id: dispute!.id })).status).toBe('needs_response');

    const accepted = await callV1(env.stack.baseUrl, token, 'POST', `/disputes/${dispute!.id}/accept`);
    expect(accepted).toMatchObject({
      status: 200,
      body: { id: dispute!.id, status: 'lost', resolved: true, closed: true },
    });
    const again = await callV1(env.stack.baseUrl, token, 'POST', `/disputes/${dispute!.id}/accept`);
    expect(again).toMatchObject({ status: 200, body: { status: 'lost' } });
    expect((await polar.disputes.list({ status: 'lost' })).result.items.map((item) => item.id)).toEqual([
      dispute!.id,
    ]);
    const timeline = await eventually(
      async () =>
        (await callV1(env.stack.baseUrl, token, 'GET', `/orders/${order.id}/timeline`)).body.items as {
          type: string;
          status: string | null;
          detail: string | null;
        }[],
      (items) => items.some((item) => item.type === 'dispute_closed'),
    );
    expect(timeline.find((item) => item.type === 'dispute_closed')).toMatchObject({
      status: 'lost',
      detail: 'accepted',
    });
  }, 60_000);

  it('auto-accepts a dispute below dispute_settings.auto_accept_below_amount and revokes benefits by revoke_benefits', async () => {
    const { polar, token, organization } = await seller();
    const updated = await callV1(env.stack.baseUrl, token, 'PATCH', `/organizations/${organization.id}`, {
      dispute_settings: { auto_accept_below_amount: 5000, revoke_benefits: true },
    });
    expect(updated).toMatchObject({
      status: 200,
      body: { dispute_settings: { auto_accept_below_amount: 5000, revoke_benefits: true } },
    });
    const read = await callV1(env.stack.baseUrl, token, 'GET', `/organizations/${organization.id}`);
    expect(read.body.dispute_settings).toEqual({ auto_accept_below_amount: 5000, revoke_benefits: true });

    const { order, benefit } = await purchase(polar, 'pm_card_createDispute', 4900);
    const [dispute] = await disputesOf(polar, order.id);
    expect(dispute).toMatchObject({ status: 'lost', closed: true });
    const [grant] = await eventually(
      () => grantsOf(polar, benefit.id),
      (grants) => grants[0]?.isRevoked === true,
      DISPUTE_WAIT_MS,
    );
    expect(grant).toMatchObject({ isGranted: false, isRevoked: true });

    // At the threshold nothing is accepted.
    const atThreshold = await purchase(polar, 'pm_card_createDispute', 5000);
    const [open] = await disputesOf(polar, atThreshold.order.id);
    expect(open).toMatchObject({ status: 'needs_response', closed: false });
  }, 90_000);

  it('keeps benefits by default', async () => {
    const { polar } = await seller();
    const { order, benefit } = await purchase(polar, 'pm_card_createDispute');
    const [dispute] = await disputesOf(polar, order.id);
    // The dispute does not hold the order's benefits, so no later grant run takes them.
    const stored = await env.database.db.dispute.findUnique({ where: { id: dispute!.id } });
    expect(stored?.revokesBenefits).toBe(false);
    const grants = await eventually(
      () => grantsOf(polar, benefit.id),
      (items) => items[0]?.isGranted === true,
    );
    expect(grants[0]).toMatchObject({ isGranted: true, isRevoked: false });
  }, 60_000);

  it("another organization's dispute is not found, and refuses bad input", async () => {
    const { polar } = await seller();
    const { order } = await purchase(polar, 'pm_card_createDispute');
    const [dispute] = await disputesOf(polar, order.id);
    const other = await seller('Other');
    await expect(other.polar.disputes.get({ id: dispute!.id })).rejects.toMatchObject({ statusCode: 404 });
    const accept = await callV1(env.stack.baseUrl, other.token, 'POST', `/disputes/${dispute!.id}/accept`);
    expect(accept.status).toBe(404);
    expect((await other.polar.disputes.list({})).result.items).toEqual([]);
    const bad = await callV1(env.stack.baseUrl, other.token, 'GET', '/disputes/?status=open');
    expect(bad.status).toBe(422);
    expect(bad.body.detail?.[0]?.loc).toEqual(['query', 'status']);
    const { status: stillOpen } = await polar.disputes.get({ id: dispute!.id });
    expect(stillOpen).toBe('needs_response');
  }, 60_000);
});
