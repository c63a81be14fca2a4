import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

describe('/v1/discounts', () => {
  const env = useTestStack({ withWorker: false });

  async function seller() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    return { organization, token, polar: new Polar({ accessToken: token, serverURL: env.stack.baseUrl }) };
  }

  const post = async (token: string, body: unknown, path = '/discounts/', method = 'POST') => {
    const response = await fetch(`${env.stack.baseUrl}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as { detail?: { loc: unknown[] }[] };
    return { status: response.status, loc: json.detail?.[0]?.loc };
  };

  it('creates fixed and percentage discounts of every duration, restricted to products, as the SDK reads them', async () => {
    const { polar } = await seller();
    const product = await polar.products.create({
      name: 'Course',
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 5000, priceCurrency: 'usd' }],
    });
    const fixed = await polar.discounts.create({
      type: 'fixed',
      duration: 'once',
      amount: 500,
      currency: 'usd',
      name: 'Five off',
      code: 'FIVEOFF',
      products: [product.id],
      maxRedemptions: 10,
      startsAt: new Date('2026-01-01T00:00:00Z'),
      endsAt: new Date('2027-01-01T00:00:00Z'),
      metadata: { campaign: 'launch' },
    });
    expect(fixed).toMatchObject({
      type: 'fixed',
      duration: 'once',
      amount: 500,
      currency: 'usd',
      code: 'FIVEOFF',
      maxRedemptions: 10,
      redemptionsCount: 0,
      metadata: { campaign: 'launch' },
    });
    expect(fixed.products.map((item) => item.id)).toEqual([product.id]);

    const repeating = await polar.discounts.create({
      type: 'percentage',
      duration: 'repeating',
      durationInMonths: 3,
      basisPoints: 2500,
      name: 'Quarter off for a quarter',
    });
    expect(repeating).toMatchObject({
      type: 'percentage',
      basisPoints: 2500,
      durationInMonths: 3,
      code: null,
      products: [],
    });
    const forever = await polar.discounts.create({
      type: 'percentage',
      duration: 'forever',
      basisPoints: 1000,
      name: 'Ten',
    });
    expect(forever).toMatchObject({ duration: 'forever', basisPoints: 10_00 });

    expect((await polar.discounts.get({ id: fixed.id })).name).toBe('Five off');
    const listed = await polar.discounts.list({ query: 'five' });
    expect(listed.result.items.map((item) => item.id)).toEqual([fixed.id]);
    const sorted = await polar.discounts.list({ sorting: ['name'] });
    expect(sorted.result.items.map((item) => item.name)).toEqual([
      'Five off',
      'Quarter off for a quarter',
      'Ten',
    ]);
  });

  it('updates fields and terms, and deletes (freeing the code)', async () => {
    const { polar, organization } = await seller();
    const discount = await polar.discounts.create({
      type: 'fixed',
      duration: 'once',
      amount: 100,
      name: 'Small',
      code: 'small',
    });
    const updated = await polar.discounts.update({
      id: discount.id,
      discountUpdate: { name: 'Bigger', amount: 300, duration: 'repeating', durationInMonths: 2 },
    });
    expect(updated).toMatchObject({
      name: 'Bigger',
      amount: 300,
      duration: 'repeating',
      durationInMonths: 2,
      code: 'small',
    });
    const percentage = await polar.discounts.update({
      id: discount.id,
      discountUpdate: { type: 'percentage', basisPoints: 500 },
    });
    expect(percentage).toMatchObject({ type: 'percentage', basisPoints: 500 });
    expect('amount' in percentage).toBe(false);

    await polar.discounts.delete({ id: discount.id });
    await expect(polar.discounts.get({ id: discount.id })).rejects.toMatchObject({ statusCode: 404 });
    // Each change is an event in its own transaction, the discount as the API showed it then.
    const events = await env.database.db.outboxEvent.findMany({
      where: { organizationId: organization.id },
      orderBy: { sequence: 'asc' },
    });
    expect(
      events.map((event) => {
        const { data } = event.payload as { data: { name: string; type: string; deleted_at?: unknown } };
        return [event.type, data.name, data.type];
      }),
    ).toEqual([
      ['discount.created', 'Small', 'fixed'],
      ['discount.updated', 'Bigger', 'fixed'],
      ['discount.updated', 'Bigger', 'percentage'],
      ['discount.deleted', 'Bigger', 'percentage'],
    ]);
    expect(
      (
        await polar.discounts.create({
          type: 'fixed',
          duration: 'once',
          amount: 100,
          name: 'Again',
          code: 'SMALL',
        })
      ).code,
    ).toBe('SMALL');
  });

  it('keeps codes unique per organization whatever their case: 50 concurrent creates give one discount', async () => {
    const { token, polar, organization } = await seller();
    const body = { type: 'fixed', duration: 'once', amount: 100, name: 'Race', code: 'RACE50' };
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        post(token, { ...body, code: index % 2 === 0 ? 'RACE50' : 'race50' }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(
      answers
        .filter((answer) => answer.status === 422)
        .every((answer) => answer.loc?.join('.') === 'body.code'),
    ).toBe(true);
    expect(answers.filter((answer) => answer.status === 422)).toHaveLength(49);
    expect(await env.database.db.discount.count({ where: { organizationId: organization.id } })).toBe(1);
    // Another organization may use the same code.
    const other = await seller();
    expect(
      (
        await other.polar.discounts.create({
          type: 'fixed',
          duration: 'once',
          amount: 100,
          name: 'Race',
          code: 'RACE50',
        })
      ).code,
    ).toBe('RACE50');
    expect((await polar.discounts.list({})).result.items).toHaveLength(1);
  });

  it('protects what buyers were promised once a discount was redeemed', async () => {
    const { polar } = await seller();
    const discount = await polar.discounts.create({
      type: 'percentage',
      duration: 'once',
      basisPoints: 1000,
      name: 'Used',
      maxRedemptions: 5,
    });
    await env.database.db.discount.update({ where: { id: discount.id }, data: { redemptionsCount: 3 } });
    await expect(
      polar.discounts.update({ id: discount.id, discountUpdate: { basisPoints: 5000 } }),
    ).rejects.toMatchObject({ statusCode: 422 });
    await expect(
      polar.discounts.update({ id: discount.id, discountUpdate: { maxRedemptions: 2 } }),
    ).rejects.toMatchObject({ statusCode: 422 });
    expect(
      (
        await polar.discounts.update({
          id: discount.id,
          discountUpdate: { name: 'Renamed', maxRedemptions: 10 },
        })
      ).name,
    ).toBe('Renamed');
  });

  it('rejects bad input with 422 naming the field and creates nothing', async () => {
    const { token, polar } = await seller();
    const base = { name: 'Bad', duration: 'once' };
    expect(await post(token, { ...base, type: 'fixed' })).toEqual({ status: 422, loc: ['body', 'amount'] });
    expect(await post(token, { ...base, type: 'percentage', basis_points: 10_001 })).toEqual({
      status: 422,
      loc: ['body', 'basis_points'],
    });
    expect(await post(token, { ...base, type: 'fixed', amount: 100, currency: 'eur' })).toEqual({
      status: 422,
      loc: ['body', 'currency'],
    });
    expect(await post(token, { ...base, type: 'fixed', amount: 10.5 })).toEqual({
      status: 422,
      loc: ['body', 'amount'],
    });
    expect(await post(token, { ...base, type: 'fixed', amount: 100, duration: 'repeating' })).toEqual({
      status: 422,
      loc: ['body', 'duration_in_months'],
    });
    expect(await post(token, { ...base, type: 'fixed', amount: 100, code: 'a b' })).toEqual({
      status: 422,
      loc: ['body', 'code'],
    });
    expect(
      await post(token, {
        ...base,
        type: 'fixed',
        amount: 100,
        starts_at: '2027-01-01T00:00:00Z',
        ends_at: '2026-01-01T00:00:00Z',
      }),
    ).toEqual({ status: 422, loc: ['body', 'ends_at'] });
    expect(await post(token, { ...base, type: 'fixed', amount: 100, products: [randomUUID()] })).toEqual({
      status: 422,
      loc: ['body', 'products', 0],
    });
    expect((await polar.discounts.list({})).result.items).toEqual([]);
  });

  it("restricts a discount to the organization's own products only", async () => {
    const mine = await seller();
    const theirs = await seller();
    const theirProduct = await theirs.polar.products.create({
      name: 'Theirs',
      recurringInterval: null,
      prices: [{ amountType: 'free' }],
    });
    expect(
      await post(mine.token, {
        name: 'x',
        type: 'fixed',
        duration: 'once',
        amount: 100,
        products: [theirProduct.id],
      }),
    ).toEqual({
      status: 422,
      loc: ['body', 'products', 0],
    });
  });
});
