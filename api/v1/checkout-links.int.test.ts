import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

describe('/v1/checkout-links', () => {
  const env = useTestStack({ withWorker: false });

  async function seller() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const product = await polar.products.create({
      name: 'Ebook',
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 1500, priceCurrency: 'usd' }],
    });
    return { organization, token, polar, product };
  }

  const post = async (token: string, body: unknown) => {
    const response = await fetch(`${env.stack.baseUrl}/v1/checkout-links/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      loc: ((await response.json()) as { detail?: { loc: unknown[] }[] }).detail?.[0]?.loc,
    };
  };

  it('creates links from a price, a product or several products, as the SDK reads them', async () => {
    const { polar, product, organization } = await seller();
    const second = await polar.products.create({
      name: 'Course',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 900, priceCurrency: 'usd' }],
    });
    const discount = await polar.discounts.create({
      type: 'percentage',
      duration: 'once',
      basisPoints: 1000,
      name: 'Ten',
    });

    const fromPrice = await polar.checkoutLinks.create({
      productPriceId: product.prices[0]!.id,
      label: 'Launch',
      successUrl: 'https://shop.example.test/thanks?checkout={CHECKOUT_ID}',
      discountId: discount.id,
      metadata: { channel: 'newsletter' },
    });
    expect(fromPrice).toMatchObject({
      paymentProcessor: 'stripe',
      label: 'Launch',
      allowDiscountCodes: true,
      requireBillingAddress: false,
      discountId: discount.id,
      organizationId: organization.id,
      metadata: { channel: 'newsletter' },
    });
    expect(fromPrice.products.map((item) => item.id)).toEqual([product.id]);
    expect(fromPrice.discount).toMatchObject({ id: discount.id, basisPoints: 1000 });
    expect(fromPrice.url).toBe(`${env.stack.baseUrl}/api/checkout-links/${fromPrice.clientSecret}`);

    const fromProduct = await polar.checkoutLinks.create({
      productId: product.id,
      requireBillingAddress: true,
    });
    expect(fromProduct.requireBillingAddress).toBe(true);
    const several = await polar.checkoutLinks.create({
      products: [second.id, product.id],
      allowDiscountCodes: false,
    });
    expect(several.products.map((item) => item.id)).toEqual([second.id, product.id]);
    expect(several.products[0]!.prices[0]).toMatchObject({ amountType: 'fixed', priceAmount: 900 });

    const withSecond = await polar.checkoutLinks.list({ productId: second.id });
    expect(withSecond.result.items.map((link) => link.id)).toEqual([several.id]);
    expect((await polar.checkoutLinks.list({})).result.pagination.totalCount).toBe(3);
    expect((await polar.checkoutLinks.get({ id: fromPrice.id })).clientSecret).toBe(fromPrice.clientSecret);
  });

  it('updates products, discount and options, and deletes; the public URL starts a fresh checkout each visit, then 404', async () => {
    const { polar, product } = await seller();
    const other = await polar.products.create({
      name: 'Other',
      recurringInterval: null,
      prices: [{ amountType: 'free' }],
    });
    const link = await polar.checkoutLinks.create({ productId: product.id });
    const updated = await polar.checkoutLinks.update({
      id: link.id,
      checkoutLinkUpdate: {
        products: [other.id],
        label: 'Renamed',
        allowDiscountCodes: false,
        successUrl: null,
      },
    });
    expect(updated).toMatchObject({ label: 'Renamed', allowDiscountCodes: false });
    expect(updated.products.map((item) => item.id)).toEqual([other.id]);

    const visits = [
      await fetch(link.url, { redirect: 'manual' }),
      await fetch(link.url, { redirect: 'manual' }),
    ];
    expect(visits.map((visit) => visit.status)).toEqual([303, 303]);
    const locations = visits.map((visit) => visit.headers.get('location'));
    expect(locations[0]).toMatch(new RegExp(`^${env.stack.baseUrl}/checkout/tollgate_c_`));
    expect(locations[1]).not.toBe(locations[0]);
    const started = await polar.checkouts.list({ productId: other.id });
    expect(started.result.items).toHaveLength(2);
    expect(started.result.items[0]).toMatchObject({
      allowDiscountCodes: false,
      productId: other.id,
      amount: 0,
    });
    await polar.checkoutLinks.delete({ id: link.id });
    await expect(polar.checkoutLinks.get({ id: link.id })).rejects.toMatchObject({ statusCode: 404 });
    expect((await fetch(link.url)).status).toBe(404);
    expect((await fetch(`${env.stack.baseUrl}/api/checkout-links/nonsense`)).status).toBe(404);
  });

  it('rejects bad input with 422 naming the field and creates nothing', async () => {
    const { token, polar, product } = await seller();
    const archived = await polar.products.create({
      name: 'Old',
      recurringInterval: null,
      prices: [{ amountType: 'free' }],
    });
    await polar.products.update({ id: archived.id, productUpdate: { isArchived: true } });
    expect(await post(token, {})).toEqual({ status: 422, loc: ['body', 'products'] });
    expect(await post(token, { product_id: product.id, products: [product.id] })).toEqual({
      status: 422,
      loc: ['body', 'products'],
    });
    expect(await post(token, { product_id: randomUUID() })).toEqual({
      status: 422,
      loc: ['body', 'product_id'],
    });
    expect(await post(token, { product_id: archived.id })).toEqual({
      status: 422,
      loc: ['body', 'product_id'],
    });
    expect(await post(token, { products: [product.id, product.id] })).toEqual({
      status: 422,
      loc: ['body', 'products', 1],
    });
    expect(await post(token, { product_id: product.id, discount_id: randomUUID() })).toEqual({
      status: 422,
      loc: ['body', 'discount_id'],
    });
    expect(await post(token, { product_id: product.id, success_url: 'ftp://x' })).toEqual({
      status: 422,
      loc: ['body', 'success_url'],
    });
    expect(await post(token, { product_price_id: randomUUID() })).toEqual({
      status: 422,
      loc: ['body', 'product_price_id'],
    });
    expect((await polar.checkoutLinks.list({})).result.items).toEqual([]);
  });

  it("answers 404 for another organization's link and refuses its products", async () => {
    const mine = await seller();
    const theirs = await seller();
    const link = await theirs.polar.checkoutLinks.create({ productId: theirs.product.id });
    const notFound = { statusCode: 404 };
    await expect(mine.polar.checkoutLinks.get({ id: link.id })).rejects.toMatchObject(notFound);
    await expect(
      mine.polar.checkoutLinks.update({ id: link.id, checkoutLinkUpdate: { label: 'x' } }),
    ).rejects.toMatchObject(notFound);
    await expect(mine.polar.checkoutLinks.delete({ id: link.id })).rejects.toMatchObject(notFound);
    expect((await mine.polar.checkoutLinks.list({})).result.items).toEqual([]);
    expect(await post(mine.token, { product_id: theirs.product.id })).toEqual({
      status: 422,
      loc: ['body', 'product_id'],
    });
    await expect(
      mine.polar.checkoutLinks.update({
        id: (await mine.polar.checkoutLinks.create({ productId: mine.product.id })).id,
        checkoutLinkUpdate: { products: [theirs.product.id] },
      }),
    ).rejects.toMatchObject({ statusCode: 422 });
  });
});
