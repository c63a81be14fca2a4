import { describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { buyInSandbox, createAccessToken, createOrganization } from '../../test/factories.js';
import { callV1 } from '../../test/http.js';
import { readPdf } from '../../test/pdf.js';
import { useTestStack } from '../../test/stack.js';

describe("after a purchase: the buyer's order on the confirmation page, the seller's address on the invoice", () => {
  const env = useTestStack();

  async function newSeller() {
    const organization = await createOrganization(env.database.db, { email: 'billing@seller.test' });
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const product = await polar.products.create({
      name: 'Field guide',
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 2500, priceCurrency: 'usd' }],
    });
    const customer = await polar.customers.create({ email: 'ada@example.test', name: 'Ada' });
    return { organization, token, polar, product, customer };
  }

  const orderOf = (clientSecret: string) =>
    fetch(`${env.stack.baseUrl}/v1/checkouts/client/${encodeURIComponent(clientSecret)}/order`);

  it('shows the order a paid checkout made by its client secret, and nothing before it is paid', async () => {
    const { polar, product, customer } = await newSeller();
    const open = await polar.checkouts.create({ products: [product.id] });
    expect((await orderOf(open.clientSecret)).status).toBe(404);
    expect((await orderOf('not-a-secret')).status).toBe(404);

    const paid = await buyInSandbox(polar, env.stack.baseUrl, product.id, customer.id);
    const answer = await orderOf(paid.clientSecret);
    expect(answer.status).toBe(200);
    const summary = (await answer.json()) as Record<string, unknown>;
    const [order] = (await polar.orders.list({ checkoutId: paid.id })).result.items;
    expect(summary).toEqual({
      id: order!.id,
      number: order!.id.slice(0, 8).toUpperCase(),
      created_at: order!.createdAt.toISOString(),
      currency: 'usd',
      items: [{ label: 'Field guide', amount: 2500, tax_amount: 0 }],
      subtotal_amount: 2500,
      discount_amount: 0,
      tax_amount: 0,
      total_amount: 2500,
    });
  });

  it("prints the organization's address and email in the invoice's seller block", async () => {
    const { organization, token, polar, product, customer } = await newSeller();
    const refused = await callV1(env.stack.baseUrl, token, 'PATCH', `/organizations/${organization.id}`, {
      address: { country: 'US', line1: '1 Main St', city: 'Springfield', state: 'XX', postal_code: '12345' },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail?.map((issue) => issue.loc)).toEqual([['body', 'address', 'state']]);
    expect(
      (await callV1(env.stack.baseUrl, token, 'GET', `/organizations/${organization.id}`)).body.address,
    ).toBeNull();

    const address = {
      country: 'US',
      line1: '1 Main St',
      line2: null,
      city: 'Springfield',
      state: 'US-IL',
      postal_code: '62701',
    };
    const saved = await callV1(env.stack.baseUrl, token, 'PATCH', `/organizations/${organization.id}`, {
      address,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.address).toMatchObject({ country: 'US', city: 'Springfield', state: 'US-IL' });

    const paid = await buyInSandbox(polar, env.stack.baseUrl, product.id, customer.id);
    const [order] = (await polar.orders.list({ checkoutId: paid.id })).result.items;
    await polar.orders.generateInvoice({ id: order!.id });
    const { url } = await polar.orders.invoice({ id: order!.id });
    const texts = (await readPdf(new Uint8Array(await (await fetch(url)).arrayBuffer())))[0]!.texts;
    const from = texts.indexOf(organization.name);
    expect(from).toBeGreaterThanOrEqual(0);
    expect(texts.slice(from, from + 5)).toEqual(
      expect.arrayContaining(['1 Main St', 'billing@seller.test', expect.stringContaining('Springfield')]),
    );

    // Clearing it takes it off later invoices.
    const cleared = await callV1(env.stack.baseUrl, token, 'PATCH', `/organizations/${organization.id}`, {
      address: null,
    });
    expect(cleared.body.address).toBeNull();
  });
});
