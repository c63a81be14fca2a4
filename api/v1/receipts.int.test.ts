import { describe, expect, it } from '@jest/globals';
import { Polar } from 'polar-sdk-0481';
import { eventually } from '../../test/eventually.js';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { callV1 } from '../../test/http.js';
import { readPdf } from '../../test/pdf.js';
import { useTestStack } from '../../test/stack.js';

// `orders.receipt` and the portal's `customerPortal.orders.receipt` through @polar-sh/sdk@0.48.1
// (response validation on): a paid order's receipt as a PDF, rendered like its invoice.
describe('order receipts', () => {
  const env = useTestStack();

  async function paidOrder(name = 'Acme') {
    const organization = await createOrganization(env.database.db, { name });
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const product = await polar.products.create({
      name: 'Desk lamp',
      prices: [{ amountType: 'fixed', priceAmount: 4900, priceCurrency: 'usd' }],
    });
    const customer = await polar.customers.create({ email: `ada-${name.toLowerCase()}@example.test` });
    const checkout = await polar.checkouts.create({ products: [product.id], customerId: customer.id });
    await new Polar({ serverURL: env.stack.baseUrl }).checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerName: 'Ada',
        customerBillingAddress: { country: 'DE' },
        confirmationTokenId: 'pm_card_visa',
      },
    });
    await eventually(
      () => polar.checkouts.get({ id: checkout.id }),
      (value) => value.status === 'succeeded',
    );
    const [order] = (await polar.orders.list({ checkoutId: checkout.id })).result.items;
    return { organization, token, polar, customer, order: order! };
  }

  // Over HTTP: 0.48.1 reads a `return_url` on customer sessions that Tollgate's do not have yet.
  const sessionOf = async (token: string, customerId: string) => {
    const answer = await callV1(env.stack.baseUrl, token, 'POST', '/customer-sessions/', {
      customer_id: customerId,
    });
    expect(answer.status).toBe(201);
    return answer.body as { token: string };
  };

  const textsOf = async (url: string) => {
    const response = await fetch(url);
    expect(response.status).toBe(200);
    return (await readPdf(new Uint8Array(await response.arrayBuffer())))[0]!.texts;
  };

  it('answers the seller a receipt URL whose PDF names the order, its line and total, and shows refunds since', async () => {
    const { polar, token, order } = await paidOrder();
    const receipt = await polar.orders.receipt({ id: order.id });
    expect(receipt?.url).toMatch(/^http/);
    const texts = await textsOf(receipt!.url);
    expect(texts).toEqual(expect.arrayContaining(['Receipt', 'Desk lamp', 'Acme']));
    expect(texts.join(' ')).toContain('$49.00');
    expect(texts.join(' ')).not.toContain('Invoice');

    // Over HTTP: 0.48.1 reads a refund from another status than the one Tollgate answers (0.33.2's).
    const refund = await callV1(env.stack.baseUrl, token, 'POST', '/refunds/', {
      order_id: order.id,
      reason: 'customer_request',
      amount: 1000,
    });
    expect(refund.status).toBe(200);
    await eventually(
      () => polar.orders.get({ id: order.id }),
      (value) => value.status === 'partially_refunded',
    );
    const again = await textsOf((await polar.orders.receipt({ id: order.id }))!.url);
    expect(again.join(' ')).toContain('$10.00');
  });

  it('answers the buyer in the portal, and nobody else', async () => {
    const { token, customer, order } = await paidOrder();
    const session = await sessionOf(token, customer.id);
    const portal = new Polar({ serverURL: env.stack.baseUrl });
    const receipt = await portal.customerPortal.orders.receipt(
      { customerSession: session.token },
      { id: order.id },
    );
    expect((await textsOf(receipt!.url)).includes('Receipt')).toBe(true);

    const other = await paidOrder('Other');
    const otherSession = await sessionOf(other.token, other.customer.id);
    const foreignPortal = await fetch(`${env.stack.baseUrl}/v1/customer-portal/orders/${order.id}/receipt`, {
      headers: { authorization: `Bearer ${otherSession.token}` },
    });
    expect(foreignPortal.status).toBe(404);
    const foreign = await callV1(env.stack.baseUrl, other.token, 'GET', `/orders/${order.id}/receipt`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('ResourceNotFound');
    const malformed = await callV1(env.stack.baseUrl, other.token, 'GET', '/orders/not-a-uuid/receipt');
    expect(malformed.status).toBe(422);
    expect((await fetch(`${env.stack.baseUrl}/v1/orders/${order.id}/receipt`)).status).toBe(401);
  });
});
