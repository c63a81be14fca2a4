import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import type { Order } from '@polar-sh/sdk/models/components/order.js';
import type { UpcomingInvoice } from '../../domain/subscriptions/schemas.js';
import type { TaxCalculator, TaxQuoteInput } from '../../domain/tax/calculator.js';
import { rateTableTax } from '../../domain/tax/rules.js';
import { buyInSandbox, createAccessToken, createOrganization } from '../../test/factories.js';
import { eventually } from '../../test/eventually.js';
import { useTestStack } from '../../test/stack.js';

/** German buyers pay 19 %. */
const TAX_RATES = { DE: 1900 };
/** Renewals are taxed at the customer's own billing address. */
const ADDRESS = { country: 'DE', city: 'Berlin', postalCode: '10117', line1: 'Unter den Linden 1' } as const;

/** The rate table, remembering what each quote was asked with (the renewal's tax id). */
function recordedRates(quotes: TaxQuoteInput[]): TaxCalculator {
  const rates = rateTableTax(TAX_RATES);
  return {
    name: rates.name,
    quote: async (input) => {
      quotes.push(input);
      return rates.quote(input);
    },
  };
}

describe('the upcoming invoice (our extension): the next renewal order, priced before it is made', () => {
  const quotes: TaxQuoteInput[] = [];
  const env = useTestStack({ tax: recordedRates(quotes) });

  async function seller() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const calls = await polar.meters.create({
      name: 'Calls',
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'calls' }] },
      aggregation: { func: 'count' },
    });
    return { organization, token, polar, calls };
  }

  async function call(path: string, token: string | null) {
    const response = await fetch(`${env.stack.baseUrl}/v1/${path}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async function upcoming(path: string, token: string): Promise<UpcomingInvoice> {
    const answer = await call(path, token);
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body as unknown as UpcomingInvoice;
  }

  const sellerEstimate = (token: string, id: string) =>
    upcoming(`subscriptions/${id}/upcoming-invoice`, token);
  const buyerEstimate = (session: string, id: string) =>
    upcoming(`customer-portal/subscriptions/${id}/upcoming-invoice`, session);

  /** The clocks are our extension: the SDK has no calls for them. */
  function clocks(token: string) {
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${env.stack.baseUrl}/v1/test-clocks/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`test clock ${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as { id: string; status: string };
    };
    return {
      create: (frozenTime: string) => post('', { name: 'Upcoming invoice', frozen_time: frozenTime }),
      attach: (id: string, customerId: string) => post(`${id}/customers`, { customer_id: customerId }),
      /** Advances and waits until every subscription of the clock caught up. */
      async advanceTo(id: string, frozenTime: string) {
        await post(`${id}/advance`, { frozen_time: frozenTime });
        await eventually(
          () => call(`test-clocks/${id}`, token),
          (clock) => clock.body.status === 'ready',
          60_000,
        );
      },
    };
  }

  const ingestCalls = (polar: Polar, customerId: string, at: string, count: number) =>
    polar.events.ingest({
      events: Array.from({ length: count }, (_, index) => ({
        name: 'calls',
        customerId,
        timestamp: new Date(Date.parse(at) + index * 1000),
      })),
    });

  /** The buyer checks out with a German address (and what else `confirm` adds); answers the plan. */
  async function subscribe(
    polar: Polar,
    productId: string,
    customerId: string,
    confirm: { customerTaxId?: string } = {},
  ) {
    const checkout = await polar.checkouts.create({ products: [productId], customerId });
    await new Polar({ serverURL: env.stack.baseUrl }).checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerName: 'Lin Buyer',
        customerBillingAddress: {
          country: 'DE',
          city: 'Berlin',
          postalCode: '10117',
          line1: 'Unter den Linden 1',
        },
        confirmationTokenId: 'pm_card_visa',
        ...confirm,
      },
    });
    const paid = await eventually(
      () => polar.checkouts.get({ id: checkout.id }),
      (value) => value.status === 'succeeded',
    );
    return { id: paid.subscriptionId!, checkout: paid };
  }

  /** The `subscription_cycle` order of the product once it is paid. */
  const cycleOrderOf = async (polar: Polar, productId: string) =>
    (await eventually(
      async () =>
        (await polar.orders.list({ productId, limit: 10 })).result.items.find(
          (order) => order.billingReason === 'subscription_cycle',
        ),
      (order) => order?.status === 'paid',
      30_000,
    ))!;

  /** The renewal order as the estimate spells it: its lines, amounts and date. */
  function asEstimated(order: Order) {
    return {
      billed_at: order.createdAt.toISOString(),
      currency: order.currency,
      lines: order.items.map((item) => ({
        label: item.label,
        amount: item.amount,
        tax_amount: item.taxAmount,
        proration: item.proration,
        product_price_id: item.productPriceId,
      })),
      subtotal_amount: order.subtotalAmount,
      discount_amount: order.discountAmount,
      discount_id: order.discountId,
      net_amount: order.netAmount,
      tax_amount: order.taxAmount,
      total_amount: order.totalAmount,
    };
  }

  const estimated = (estimate: UpcomingInvoice) => ({
    billed_at: estimate.billed_at,
    currency: estimate.currency,
    lines: estimate.lines.map(({ label, amount, tax_amount, proration, product_price_id }) => ({
      label,
      amount,
      tax_amount,
      proration,
      product_price_id,
    })),
    subtotal_amount: estimate.subtotal_amount,
    discount_amount: estimate.discount_amount,
    discount_id: estimate.discount_id,
    net_amount: estimate.net_amount,
    tax_amount: estimate.tax_amount,
    total_amount: estimate.total_amount,
  });

  /**
   * What an estimate could write about the subscription if it were not read-only, once the
   * refresher and the grant dispatcher have nothing left to do for its customer.
   */
  async function writtenRows(subscriptionId: string) {
    const db = env.database.db;
    const { customerId } = await db.subscription.findUniqueOrThrow({ where: { id: subscriptionId } });
    await eventually(
      async () =>
        (await db.customerMeterRefresh.count({ where: { customerId } })) +
        (await db.benefitGrantSync.count({ where: { customerId } })),
      (waiting) => waiting === 0,
    );
    const subscription = await db.subscription.findUniqueOrThrow({
      where: { id: subscriptionId },
      include: { meters: true, prices: true },
    });
    const customer = await db.customer.findUniqueOrThrow({ where: { id: customerId } });
    return {
      subscription,
      orders: await db.order.count({ where: { subscriptionId } }),
      pendingItems: await db.subscriptionPendingItem.findMany({ where: { subscriptionId } }),
      events: await db.outboxEvent.count({ where: { organizationId: subscription.organizationId } }),
      emails: await db.emailMessage.count({ where: { toAddress: customer.email } }),
      usage: await db.event.count({ where: { customerId } }),
    };
  }

  it('equals the renewal order: fees, metered usage less a meter credit and capped, a repeating discount, a pending proration credit, tax', async () => {
    const { polar, token, calls } = await seller();
    const included = await polar.benefits.create({
      type: 'meter_credit',
      description: '100 calls a month',
      properties: { units: 100, rollover: false, meterId: calls.id },
    });
    const pro = await polar.products.create({
      name: 'Pro',
      recurringInterval: 'month',
      prices: [
        { amountType: 'fixed', priceAmount: 3000, priceCurrency: 'usd' },
        { amountType: 'metered_unit', meterId: calls.id, priceCurrency: 'usd', unitAmount: '0.35' },
      ],
    });
    // Basic's calls cost as much, capped at 50 ¢ a month.
    const basic = await polar.products.create({
      name: 'Basic',
      recurringInterval: 'month',
      prices: [
        { amountType: 'fixed', priceAmount: 1000, priceCurrency: 'usd' },
        {
          amountType: 'metered_unit',
          meterId: calls.id,
          priceCurrency: 'usd',
          unitAmount: '0.35',
          capAmount: 50,
        },
      ],
    });
    for (const product of [pro, basic]) {
      await polar.products.updateBenefits({
        id: product.id,
        productBenefitsUpdate: { benefits: [included.id] },
      });
    }
    const quarter = await polar.discounts.create({
      type: 'percentage',
      duration: 'repeating',
      durationInMonths: 3,
      basisPoints: 2500,
      name: 'A quarter off for three months',
    });
    const clock = clocks(token);
    const { id: clockId } = await clock.create('2026-03-01T00:00:00.000Z');
    const customer = await polar.customers.create({
      email: 'ada@example.test',
      name: 'Ada',
      billingAddress: ADDRESS,
    });
    await clock.attach(clockId, customer.id);
    const checkout = await polar.checkouts.create({
      products: [pro.id],
      customerId: customer.id,
      discountId: quarter.id,
    });
    await new Polar({ serverURL: env.stack.baseUrl }).checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerName: 'Ada Lovelace',
        customerBillingAddress: {
          country: 'DE',
          city: 'Berlin',
          postalCode: '10117',
          line1: 'Unter den Linden 1',
        },
        confirmationTokenId: 'pm_card_visa',
      },
    });
    const id = (
      await eventually(
        () => polar.checkouts.get({ id: checkout.id }),
        (value) => value.status === 'succeeded',
      )
    ).subscriptionId!;
    const { token: session } = await polar.customerSessions.create({ customerId: customer.id });

    // 600 calls on Pro, then, with 16 of March's 31 days left, a downgrade to Basic on the renewal.
    await ingestCalls(polar, customer.id, '2026-03-05T12:00:00Z', 600);
    const granted = await eventually(
      () => sellerEstimate(token, id),
      (estimate) => estimate.meters[0]?.credited_units === 100,
      30_000,
    );
    expect(granted.meters).toEqual([
      expect.objectContaining({ meter_name: 'Calls', consumed_units: 600, credited_units: 100, amount: 175 }),
    ]);
    await clock.advanceTo(clockId, '2026-03-16T00:00:00.000Z');
    await polar.subscriptions.update({
      id,
      subscriptionUpdate: { productId: basic.id, prorationBehavior: 'prorate' },
    });
    await ingestCalls(polar, customer.id, '2026-03-20T12:00:00Z', 300);

    const before = await writtenRows(id);
    const estimate = await sellerEstimate(token, id);
    // The buyer sees the very same estimate.
    expect(await buyerEstimate(session, id)).toEqual(estimate);
    // Reading it wrote nothing, made no order and sent nothing.
    expect(await writtenRows(id)).toEqual(before);

    const basicCalls = basic.prices.find((price) => price.amountType === 'metered_unit')!.id;
    // April's Basic fee, a quarter off (month 2 of 3); March's calls on Basic since the change: 300
    // × 0.35 ¢ = 105 ¢ (the month's 100 credits went to Pro's calls, which came first), capped at
    // 50 ¢; what the change left: Pro's calls (600 − 100) × 0.35 ¢ = 175 ¢, 16/31 of Basic's 750 ¢
    // and, credited, 16/31 of Pro's 2,250 ¢.
    expect(estimate).toMatchObject({
      subscription_id: id,
      currency: 'usd',
      billed_at: '2026-04-01T00:00:00.000Z',
      ends_subscription: false,
      period_start: '2026-03-01T00:00:00.000Z',
      period_end: '2026-04-01T00:00:00.000Z',
      subtotal_amount: 1000 + 50 + 175 + 387 - 1161,
      discount_amount: 250,
      discount_id: quarter.id,
      net_amount: 201,
      // 19 % of 201 ¢ = 38.19 ¢.
      tax_amount: 38,
      total_amount: 239,
      carried_credit_amount: 0,
    });
    expect(
      estimate.lines.map((line) => [line.type, line.label, line.amount]).sort((a, b) => +a[2]! - +b[2]!),
    ).toEqual([
      ['proration', 'Unused time on Pro', -1161],
      ['metered', 'Calls', 50],
      ['proration', 'Calls, used before the change to Basic', 175],
      ['proration', 'Remaining time on Basic', 387],
      ['fixed', 'Basic', 1000],
    ]);
    expect(estimate.lines.find((line) => line.type === 'fixed')).toMatchObject({
      period_start: '2026-04-01T00:00:00.000Z',
      period_end: '2026-05-01T00:00:00.000Z',
    });
    const usageLine = estimate.lines.find((line) => line.type === 'metered')!;
    expect(usageLine).toMatchObject({
      period_start: '2026-03-01T00:00:00.000Z',
      product_price_id: basicCalls,
    });
    expect(usageLine.meter).toEqual({
      product_price_id: basicCalls,
      meter_id: calls.id,
      meter_name: 'Calls',
      consumed_units: 300,
      credited_units: 0,
      billable_units: 300,
      unit_amount: '0.35',
      cap_amount: 50,
      capped: true,
      amount: 50,
    });
    expect(estimate.meters).toEqual([usageLine.meter]);
    expect(estimate.lines.reduce((sum, line) => sum + line.tax_amount, 0)).toBe(38);

    // The renewal, when the clock passes the period's end, makes exactly that order.
    await clock.advanceTo(clockId, '2026-04-01T01:00:00.000Z');
    const renewal = await eventually(
      async () =>
        (await polar.orders.list({ productId: basic.id, limit: 10 })).result.items.find(
          (order) => order.billingReason === 'subscription_cycle',
        ),
      (order) => order?.status === 'paid',
      30_000,
    );
    expect(asEstimated(renewal!)).toEqual(estimated(estimate));

    // The next estimate is April's: the discount's last month, nothing used yet.
    const april = await sellerEstimate(token, id);
    expect(april).toMatchObject({
      billed_at: '2026-05-01T00:00:00.000Z',
      period_start: '2026-04-01T00:00:00.000Z',
      discount_amount: 250,
      net_amount: 750,
    });
    expect(april.meters).toEqual([expect.objectContaining({ consumed_units: 0, amount: 0 })]);
  });

  it('drops a once discount after the first period, estimates a final order for a plan set to cancel, and nothing once it ended', async () => {
    const { polar, token, calls } = await seller();
    const plan = await polar.products.create({
      name: 'Images',
      recurringInterval: 'month',
      prices: [
        { amountType: 'fixed', priceAmount: 1000, priceCurrency: 'usd' },
        { amountType: 'metered_unit', meterId: calls.id, priceCurrency: 'usd', unitAmount: '2.5' },
      ],
    });
    const half = await polar.discounts.create({
      type: 'percentage',
      duration: 'once',
      basisPoints: 5000,
      name: 'Half off the first month',
    });
    const clock = clocks(token);
    const { id: clockId } = await clock.create('2026-05-01T00:00:00.000Z');
    const customer = await polar.customers.create({
      email: 'grace@example.test',
      name: 'Grace',
      billingAddress: ADDRESS,
    });
    await clock.attach(clockId, customer.id);
    const checkout = await polar.checkouts.create({
      products: [plan.id],
      customerId: customer.id,
      discountId: half.id,
    });
    await new Polar({ serverURL: env.stack.baseUrl }).checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerName: 'Grace Hopper',
        customerBillingAddress: {
          country: 'DE',
          city: 'Berlin',
          postalCode: '10117',
          line1: 'Unter den Linden 1',
        },
        confirmationTokenId: 'pm_card_visa',
      },
    });
    const id = (
      await eventually(
        () => polar.checkouts.get({ id: checkout.id }),
        (value) => value.status === 'succeeded',
      )
    ).subscriptionId!;
    expect((await polar.subscriptions.get({ id })).amount).toBe(500);

    // June is billed in full: the half off was for May only. No usage yet: no usage line.
    const full = await sellerEstimate(token, id);
    expect(full).toMatchObject({ discount_amount: 0, discount_id: null, net_amount: 1000, tax_amount: 190 });
    expect(full.lines.map((line) => [line.type, line.amount])).toEqual([['fixed', 1000]]);
    expect(full.meters).toEqual([expect.objectContaining({ consumed_units: 0, amount: 0, capped: false })]);

    // 3 calls at 2.5 ¢: 7.5 ¢ → 8 ¢, rounded once on the line.
    await ingestCalls(polar, customer.id, '2026-05-10T12:00:00Z', 3);
    await polar.subscriptions.update({ id, subscriptionUpdate: { cancelAtPeriodEnd: true } });
    const final = await sellerEstimate(token, id);
    // Set to cancel: the period's end bills only its usage, on the final order.
    expect(final).toMatchObject({
      billed_at: '2026-06-01T00:00:00.000Z',
      ends_subscription: true,
      net_amount: 8,
      tax_amount: 2,
      total_amount: 10,
    });
    expect(final.lines.map((line) => [line.type, line.label, line.amount])).toEqual([
      ['metered', 'Calls', 8],
    ]);

    await clock.advanceTo(clockId, '2026-06-01T01:00:00.000Z');
    const finalOrder = await eventually(
      async () =>
        (await polar.orders.list({ productId: plan.id, limit: 10 })).result.items.find(
          (order) => order.billingReason === 'subscription_cycle',
        ),
      (order) => order?.status === 'paid',
      30_000,
    );
    expect(asEstimated(finalOrder!)).toEqual(estimated(final));

    // Ended: nothing more will be billed.
    expect((await polar.subscriptions.get({ id })).status).toBe('canceled');
    expect(await sellerEstimate(token, id)).toMatchObject({
      billed_at: null,
      ends_subscription: false,
      lines: [],
      meters: [],
      total_amount: 0,
    });
  });

  it('answers only the caller’s own subscriptions: 401 without credentials, 404 for another organization’s or customer’s', async () => {
    const { polar, token } = await seller();
    const product = await polar.products.create({
      name: 'Solo',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 900, priceCurrency: 'usd' }],
    });
    const ada = await polar.customers.create({ email: 'ada@example.test', billingAddress: ADDRESS });
    const { subscriptionId } = await buyInSandbox(polar, env.stack.baseUrl, product.id, ada.id);
    const path = `subscriptions/${subscriptionId}/upcoming-invoice`;
    const portalPath = `customer-portal/${path}`;

    expect((await call(path, token)).body).toMatchObject({
      net_amount: 900,
      tax_amount: 171,
      total_amount: 1071,
    });
    expect(await call(path, null)).toMatchObject({ status: 401 });
    const other = await seller();
    const foreign = await call(path, other.token);
    const missing = await call(`subscriptions/${randomUUID()}/upcoming-invoice`, token);
    expect(foreign).toEqual(missing);
    expect(missing).toMatchObject({ status: 404, body: { error: 'ResourceNotFound' } });
    expect((await call('subscriptions/not-an-id/upcoming-invoice', token)).status).toBe(422);

    const adaSession = (await polar.customerSessions.create({ customerId: ada.id })).token;
    expect((await call(portalPath, adaSession)).body).toMatchObject({ total_amount: 1071 });
    expect(await call(portalPath, null)).toMatchObject({ status: 401 });
    // A seller's token is no customer session.
    expect((await call(portalPath, token)).status).toBe(401);
    const bob = await polar.customers.create({ email: 'bob@example.test' });
    const bobSession = (await polar.customerSessions.create({ customerId: bob.id })).token;
    const notBobs = await call(portalPath, bobSession);
    const nobodys = await call(`customer-portal/subscriptions/${randomUUID()}/upcoming-invoice`, bobSession);
    expect(notBobs).toEqual(nobodys);
    expect(nobodys).toMatchObject({ status: 404, body: { error: 'ResourceNotFound' } });
  });
  it('taxes the renewal of an existing customer at the address and tax id its checkout saved onto the customer (regression: a customer created without an address renewed untaxed)', async () => {
    const { polar, token } = await seller();
    const plan = await polar.products.create({
      name: 'Team',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 2000, priceCurrency: 'usd' }],
    });
    const clock = clocks(token);
    const { id: clockId } = await clock.create('2026-07-01T00:00:00.000Z');
    // The seller's API made the customer without an address: only the checkout collects one.
    const customer = await polar.customers.create({ email: 'lin@example.test', name: 'Lin' });
    await clock.attach(clockId, customer.id);
    const { id, checkout } = await subscribe(polar, plan.id, customer.id, {
      customerTaxId: 'DE 123 456 789',
    });
    expect(checkout.taxAmount).toBe(380);

    // The checkout's completion keeps them on the customer, as Polar's does.
    const saved = await polar.customers.get({ id: customer.id });
    expect(saved.billingAddress).toMatchObject({ country: 'DE', city: 'Berlin', postalCode: '10117' });
    expect(saved.taxId).toEqual(['DE123456789', 'eu_vat']);

    const estimate = await sellerEstimate(token, id);
    expect(estimate).toMatchObject({ net_amount: 2000, tax_amount: 380, total_amount: 2380 });
    await clock.advanceTo(clockId, '2026-08-01T01:00:00.000Z');
    const renewal = await cycleOrderOf(polar, plan.id);
    expect(asEstimated(renewal)).toEqual(estimated(estimate));
    expect(renewal.billingAddress).toMatchObject({ country: 'DE' });
    // The renewal is quoted with the customer's tax id, as the checkout was with the one typed.
    const renewalQuotes = quotes.filter((quote) =>
      quote.idempotencyKey.startsWith(`subscription:${id}:cycle:1:tax:`),
    );
    expect(renewalQuotes.length).toBeGreaterThan(0);
    for (const quote of renewalQuotes) {
      expect(quote).toMatchObject({ taxId: 'DE123456789', billingAddress: { country: 'DE' } });
    }
  });

  it('applies a period’s meter credits once across a plan change that swaps the metered price, earliest usage first (regression: each line took all of them)', async () => {
    const { polar, token, calls } = await seller();
    const included = await polar.benefits.create({
      type: 'meter_credit',
      description: '100 calls a month',
      properties: { units: 100, rollover: false, meterId: calls.id },
    });
    const pro = await polar.products.create({
      name: 'Pro',
      recurringInterval: 'month',
      prices: [
        { amountType: 'fixed', priceAmount: 3000, priceCurrency: 'usd' },
        { amountType: 'metered_unit', meterId: calls.id, priceCurrency: 'usd', unitAmount: '1' },
      ],
    });
    const basic = await polar.products.create({
      name: 'Basic',
      recurringInterval: 'month',
      prices: [
        { amountType: 'fixed', priceAmount: 1000, priceCurrency: 'usd' },
        { amountType: 'metered_unit', meterId: calls.id, priceCurrency: 'usd', unitAmount: '1' },
      ],
    });
    for (const product of [pro, basic]) {
      await polar.products.updateBenefits({
        id: product.id,
        productBenefitsUpdate: { benefits: [included.id] },
      });
    }
    const clock = clocks(token);
    const { id: clockId } = await clock.create('2026-09-01T00:00:00.000Z');
    const customer = await polar.customers.create({ email: 'ada@example.test', billingAddress: ADDRESS });
    await clock.attach(clockId, customer.id);
    const { id } = await subscribe(polar, pro.id, customer.id);

    // 60 calls on Pro, all within the 100 credited: the change bills nothing for them, but they
    // used 60 of the credits.
    await ingestCalls(polar, customer.id, '2026-09-03T12:00:00Z', 60);
    await eventually(
      () => sellerEstimate(token, id),
      (estimate) => estimate.meters[0]?.credited_units === 100 && estimate.meters[0]?.consumed_units === 60,
      30_000,
    );
    await clock.advanceTo(clockId, '2026-09-16T00:00:00.000Z');
    await polar.subscriptions.update({
      id,
      subscriptionUpdate: { productId: basic.id, prorationBehavior: 'prorate' },
    });
    await ingestCalls(polar, customer.id, '2026-09-20T12:00:00Z', 80);

    const estimate = await sellerEstimate(token, id);
    const basicCalls = basic.prices.find((price) => price.amountType === 'metered_unit')!.id;
    // 80 calls on Basic, 40 credits left: 40 × 1 ¢.
    expect(estimate.meters).toEqual([
      expect.objectContaining({
        product_price_id: basicCalls,
        consumed_units: 80,
        credited_units: 40,
        billable_units: 40,
        amount: 40,
      }),
    ]);
    expect(
      estimate.lines.filter((line) => line.label.startsWith('Calls')).map((line) => line.amount),
    ).toEqual([40]);
    // subscription.meters says the same.
    const running = await eventually(
      () => polar.subscriptions.get({ id }),
      (subscription) => subscription.meters[0]?.consumedUnits === 80,
      30_000,
    );
    expect(running.meters[0]).toMatchObject({ creditedUnits: 40, amount: 40 });

    await clock.advanceTo(clockId, '2026-10-01T01:00:00.000Z');
    expect(asEstimated(await cycleOrderOf(polar, basic.id))).toEqual(estimated(estimate));
  });

  it('ends a plan whose credit outweighs its final bill with a final order recording the credit owed to the customer, carrying nothing (regression: no order, and the credit duplicated as a new pending line)', async () => {
    const { polar, token } = await seller();
    const pro = await polar.products.create({
      name: 'Pro',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 3000, priceCurrency: 'usd' }],
    });
    const basic = await polar.products.create({
      name: 'Basic',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 1000, priceCurrency: 'usd' }],
    });
    const clock = clocks(token);
    const { id: clockId } = await clock.create('2026-10-01T00:00:00.000Z');
    const customer = await polar.customers.create({ email: 'ada@example.test', billingAddress: ADDRESS });
    await clock.attach(clockId, customer.id);
    const { id } = await subscribe(polar, pro.id, customer.id);

    // With 16 of October's 31 days left, a downgrade billed now: 16/31 of Basic's 1,000 ¢ (516 ¢)
    // less 16/31 of Pro's 3,000 ¢ (1,548 ¢) is a credit of 1,032 ¢ for the next order. Then the
    // seller cancels: there will be no next order.
    await clock.advanceTo(clockId, '2026-10-16T00:00:00.000Z');
    await polar.subscriptions.update({
      id,
      subscriptionUpdate: { productId: basic.id, prorationBehavior: 'invoice' },
    });
    await polar.subscriptions.update({ id, subscriptionUpdate: { cancelAtPeriodEnd: true } });

    const final = await sellerEstimate(token, id);
    expect(final).toMatchObject({
      billed_at: '2026-11-01T00:00:00.000Z',
      ends_subscription: true,
      net_amount: 0,
      tax_amount: 0,
      total_amount: 0,
      carried_credit_amount: 0,
    });
    expect(final.lines.map((line) => [line.type, line.label, line.amount])).toEqual([
      ['proration', 'Credit from the change to Basic', -1032],
      ['proration', 'Unused credit owed to the customer (the plan ended)', 1032],
    ]);

    await clock.advanceTo(clockId, '2026-11-01T01:00:00.000Z');
    const finalOrder = await cycleOrderOf(polar, basic.id);
    expect(asEstimated(finalOrder)).toEqual(estimated(final));
    expect((await polar.subscriptions.get({ id })).status).toBe('canceled');
    // The credit line is billed by the final order, and nothing is left waiting for another.
    const pending = await env.database.db.subscriptionPendingItem.findMany({ where: { subscriptionId: id } });
    expect(pending.map((item) => [item.label, item.amount, item.orderId])).toEqual([
      ['Credit from the change to Basic', -1032, finalOrder.id],
    ]);
    expect(await sellerEstimate(token, id)).toMatchObject({ billed_at: null, lines: [] });
  });
});
