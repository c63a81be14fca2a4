import { describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { createAccessToken, createCustomField, createOrganization } from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

const ADDRESS = { country: 'DE', city: 'Berlin', postalCode: '10117', line1: 'Unter den Linden 1' };

describe('/v1/checkouts: seller calls, custom fields, embedding, tampering', () => {
  const env = useTestStack({ withWorker: false });

  async function seller() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    return { organization, token, polar };
  }

  it('validates custom field data against the product’s fields and leaves the checkout unchanged on a 422', async () => {
    const { organization, polar } = await seller();
    const field = await createCustomField(env.database.db, organization.id, {
      slug: 'seats',
      name: 'Seats',
      type: 'number',
      properties: { ge: 1, le: 50 },
    });
    const product = await polar.products.create({
      name: 'Workshop',
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 9900, priceCurrency: 'usd' }],
      attachedCustomFields: [{ customFieldId: field.id, required: true }],
    });
    const checkout = await polar.checkouts.create({ products: [product.id] });
    const url = `${env.stack.baseUrl}/v1/checkouts/client/${checkout.clientSecret}`;
    const patch = (body: unknown) =>
      fetch(url, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    const tooMany = await patch({ custom_field_data: { seats: 51 }, customer_name: 'Changed' });
    expect(tooMany.status).toBe(422);
    const detail = ((await tooMany.json()) as { detail: { loc: unknown[] }[] }).detail;
    expect(detail[0]!.loc).toEqual(['body', 'custom_field_data', 'seats']);
    const unchanged = await polar.checkouts.get({ id: checkout.id });
    expect(unchanged.customerName).toBeNull();

    expect((await patch({ custom_field_data: { unknown: 'x' } })).status).toBe(422);
    const confirm = await fetch(`${url}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        customer_email: 'ann@example.test',
        customer_billing_address: {
          country: 'DE',
          city: 'Berlin',
          postal_code: '10117',
          line1: 'Unter den Linden 1',
        },
        confirmation_token_id: 'pm_card_visa',
      }),
    });
    expect(confirm.status).toBe(422);
    expect(JSON.stringify(await confirm.json())).toContain('seats');
    expect((await polar.checkouts.get({ id: checkout.id })).status).toBe('open');

    const ok = await patch({ custom_field_data: { seats: '3' } });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { custom_field_data: unknown }).custom_field_data).toEqual({ seats: 3 });
  });

  it('ignores amounts a buyer sends for a fixed price and refuses unknown fields', async () => {
    const { polar } = await seller();
    const product = await polar.products.create({
      name: 'Poster',
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 3000, priceCurrency: 'usd' }],
    });
    const checkout = await polar.checkouts.create({ products: [product.id] });
    const buyer = new Polar({ serverURL: env.stack.baseUrl });
    const updated = await buyer.checkouts.clientUpdate({
      clientSecret: checkout.clientSecret,
      checkoutUpdatePublic: { amount: 1 },
    });
    expect(updated).toMatchObject({ amount: 3000, totalAmount: 3000 });
    const sneaky = await fetch(`${env.stack.baseUrl}/v1/checkouts/client/${checkout.clientSecret}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ total_amount: 1 }),
    });
    expect(sneaky.status).toBe(422);
  });

  it('lets the seller list and update checkouts, with customer fields and metadata', async () => {
    const { polar } = await seller();
    const product = await polar.products.create({
      name: 'Course',
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 5000, priceCurrency: 'usd' }],
    });
    const customer = await polar.customers.create({
      email: 'known@example.test',
      name: 'Known',
      externalId: 'crm-1',
    });
    const checkout = await polar.checkouts.create({
      products: [product.id],
      customerId: customer.id,
      customerBillingAddress: ADDRESS,
      requireBillingAddress: true,
    });
    expect(checkout).toMatchObject({
      customerId: customer.id,
      customerEmail: 'known@example.test',
      customerExternalId: 'crm-1',
      requireBillingAddress: true,
    });
    expect(checkout.customerBillingAddressFields).toMatchObject({ country: true, city: true, line1: true });
    const updated = await polar.checkouts.update({
      id: checkout.id,
      checkoutUpdate: { metadata: { source: 'sales' }, customerName: 'Known Buyer' },
    });
    expect(updated).toMatchObject({ metadata: { source: 'sales' }, customerName: 'Known Buyer' });
    const listed = await polar.checkouts.list({ status: 'open', query: 'known@' });
    expect(listed.result.items.map((item) => item.id)).toEqual([checkout.id]);
  });

  it('answers CORS for its own origin and the checkout’s embed origin only', async () => {
    const { polar } = await seller();
    const product = await polar.products.create({
      name: 'Embed',
      recurringInterval: null,
      prices: [{ amountType: 'free' }],
    });
    const checkout = await polar.checkouts.create({
      products: [product.id],
      embedOrigin: 'https://shop.example.test',
    });
    const preflight = (origin: string) =>
      fetch(`${env.stack.baseUrl}/v1/checkouts/client/${checkout.clientSecret}`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'PATCH' },
      });
    const embedded = await preflight('https://shop.example.test');
    expect(embedded.status).toBe(204);
    expect(embedded.headers.get('access-control-allow-origin')).toBe('https://shop.example.test');
    const foreign = await preflight('https://evil.example.test');
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('gives back the redemption a failed checkout still holds when the buyer swaps or drops the code', async () => {
    const { polar } = await seller();
    const product = await polar.products.create({
      name: 'Atlas',
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 4000, priceCurrency: 'usd' }],
    });
    const held = await polar.discounts.create({
      type: 'percentage',
      duration: 'once',
      basisPoints: 1000,
      name: 'Held',
      code: 'HELD',
      maxRedemptions: 1,
    });
    const other = await polar.discounts.create({
      type: 'percentage',
      duration: 'once',
      basisPoints: 2000,
      name: 'Other',
      code: 'OTHER',
    });
    const buyer = new Polar({ serverURL: env.stack.baseUrl });
    const { db } = env.database;
    // A failed attempt that kept its redemption: the state the swap rule exists for.
    const holding = async (discountId: string) => {
      const checkout = await polar.checkouts.create({ products: [product.id], discountId });
      await db.checkout.update({
        where: { id: checkout.id },
        data: { status: 'failed', discountRedeemed: true },
      });
      await db.discount.update({ where: { id: discountId }, data: { redemptionsCount: 1 } });
      return checkout;
    };
    const redemptions = async (id: string) =>
      (await db.discount.findUniqueOrThrow({ where: { id } })).redemptionsCount;

    const swapped = await holding(held.id);
    const updated = await buyer.checkouts.clientUpdate({
      clientSecret: swapped.clientSecret,
      checkoutUpdatePublic: { discountCode: 'other' },
    });
    expect(updated).toMatchObject({ discountId: other.id, discountAmount: 800 });
    expect(await redemptions(held.id)).toBe(0);
    expect(await redemptions(other.id)).toBe(0);
    expect((await db.checkout.findUniqueOrThrow({ where: { id: swapped.id } })).discountRedeemed).toBe(false);

    const dropped = await holding(held.id);
    const cleared = await buyer.checkouts.clientUpdate({
      clientSecret: dropped.clientSecret,
      checkoutUpdatePublic: { discountCode: null },
    });
    expect(cleared).toMatchObject({ discountId: null, discountAmount: 0 });
    expect(await redemptions(held.id)).toBe(0);

    // Keeping the code keeps the redemption: nothing is given back.
    const kept = await holding(held.id);
    await buyer.checkouts.clientUpdate({
      clientSecret: kept.clientSecret,
      checkoutUpdatePublic: { customerName: 'Kept' },
    });
    expect(await redemptions(held.id)).toBe(1);
    expect((await db.checkout.findUniqueOrThrow({ where: { id: kept.id } })).discountRedeemed).toBe(true);
  });
});
