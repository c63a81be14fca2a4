import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { createAccessToken, createCustomField, createOrganization } from '../../test/factories.js';
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

  describe('the public URL with query parameters', () => {
    async function shop() {
      const { organization, polar, product: other } = await seller();
      const db = env.database.db;
      const [company, seats, terms] = [
        await createCustomField(db, organization.id, { slug: 'company', name: 'Company', type: 'text' }),
        await createCustomField(db, organization.id, {
          slug: 'seats',
          name: 'Seats',
          type: 'number',
          properties: { ge: 1, le: 10 },
        }),
        await createCustomField(db, organization.id, { slug: 'terms', name: 'Terms', type: 'checkbox' }),
      ];
      const product = await polar.products.create({
        name: 'Donation',
        recurringInterval: null,
        prices: [
          {
            amountType: 'custom',
            priceCurrency: 'usd',
            minimumAmount: 500,
            maximumAmount: 10_000,
            presetAmount: 1500,
          },
        ],
        attachedCustomFields: [
          { customFieldId: company.id, required: true },
          { customFieldId: seats.id, required: false },
          { customFieldId: terms.id, required: false },
        ],
      });
      const discount = (code: string, basisPoints: number, products?: string[]) =>
        polar.discounts.create({
          type: 'percentage',
          duration: 'once',
          basisPoints,
          name: code,
          code,
          products,
        });
      return {
        polar,
        product,
        ten: await discount('TEN', 1000),
        five: await discount('FIVE', 500),
        // Restricted to another product: not valid for this checkout.
        elsewhere: await discount('ELSEWHERE', 2000, [other.id]),
      };
    }

    /** Visits the link with this query; answers where it sent the buyer and the checkout as the SDK reads it. */
    async function visit(polar: Polar, url: string, query: Record<string, string>) {
      const response = await fetch(`${url}?${new URLSearchParams(query).toString()}`, { redirect: 'manual' });
      expect(response.status).toBe(303);
      const location = new URL(response.headers.get('location')!);
      const clientSecret = location.pathname.replace('/checkout/', '');
      const row = await env.database.db.checkout.findUniqueOrThrow({ where: { clientSecret } });
      return { location, checkout: await polar.checkouts.get({ id: row.id }) };
    }

    it('prefills the checkout and opens the embedded page, as Polar’s links and embed script ask', async () => {
      const { polar, product, ten } = await shop();
      const link = await polar.checkoutLinks.create({
        productId: product.id,
        metadata: { channel: 'newsletter', utm_source: 'seller' },
      });
      const { location, checkout } = await visit(polar, link.url, {
        embed: 'true',
        embed_origin: 'https://shop.example.test',
        customer_email: 'Ada@Example.test',
        customer_name: 'Ada Lovelace',
        discount_code: 'ten',
        amount: '4200',
        'custom_field_data.company': 'Acme',
        'custom_field_data[seats]': '3',
        'custom_field_data.terms': 'yes',
        reference_id: 'order-17',
        utm_source: 'search',
        utm_campaign: 'spring',
      });
      expect(`${location.origin}${location.pathname}`).toBe(checkout.url);
      expect(location.search).toBe('?embed=true');
      expect(checkout).toMatchObject({
        status: 'open',
        embedOrigin: 'https://shop.example.test',
        customerEmail: 'ada@example.test',
        customerName: 'Ada Lovelace',
        discountId: ten.id,
        amount: 4200,
        discountAmount: 420,
        netAmount: 3780,
        customFieldData: { company: 'Acme', seats: 3, terms: true },
        // The link's own metadata wins over the URL's (Polar).
        metadata: {
          channel: 'newsletter',
          utm_source: 'seller',
          reference_id: 'order-17',
          utm_campaign: 'spring',
        },
      });
      // The embedding page may call the client endpoints of this checkout (CORS).
      const preflight = await fetch(`${env.stack.baseUrl}/v1/checkouts/client/${checkout.clientSecret}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://shop.example.test',
          'access-control-request-method': 'PATCH',
          'access-control-request-headers': 'content-type, polar-version',
        },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBe('https://shop.example.test');
      // Polar's current browser SDK names its version on every call, and may read it back.
      expect(preflight.headers.get('access-control-allow-headers')).toBe('Content-Type, Polar-Version');
      expect(preflight.headers.get('access-control-expose-headers')).toBe('Polar-Version');
    });

    it('leaves out every prefill that does not fit and still opens the checkout', async () => {
      const { polar, product, five } = await shop();
      const link = await polar.checkoutLinks.create({ productId: product.id });
      const { location, checkout } = await visit(polar, link.url, {
        embed: 'true',
        embed_origin: 'https://shop.example.test/store',
        customer_email: 'not-an-email',
        customer_name: 'Grace Hopper',
        discount_code: 'ELSEWHERE',
        amount: '100',
        'custom_field_data.company': 'Initech',
        'custom_field_data.seats': '99',
        'custom_field_data.terms': 'maybe',
        'custom_field_data.unknown': 'x',
        reference_id: 'r'.repeat(501),
        utm_medium: 'email',
      });
      // embed=true alone still asks for the embedded page; without an origin it posts to no parent.
      expect(location.search).toBe('?embed=true');
      expect(checkout).toMatchObject({
        embedOrigin: null,
        customerEmail: null,
        customerName: 'Grace Hopper',
        discountId: null,
        amount: 1500,
        customFieldData: { company: 'Initech', seats: null, terms: false },
        metadata: { utm_medium: 'email' },
      });

      // A code that does not apply leaves the link's own discount; an unknown one too.
      const discounted = await polar.checkoutLinks.create({ productId: product.id, discountId: five.id });
      for (const code of ['ELSEWHERE', 'NOSUCHCODE']) {
        const visited = await visit(polar, discounted.url, { discount_code: code });
        expect(visited.location.search).toBe('');
        expect(visited.checkout).toMatchObject({ discountId: five.id, discountAmount: 75 });
      }
      // A link that takes no codes takes none from its URL either.
      const noCodes = await polar.checkoutLinks.create({ productId: product.id, allowDiscountCodes: false });
      expect((await visit(polar, noCodes.url, { discount_code: 'TEN' })).checkout.discountId).toBeNull();

      // What no prefill explains is not hidden by leaving prefills out: a retired product is gone.
      const retired = await polar.products.create({
        name: 'Club',
        recurringInterval: null,
        prices: [{ amountType: 'fixed', priceAmount: 900, priceCurrency: 'usd' }],
      });
      const retiredLink = await polar.checkoutLinks.create({ productId: retired.id });
      await polar.products.update({ id: retired.id, productUpdate: { isArchived: true } });
      const refused = await fetch(`${retiredLink.url}?amount=100&custom_field_data.company=Acme`, {
        redirect: 'manual',
      });
      expect(refused.status).toBe(404);

      // A buyer's browser never sees that JSON: it gets a page that says why, and no checkout.
      const asBrowser = {
        redirect: 'manual',
        headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
      } as const;
      const checkoutsBefore = await env.database.db.checkout.count({
        where: { checkoutLinkId: retiredLink.id },
      });
      const page = await fetch(retiredLink.url, asBrowser);
      expect(page.status).toBe(303);
      expect(page.headers.get('location')).toBe('/checkout/unavailable?reason=not_found');
      expect(await env.database.db.checkout.count({ where: { checkoutLinkId: retiredLink.id } })).toBe(
        checkoutsBefore,
      );
      const missing = await fetch(`${env.stack.baseUrl}/api/checkout-links/nonsense`, asBrowser);
      expect(missing.status).toBe(303);
      expect(missing.headers.get('location')).toBe('/checkout/unavailable?reason=not_found');
    });
  });

  it("refuses another organization's products on update", async () => {
    const mine = await seller();
    const theirs = await seller();
    await expect(
      mine.polar.checkoutLinks.update({
        id: (await mine.polar.checkoutLinks.create({ productId: mine.product.id })).id,
        checkoutLinkUpdate: { products: [theirs.product.id] },
      }),
    ).rejects.toMatchObject({ statusCode: 422 });
  });
});
