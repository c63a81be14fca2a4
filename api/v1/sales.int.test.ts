import { afterEach, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { buyInSandbox, createAccessToken, createOrganization } from '../../test/factories.js';
import { eventually } from '../../test/eventually.js';
import { callV1 } from '../../test/http.js';
import { useTestStack } from '../../test/stack.js';
import { startWebhookReceiver } from '../../test/webhook-receiver.js';

type TimelineEntry = {
  type: string;
  at: string;
  status: string | null;
  card: { brand: string; last4: string } | null;
  amount: number | null;
  reference: string | null;
  detail: string | null;
};

describe('sales: order timeline, list filters, CSV exports, customer summary, link stats', () => {
  const env = useTestStack();
  const receivers: Awaited<ReturnType<typeof startWebhookReceiver>>[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((receiver) => receiver.stop()));
  });

  async function seller(name = 'Acme') {
    const organization = await createOrganization(env.database.db, { name });
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    return { organization, token, polar };
  }

  const product = (polar: Polar, name: string, amount: number) =>
    polar.products.create({
      name,
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: amount, priceCurrency: 'usd' }],
    });

  async function getCsv(token: string, path: string) {
    const response = await fetch(`${env.stack.baseUrl}/v1${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      text: await response.text(),
    };
  }

  const csvRows = (text: string) => text.trimEnd().split('\r\n');

  describe('GET /v1/orders/{id}/timeline', () => {
    it("lists a paid order's payment with its card, the invoice, the refund, the buyer's emails and the webhooks", async () => {
      const { token, polar } = await seller();
      const sink = await startWebhookReceiver();
      receivers.push(sink);
      await polar.webhooks.createWebhookEndpoint({
        url: sink.url,
        format: 'raw',
        secret: 'tollgate_whs_sales-test-secret',
        events: ['order.paid', 'refund.created'],
      });
      const lamp = await product(polar, 'Desk lamp', 4900);
      const customer = await polar.customers.create({ email: 'ada@example.test', name: 'Ada' });
      await buyInSandbox(polar, env.stack.baseUrl, lamp.id, customer.id);
      const [order] = (await polar.orders.list({ customerId: customer.id })).result.items;
      await polar.orders.generateInvoice({ id: order!.id });
      const refund = await polar.refunds.create({
        orderId: order!.id,
        reason: 'customer_request',
        amount: 1000,
      });

      const timeline = await eventually(
        () => callV1(env.stack.baseUrl, token, 'GET', `/orders/${order!.id}/timeline`),
        (answer) => {
          const items = (answer.body.items ?? []) as TimelineEntry[];
          return (
            items.filter((item) => item.type === 'email_sent').length === 2 &&
            items.some((item) => item.type === 'refund_succeeded') &&
            items.filter((item) => item.type === 'webhook_event' && item.status === 'succeeded').length === 2
          );
        },
      );
      expect(timeline.status).toBe(200);
      const items = timeline.body.items as TimelineEntry[];
      expect(timeline.body).toMatchObject({ order_id: order!.id, currency: 'usd' });
      // Oldest first.
      expect([...items].sort((a, b) => a.at.localeCompare(b.at)).map((item) => item.at)).toEqual(
        items.map((item) => item.at),
      );
      expect(items.find((item) => item.type === 'payment_attempt')).toMatchObject({
        status: 'succeeded',
        card: { brand: 'visa', last4: '4242' },
        reference: expect.stringMatching(/^pi_/),
      });
      expect(items.find((item) => item.type === 'order_created')).toMatchObject({
        at: order!.createdAt.toISOString(),
      });
      const invoiced = await polar.orders.get({ id: order!.id });
      expect(items.find((item) => item.type === 'invoice_generated')).toMatchObject({
        reference: expect.stringMatching(/^ACME/),
      });
      expect(invoiced.isInvoiceGenerated).toBe(true);
      expect(items.filter((item) => item.type.startsWith('refund_'))).toEqual([
        expect.objectContaining({ type: 'refund_requested', amount: 1000, reference: refund!.id }),
        expect.objectContaining({ type: 'refund_succeeded', amount: 1000, status: 'succeeded' }),
      ]);
      expect(items.filter((item) => item.type === 'email_sent')).toEqual([
        expect.objectContaining({
          reference: 'Receipt for Desk lamp',
          detail: 'ada@example.test',
          status: 'sent',
        }),
        expect.objectContaining({ reference: 'Your refund for Desk lamp', detail: 'ada@example.test' }),
      ]);
      expect(items.filter((item) => item.type === 'webhook_event').map((item) => item.reference)).toEqual([
        'order.paid',
        'refund.created',
      ]);
      expect(items.find((item) => item.type === 'webhook_event')).toMatchObject({
        detail: 'Delivered to 1 of 1 endpoint',
      });
    });

    it('lists each declined try of a checkout before the one that paid', async () => {
      const { token, polar } = await seller();
      const lamp = await product(polar, 'Desk lamp', 4900);
      const customer = await polar.customers.create({ email: 'lin@example.test' });
      const checkout = await polar.checkouts.create({ products: [lamp.id], customerId: customer.id });
      const client = new Polar({ serverURL: env.stack.baseUrl });
      const confirm = (card: string) =>
        client.checkouts.clientConfirm({
          clientSecret: checkout.clientSecret,
          checkoutConfirmStripe: {
            customerName: 'Lin',
            customerBillingAddress: { country: 'DE' },
            confirmationTokenId: card,
          },
        });
      await confirm('pm_card_chargeDeclinedInsufficientFunds');
      await eventually(
        () => polar.checkouts.get({ id: checkout.id }),
        (value) => value.status === 'failed',
      );
      await confirm('pm_card_visa');
      await eventually(
        () => polar.checkouts.get({ id: checkout.id }),
        (value) => value.status === 'succeeded',
      );
      const [order] = (await polar.orders.list({ checkoutId: checkout.id })).result.items;
      const answer = await callV1(env.stack.baseUrl, token, 'GET', `/orders/${order!.id}/timeline`);
      const attempts = (answer.body.items as TimelineEntry[]).filter(
        (item) => item.type === 'payment_attempt',
      );
      expect(attempts).toEqual([
        expect.objectContaining({
          status: 'failed',
          card: { brand: 'visa', last4: '9995' },
          detail: 'Your card has insufficient funds.',
        }),
        expect.objectContaining({ status: 'succeeded', card: { brand: 'visa', last4: '4242' } }),
      ]);
    });

    it("shows a plan's first order with its card and the plan's started email", async () => {
      const { token, polar } = await seller();
      const plan = await polar.products.create({
        name: 'Pro',
        recurringInterval: 'month',
        prices: [{ amountType: 'fixed', priceAmount: 1500, priceCurrency: 'usd' }],
      });
      const customer = await polar.customers.create({ email: 'pat@example.test' });
      await buyInSandbox(polar, env.stack.baseUrl, plan.id, customer.id, 'pm_card_mastercard');
      const [order] = (await polar.orders.list({ customerId: customer.id })).result.items;
      expect(order!.billingReason).toBe('subscription_create');
      const answer = await eventually(
        () => callV1(env.stack.baseUrl, token, 'GET', `/orders/${order!.id}/timeline`),
        (value) => (value.body.items as TimelineEntry[]).some((item) => item.type === 'email_sent'),
      );
      const items = answer.body.items as TimelineEntry[];
      expect(items.find((item) => item.type === 'payment_attempt')).toMatchObject({
        status: 'succeeded',
        card: { brand: 'mastercard', last4: '4444' },
      });
      expect(items.find((item) => item.type === 'email_sent')).toMatchObject({
        reference: 'Your Pro subscription has started',
        detail: 'pat@example.test',
      });
    });

    it("answers 404 for another organization's order, 422 for a malformed id, 401 without a token", async () => {
      const { polar } = await seller();
      const other = await seller('Other');
      const lamp = await product(polar, 'Desk lamp', 4900);
      const customer = await polar.customers.create({ email: 'kim@example.test' });
      await buyInSandbox(polar, env.stack.baseUrl, lamp.id, customer.id);
      const [order] = (await polar.orders.list({ customerId: customer.id })).result.items;
      const foreign = await callV1(env.stack.baseUrl, other.token, 'GET', `/orders/${order!.id}/timeline`);
      expect(foreign.status).toBe(404);
      expect(foreign.body.error).toBe('ResourceNotFound');
      const malformed = await callV1(env.stack.baseUrl, other.token, 'GET', '/orders/not-a-uuid/timeline');
      expect(malformed.status).toBe(422);
      expect(malformed.body.detail?.[0]?.loc).toEqual(['path', 'id']);
      const anonymous = await fetch(`${env.stack.baseUrl}/v1/orders/${order!.id}/timeline`);
      expect(anonymous.status).toBe(401);
    });
  });

  describe('orders: filters, sorting, CSV export', () => {
    async function shop() {
      const world = await seller();
      const { polar } = world;
      const lamp = await product(polar, 'Desk lamp', 4900);
      const guide = await product(polar, 'Field guide, "second" edition', 1500);
      const ada = await polar.customers.create({ email: 'ada@example.test', name: 'Ada' });
      // A buyer's name a spreadsheet would run as a formula.
      const eve = await polar.customers.create({ email: 'eve@example.test', name: '=HYPERLINK("x")' });
      await buyInSandbox(polar, env.stack.baseUrl, lamp.id, ada.id);
      await buyInSandbox(polar, env.stack.baseUrl, guide.id, eve.id);
      const [eveOrder] = (await polar.orders.list({ customerId: eve.id })).result.items;
      await polar.refunds.create({ orderId: eveOrder!.id, reason: 'customer_request', amount: 1500 });
      await eventually(
        () => polar.orders.get({ id: eveOrder!.id }),
        (order) => order.status === 'refunded',
      );
      return { ...world, lamp, guide, ada, eve };
    }

    it('filters by status, text, product and dates, and sorts by amount both ways', async () => {
      const { token, organization, lamp, guide } = await shop();
      const list = async (query: string) => {
        const answer = await callV1(
          env.stack.baseUrl,
          token,
          'GET',
          `/orders/?organization_id=${organization.id}&${query}`,
        );
        expect(answer.status).toBe(200);
        return (answer.body.items as { product: { name: string }; status: string }[]).map(
          (order) => `${order.product.name}:${order.status}`,
        );
      };
      expect(await list('status=refunded')).toEqual(['Field guide, "second" edition:refunded']);
      expect(await list('status=paid&status=refunded&sorting=amount')).toEqual([
        'Field guide, "second" edition:refunded',
        'Desk lamp:paid',
      ]);
      expect(await list('sorting=-amount')).toEqual([
        'Desk lamp:paid',
        'Field guide, "second" edition:refunded',
      ]);
      expect(await list('query=ADA@')).toEqual(['Desk lamp:paid']);
      expect(await list('query=guide')).toEqual(['Field guide, "second" edition:refunded']);
      expect(await list(`product_id=${lamp.id}`)).toEqual(['Desk lamp:paid']);
      expect(await list(`product_id=${guide.id}&status=paid`)).toEqual([]);
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
      const yesterday = new Date(Date.now() - 86_400_000).toISOString();
      expect(await list(`created_after=${encodeURIComponent(tomorrow)}`)).toEqual([]);
      expect(await list(`created_after=${encodeURIComponent(yesterday)}&sorting=amount`)).toHaveLength(2);
      expect(await list(`created_before=${encodeURIComponent(yesterday)}`)).toEqual([]);
    });

    it('exports the filtered orders as CSV with amounts in minor units and as decimals, cells escaped', async () => {
      const { token, organization, other } = { ...(await shop()), other: await seller('Other') };
      const all = await getCsv(token, `/orders/export?organization_id=${organization.id}&sorting=-amount`);
      expect(all.status).toBe(200);
      expect(all.type).toBe('text/csv; charset=utf-8');
      const [header, first, second, ...rest] = csvRows(all.text);
      expect(rest).toEqual([]);
      expect(header).toBe(
        'Order ID,Created At,Status,Billing Reason,Customer Email,Customer Name,Product,Currency,Subtotal Amount,Discount Amount,Net Amount,Tax Amount,Total Amount,Refunded Amount,Total,Refunded,Invoice Number',
      );
      expect(first).toMatch(
        /^[0-9a-f-]{36},\d{4}-\d\d-\d\dT[\d:.]+Z,paid,purchase,ada@example\.test,Ada,Desk lamp,USD,4900,0,4900,0,4900,0,49\.00,0\.00,$/,
      );
      // The formula is defused with a quote, and the product's comma and quotes are quoted.
      expect(second).toContain(
        `,refunded,purchase,eve@example.test,"'=HYPERLINK(""x"")","Field guide, ""second"" edition",USD,1500,0,1500,0,1500,1500,15.00,15.00,`,
      );
      const refunded = await getCsv(token, '/orders/export?status=refunded');
      expect(csvRows(refunded.text)).toHaveLength(2);
      // Another organization's export holds only the header.
      expect(csvRows((await getCsv(other.token, '/orders/export')).text)).toEqual([header]);
      const bad = await callV1(env.stack.baseUrl, token, 'GET', '/orders/export?status=shipped');
      expect(bad.status).toBe(422);
      expect(bad.body.detail?.[0]?.loc).toEqual(['query', 'status']);
      const badDate = await callV1(env.stack.baseUrl, token, 'GET', '/orders/?created_after=yesterday');
      expect(badDate.status).toBe(422);
      expect(badDate.body.detail?.[0]?.loc).toEqual(['query', 'created_after']);
    });

    it('exports checkouts and customers with the list filters', async () => {
      const { token, organization } = await shop();
      const checkouts = await getCsv(
        token,
        `/checkouts/export?organization_id=${organization.id}&status=succeeded&sorting=created_at`,
      );
      expect(checkouts.status).toBe(200);
      const checkoutRows = csvRows(checkouts.text);
      expect(checkoutRows[0]).toBe(
        'Checkout ID,Created At,Status,Product,Customer Email,Customer Name,Currency,Amount,Discount Amount,Net Amount,Tax Amount,Total Amount,Total,Expires At,Checkout Link ID',
      );
      expect(checkoutRows.slice(1).map((row) => row.split(',')[3])).toEqual(['Desk lamp', '"Field guide']);
      expect(checkoutRows[1]).toContain(
        ',succeeded,Desk lamp,ada@example.test,Ada Lovelace,USD,4900,0,4900,0,4900,49.00,',
      );

      const customers = await getCsv(token, '/customers/export?query=eve&sorting=email');
      // Eve's checkout kept its German billing address on her record.
      expect(csvRows(customers.text)).toEqual([
        'Customer ID,Email,Name,External ID,Created At,Billing Country',
        expect.stringMatching(/^[0-9a-f-]{36},eve@example\.test,"'=HYPERLINK\(""x""\)",,\d{4}-[^,]+Z,DE$/),
      ]);
      const bad = await callV1(env.stack.baseUrl, token, 'GET', '/customers/export?sorting=height');
      expect(bad.status).toBe(422);
      expect(bad.body.detail?.[0]?.loc).toEqual(['query', 'sorting']);
    });

    it("sums a customer's lifetime value net of refunds", async () => {
      const { token, polar, ada, eve } = await shop();
      const [adaOrder] = (await polar.orders.list({ customerId: ada.id })).result.items;
      await polar.refunds.create({ orderId: adaOrder!.id, reason: 'customer_request', amount: 900 });
      const summary = await eventually(
        () => callV1(env.stack.baseUrl, token, 'GET', `/customers/${ada.id}/summary`),
        (answer) => (answer.body.lifetime_value as { amount: number }[] | undefined)?.[0]?.amount === 4000,
      );
      expect(summary.body).toMatchObject({
        customer_id: ada.id,
        orders_count: 1,
        paid_orders_count: 1,
        lifetime_value: [{ currency: 'usd', amount: 4000 }],
        subscriptions_count: 0,
      });
      const refunded = await callV1(env.stack.baseUrl, token, 'GET', `/customers/${eve.id}/summary`);
      expect(refunded.body.lifetime_value).toEqual([{ currency: 'usd', amount: 0 }]);
      const other = await seller('Other');
      expect(
        (await callV1(env.stack.baseUrl, other.token, 'GET', `/customers/${ada.id}/summary`)).status,
      ).toBe(404);
      expect((await callV1(env.stack.baseUrl, token, 'GET', '/customers/nope/summary')).status).toBe(422);
    });
  });

  describe('GET /v1/checkout-links/{id}/stats', () => {
    it('counts visits and conversions, and sums the revenue of the orders', async () => {
      const { token, polar } = await seller();
      const other = await seller('Other');
      const lamp = await product(polar, 'Desk lamp', 4900);
      const link = await polar.checkoutLinks.create({ productId: lamp.id, label: 'Spring sale' });
      const visit = async () => {
        const response = await fetch(link.url, { redirect: 'manual' });
        return new URL(response.headers.get('location')!).pathname.replace('/checkout/', '');
      };
      const empty = await callV1(env.stack.baseUrl, token, 'GET', `/checkout-links/${link.id}/stats`);
      expect(empty.body).toEqual({
        checkout_link_id: link.id,
        visits: 0,
        conversions: 0,
        conversion_rate: 0,
        revenue: [],
      });
      const clientSecret = await visit();
      await visit();
      await new Polar({ serverURL: env.stack.baseUrl }).checkouts.clientConfirm({
        clientSecret,
        checkoutConfirmStripe: {
          customerEmail: 'buyer@example.test',
          customerName: 'Buyer',
          customerBillingAddress: { country: 'DE' },
          confirmationTokenId: 'pm_card_visa',
        },
      });
      const stats = await eventually(
        () => callV1(env.stack.baseUrl, token, 'GET', `/checkout-links/${link.id}/stats`),
        (answer) => answer.body.conversions === 1 && (answer.body.revenue as unknown[]).length === 1,
      );
      expect(stats.body).toEqual({
        checkout_link_id: link.id,
        visits: 2,
        conversions: 1,
        conversion_rate: 0.5,
        revenue: [{ currency: 'usd', amount: 4900 }],
      });
      const fromLink = await callV1(
        env.stack.baseUrl,
        token,
        'GET',
        `/checkouts/?checkout_link_id=${link.id}&status=succeeded`,
      );
      expect(
        (fromLink.body.items as { customer_email: string }[]).map((item) => item.customer_email),
      ).toEqual(['buyer@example.test']);
      expect(
        (await callV1(env.stack.baseUrl, other.token, 'GET', `/checkout-links/${link.id}/stats`)).status,
      ).toBe(404);
      expect((await callV1(env.stack.baseUrl, token, 'GET', '/checkout-links/1/stats')).status).toBe(422);
    });
  });
});
