import { describe, expect, it } from '@jest/globals';
import { Polar } from 'polar-sdk-0481';
import { eventually } from '../../test/eventually.js';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { callV1 } from '../../test/http.js';
import { useTestStack } from '../../test/stack.js';

// Polar's payments (`payments.list`, `payments.get`) through @polar-sh/sdk@0.48.1 with its response
// validation on: every try to charge a buyer, declined ones included, from the same rows the
// order's timeline shows.
describe('payments', () => {
  const env = useTestStack();

  async function seller(name = 'Acme') {
    const organization = await createOrganization(env.database.db, { name });
    const token = await createAccessToken(env.database.db, organization.id);
    return { organization, token, polar: new Polar({ accessToken: token, serverURL: env.stack.baseUrl }) };
  }

  /** A checkout of `amount` confirmed with each card in turn, each try settled before the next. */
  async function buyWithCards(polar: Polar, email: string, amount: number, cards: string[]) {
    const product = await polar.products.create({
      name: 'Desk lamp',
      prices: [{ amountType: 'fixed', priceAmount: amount, priceCurrency: 'usd' }],
    });
    const customer = await polar.customers.create({ email });
    const checkout = await polar.checkouts.create({ products: [product.id], customerId: customer.id });
    const buyer = new Polar({ serverURL: env.stack.baseUrl });
    for (const card of cards) {
      await buyer.checkouts.clientConfirm({
        clientSecret: checkout.clientSecret,
        checkoutConfirmStripe: {
          customerName: 'Lin',
          customerBillingAddress: { country: 'DE' },
          confirmationTokenId: card,
        },
      });
      await eventually(
        () => polar.checkouts.get({ id: checkout.id }),
        (value) => value.status === 'failed' || value.status === 'succeeded',
      );
    }
    return { checkout, customer };
  }

  describe('payments.list and payments.get', () => {
    it("lists a checkout's declined try and the one that paid, with their cards and the order", async () => {
      const { organization, polar, token } = await seller();
      const { checkout, customer } = await buyWithCards(polar, 'lin@example.test', 4900, [
        'pm_card_chargeDeclinedInsufficientFunds',
        'pm_card_visa',
      ]);
      const [order] = (await polar.orders.list({ checkoutId: checkout.id })).result.items;
      const page = await polar.payments.list({ checkoutId: checkout.id, sorting: ['created_at'] });
      expect(page.result.pagination).toEqual({ totalCount: 2, maxPage: 1 });
      const [declined, paid] = page.result.items;
      expect(declined).toMatchObject({
        processor: 'stripe',
        status: 'failed',
        amount: 4900,
        currency: 'usd',
        method: 'card',
        methodMetadata: { brand: 'visa', last4: '9995' },
        declineReason: 'insufficient_funds',
        declineMessage: 'Your card has insufficient funds.',
        organizationId: organization.id,
        checkoutId: checkout.id,
        orderId: null,
      });
      expect(paid).toMatchObject({
        status: 'succeeded',
        methodMetadata: { brand: 'visa', last4: '4242' },
        declineReason: null,
        checkoutId: checkout.id,
        orderId: order!.id,
      });
      expect(paid!.processorMetadata).toEqual({
        processor: 'sandbox',
        payment_id: expect.stringMatching(/^pi_sbx_/),
      });
      expect(await polar.payments.get({ id: paid!.id })).toEqual(paid);

      // The filters: each narrows to what it names.
      const ids = async (request: Parameters<typeof polar.payments.list>[0]) =>
        (await polar.payments.list(request)).result.items.map((payment) => payment.id);
      expect(await ids({ status: 'failed' })).toEqual([declined!.id]);
      expect(await ids({ orderId: order!.id })).toEqual([paid!.id]);
      expect((await ids({ customerId: customer.id })).sort()).toEqual([declined!.id, paid!.id].sort());
      expect((await ids({ customerEmail: 'LIN@example.test' })).length).toBe(2);
      expect(await ids({ customerEmail: 'nobody@example.test' })).toEqual([]);
      expect((await ids({ method: 'card' })).length).toBe(2);
      expect(await ids({ sorting: ['-status'] })).toEqual([paid!.id, declined!.id]);
      const firstPage = await polar.payments.list({ limit: 1, sorting: ['-created_at'] });
      expect(firstPage.result).toMatchObject({
        items: [{ id: paid!.id }],
        pagination: { totalCount: 2, maxPage: 2 },
      });

      // The dashboard's timeline of the order reads the same tries.
      const timeline = await callV1(env.stack.baseUrl, token, 'GET', `/orders/${order!.id}/timeline`);
      const attempts = (timeline.body.items as { type: string; status: string; reference: string }[]).filter(
        (item) => item.type === 'payment_attempt',
      );
      expect(attempts.map((item) => item.status)).toEqual(['failed', 'succeeded']);
      expect(attempts[1]!.reference).toBe(paid!.processorMetadata!.payment_id);
    });

    it('shows a try whose card asked for 3-D Secure as pending until the buyer answers', async () => {
      const { polar } = await seller();
      const { checkout } = await buyWithCards(polar, 'kai@example.test', 2500, []);
      const buyer = new Polar({ serverURL: env.stack.baseUrl });
      await buyer.checkouts.clientConfirm({
        clientSecret: checkout.clientSecret,
        checkoutConfirmStripe: {
          customerName: 'Kai',
          customerBillingAddress: { country: 'DE' },
          confirmationTokenId: 'pm_card_authenticationRequiredChargeDeclinedInsufficientFunds',
        },
      });
      const waiting = await eventually(
        () => buyer.checkouts.clientGet({ clientSecret: checkout.clientSecret }),
        (value) => value.paymentProcessorMetadata['intent_status'] === 'requires_action',
      );
      const [pending] = (await polar.payments.list({ checkoutId: checkout.id })).result.items;
      expect(pending).toMatchObject({ status: 'pending', declineReason: null });
      const clientSecret = waiting.paymentProcessorMetadata['intent_client_secret'];
      const answer = await fetch(`${env.stack.baseUrl}/api/sandbox/payments/authenticate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_secret: clientSecret, outcome: 'complete' }),
      });
      expect(answer.status).toBe(200);
      const settled = await eventually(
        () => polar.payments.get({ id: pending!.id }),
        (payment) => payment.status !== 'pending',
      );
      expect(settled).toMatchObject({ status: 'failed', declineReason: 'insufficient_funds' });
    });

    it("answers 404 for another organization's payment and a missing one, 422 for bad input, and lists none of it", async () => {
      const { polar } = await seller();
      const other = await seller('Other');
      const { checkout } = await buyWithCards(polar, 'ola@example.test', 1000, ['pm_card_visa']);
      const [payment] = (await polar.payments.list({ checkoutId: checkout.id })).result.items;
      const foreign = await callV1(env.stack.baseUrl, other.token, 'GET', `/payments/${payment!.id}`);
      expect(foreign.status).toBe(404);
      expect(foreign.body.error).toBe('ResourceNotFound');
      const missing = await callV1(
        env.stack.baseUrl,
        other.token,
        'GET',
        '/payments/00000000-0000-4000-8000-000000000000',
      );
      expect(missing.status).toBe(404);
      expect((await other.polar.payments.list({ checkoutId: checkout.id })).result.items).toEqual([]);
      const malformed = await callV1(env.stack.baseUrl, other.token, 'GET', '/payments/not-a-uuid');
      expect(malformed.status).toBe(422);
      expect(malformed.body.detail?.[0]?.loc).toEqual(['path', 'id']);
      const badStatus = await callV1(env.stack.baseUrl, other.token, 'GET', '/payments/?status=refunded');
      expect(badStatus.status).toBe(422);
      expect(badStatus.body.detail?.[0]?.loc).toEqual(['query', 'status']);
      const badSorting = await callV1(env.stack.baseUrl, other.token, 'GET', '/payments/?sorting=customer');
      expect(badSorting.status).toBe(422);
    });
  });
});
