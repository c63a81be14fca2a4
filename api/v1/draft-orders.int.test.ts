import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { Polar } from 'polar-sdk-0481';
import { OrderNotDraft } from 'polar-sdk-0481/models/errors/ordernotdraft.js';
import { PaymentActionRequired } from 'polar-sdk-0481/models/errors/paymentactionrequired.js';
import { PaymentFailed } from 'polar-sdk-0481/models/errors/paymentfailed.js';
import type { Db } from '../../infra/db.js';
import { eventually } from '../../test/eventually.js';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { callV1 } from '../../test/http.js';
import { useTestStack } from '../../test/stack.js';

// Draft orders (`orders.create`, `orders.finalize`) through @polar-sdk@0.48.1 with its response
// validation on, against the sandbox processor: a seller's off-session charge of a one-time
// product to a customer's saved card (docs/orders.md).

/** A card the customer saved, as the portal keeps it: the sandbox's customer and test card. */
async function saveCard(
  db: Db,
  organizationId: string,
  customerId: string,
  testCard: string,
  isDefault = true,
) {
  const processorCustomerId = `cus_sbx_${randomUUID().replaceAll('-', '')}`;
  await db.sandboxCustomer.create({
    data: {
      id: processorCustomerId,
      idempotencyKey: `test:${processorCustomerId}`,
      requestHash: 'test',
      customerId,
      email: 'buyer@example.test',
    },
  });
  return db.customerPaymentMethod.create({
    data: {
      organizationId,
      customerId,
      processor: 'sandbox',
      processorPaymentMethodId: testCard,
      processorCustomerId,
      brand: 'visa',
      last4: '4242',
      isDefault,
    },
  });
}

describe('draft orders', () => {
  const env = useTestStack();

  async function seller() {
    const { db } = env.database;
    const organization = await createOrganization(db);
    const token = await createAccessToken(db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const benefit = await polar.benefits.create({ type: 'custom', description: 'Tokens', properties: {} });
    const product = await polar.products.create({
      name: 'Token pack',
      prices: [{ amountType: 'fixed', priceAmount: 2500, priceCurrency: 'usd' }],
    });
    await polar.products.updateBenefits({
      id: product.id,
      productBenefitsUpdate: { benefits: [benefit.id] },
    });
    const customer = await polar.customers.create({ email: `buyer-${randomUUID()}@example.test` });
    return { db, organization, token, polar, product, customer, benefit };
  }

  const eventsOf = async (db: Db, organizationId: string, orderId: string) =>
    (await db.outboxEvent.findMany({ where: { organizationId }, orderBy: { sequence: 'asc' } }))
      .filter((event) => (event.payload as { data?: { id?: string } }).data?.id === orderId)
      .map((event) => event.type);

  describe('orders.create', () => {
    it('makes a draft priced and labelled as asked, sends order.created, and lists it as a draft', async () => {
      const { db, organization, polar, product, customer } = await seller();
      const draft = await polar.orders.create({
        customerId: customer.id,
        productId: product.id,
        amount: 5000,
        description: '5,000 tokens',
        metadata: { batch: 'b-7' },
      });
      expect(draft).toMatchObject({
        status: 'draft',
        paid: false,
        subtotalAmount: 5000,
        totalAmount: 5000,
        dueAmount: 5000,
        currency: 'usd',
        billingReason: 'purchase',
        metadata: { batch: 'b-7' },
        items: [expect.objectContaining({ label: '5,000 tokens', amount: 5000 })],
      });
      const plain = await polar.orders.create({ customerId: customer.id, productId: product.id });
      expect(plain).toMatchObject({
        totalAmount: 2500,
        items: [expect.objectContaining({ label: 'Token pack' })],
      });
      const listed = await polar.orders.list({});
      expect(listed.result.items.map((order) => [order.id, order.status]).sort()).toEqual(
        [
          [draft.id, 'draft'],
          [plain.id, 'draft'],
        ].sort(),
      );
      expect(await eventsOf(db, organization.id, draft.id)).toEqual(['order.created']);
    });

    it('refuses a recurring product, a seat product, a foreign customer and amounts the currency cannot hold, creating nothing', async () => {
      const { db, organization, token, polar, product, customer } = await seller();
      const other = await seller();
      const plan = await polar.products.create({
        name: 'Plan',
        recurringInterval: 'month',
        prices: [{ amountType: 'fixed', priceAmount: 900, priceCurrency: 'usd' }],
      });
      const seats = await polar.products.create({
        name: 'Seats',
        prices: [
          {
            amountType: 'seat_based',
            priceCurrency: 'usd',
            seatTiers: { tiers: [{ minSeats: 1, pricePerSeat: 1000 }] },
          },
        ],
      });
      const create = (body: Record<string, unknown>) =>
        callV1(env.stack.baseUrl, token, 'POST', '/orders/', body);
      const cases: [Record<string, unknown>, (string | number)[], RegExp][] = [
        [{ product_id: plan.id, customer_id: customer.id }, ['body', 'product_id'], /Subscription products/],
        // A draft has no seats to sell: nobody chose how many.
        [{ product_id: seats.id, customer_id: customer.id }, ['body', 'product_id'], /fixed-price products/],
        [
          { product_id: product.id, customer_id: other.customer.id },
          ['body', 'customer_id'],
          /does not exist/,
        ],
        [
          { product_id: other.product.id, customer_id: customer.id },
          ['body', 'product_id'],
          /does not exist/,
        ],
        [
          { product_id: product.id, customer_id: customer.id, amount: 1099.5 },
          ['body', 'amount'],
          /whole number/,
        ],
        [
          { product_id: product.id, customer_id: customer.id, amount: 10 },
          ['body', 'amount'],
          /at least \$0\.50/,
        ],
        [{ product_id: product.id, customer_id: customer.id, currency: 'eur' }, ['body', 'currency'], /eur/],
      ];
      for (const [body, loc, msg] of cases) {
        const answer = await create(body);
        expect(answer.status).toBe(422);
        expect(answer.body.detail).toEqual([
          expect.objectContaining({ loc, msg: expect.stringMatching(msg) }),
        ]);
      }
      expect(await db.order.count({ where: { organizationId: organization.id } })).toBe(0);
    });
  });

  describe('orders.finalize', () => {
    it('charges the default card: paid, order.updated and order.paid, a payment row, the benefit granted', async () => {
      const { db, organization, token, polar, product, customer, benefit } = await seller();
      await saveCard(db, organization.id, customer.id, 'pm_card_visa');
      const draft = await polar.orders.create({ customerId: customer.id, productId: product.id });
      const paid = await polar.orders.finalize({ id: draft.id });
      expect(paid).toMatchObject({ id: draft.id, status: 'paid', paid: true, dueAmount: 0 });
      expect(await eventsOf(db, organization.id, draft.id)).toEqual([
        'order.created',
        'order.updated',
        'order.paid',
      ]);
      // `trigger` is newer than 0.48.1's Payment: read as the API answers it.
      const payments = await callV1(env.stack.baseUrl, token, 'GET', `/payments/?order_id=${draft.id}`);
      expect(payments.body.items).toEqual([
        expect.objectContaining({ status: 'succeeded', amount: 2500, trigger: 'purchase' }),
      ]);
      await eventually(
        async () => (await polar.benefits.grants({ id: benefit.id })).result.items,
        (grants) => grants.length === 1 && grants[0]!.isGranted,
      );
      await expect(polar.orders.finalize({ id: draft.id })).rejects.toBeInstanceOf(OrderNotDraft);
    });

    it('answers a decline with 402 PaymentFailed and keeps the draft, which a second card then pays', async () => {
      const { db, organization, polar, product, customer } = await seller();
      await saveCard(db, organization.id, customer.id, 'pm_card_chargeDeclinedInsufficientFunds');
      const good = await saveCard(db, organization.id, customer.id, 'pm_card_visa', false);
      const draft = await polar.orders.create({ customerId: customer.id, productId: product.id });
      const declined = await polar.orders.finalize({ id: draft.id }).catch((error: unknown) => error);
      expect(declined).toBeInstanceOf(PaymentFailed);
      expect((declined as PaymentFailed).detail).toMatch(/insufficient_funds/);
      expect((await polar.orders.get({ id: draft.id })).status).toBe('draft');
      const paid = await polar.orders.finalize({ id: draft.id, orderFinalize: { paymentMethodId: good.id } });
      expect(paid.status).toBe('paid');
      const payments = await db.payment.findMany({
        where: { orderId: draft.id },
        orderBy: { createdAt: 'asc' },
      });
      expect(payments.map((payment) => [payment.requestKey, payment.status])).toEqual([
        [`order:${draft.id}:finalize:1`, 'failed'],
        [`order:${draft.id}:finalize:2`, 'succeeded'],
      ]);
    });

    it('answers a card that asks for 3-D Secure with 402 PaymentActionRequired; the order stays a draft', async () => {
      const { db, organization, polar, product, customer } = await seller();
      await saveCard(db, organization.id, customer.id, 'pm_card_authenticationRequired');
      const draft = await polar.orders.create({ customerId: customer.id, productId: product.id });
      await expect(polar.orders.finalize({ id: draft.id })).rejects.toBeInstanceOf(PaymentActionRequired);
      expect((await polar.orders.get({ id: draft.id })).status).toBe('draft');
    });

    it("refuses another customer's card and a customer without one with 402, charging nothing", async () => {
      const { db, organization, polar, product, customer } = await seller();
      const stranger = await polar.customers.create({ email: `other-${randomUUID()}@example.test` });
      const theirs = await saveCard(db, organization.id, stranger.id, 'pm_card_visa');
      const draft = await polar.orders.create({ customerId: customer.id, productId: product.id });
      const noCard = await polar.orders.finalize({ id: draft.id }).catch((error: unknown) => error);
      expect((noCard as PaymentFailed).detail).toMatch(/missing_payment_method/);
      const foreign = await polar.orders
        .finalize({ id: draft.id, orderFinalize: { paymentMethodId: theirs.id } })
        .catch((error: unknown) => error);
      expect(foreign).toBeInstanceOf(PaymentFailed);
      expect(await db.payment.count({ where: { orderId: draft.id } })).toBe(0);
      expect((await polar.orders.get({ id: draft.id })).status).toBe('draft');
    });

    it('pays a free draft without a card or a charge', async () => {
      const { db, organization, polar, customer } = await seller();
      const free = await polar.products.create({ name: 'Sample', prices: [{ amountType: 'free' }] });
      const draft = await polar.orders.create({ customerId: customer.id, productId: free.id });
      expect(draft.totalAmount).toBe(0);
      expect((await polar.orders.finalize({ id: draft.id })).status).toBe('paid');
      expect(await db.payment.count({ where: { orderId: draft.id } })).toBe(0);
      expect(await eventsOf(db, organization.id, draft.id)).toEqual([
        'order.created',
        'order.updated',
        'order.paid',
      ]);
    });

    it('charges once when two finalize calls race: one pays, the other answers 412', async () => {
      const { db, organization, token, polar, product, customer } = await seller();
      const card = await saveCard(db, organization.id, customer.id, 'pm_card_visa');
      const draft = await polar.orders.create({ customerId: customer.id, productId: product.id });
      const answers = await Promise.all(
        [1, 2, 3].map(() => callV1(env.stack.baseUrl, token, 'POST', `/orders/${draft.id}/finalize`, {})),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 412, 412]);
      expect(await db.payment.count({ where: { orderId: draft.id } })).toBe(1);
      expect(
        await db.sandboxPayment.count({
          where: { paymentMethod: card.processorPaymentMethodId, customer: card.processorCustomerId },
        }),
      ).toBe(1);
    });
  });
});
