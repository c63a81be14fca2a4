import { afterEach, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { validateEvent } from '@polar-sh/sdk/webhooks';
import {
  buyInSandbox,
  createAccessToken,
  createOrganization,
  createUploadedFile,
} from '../../test/factories.js';
import { eventually } from '../../test/eventually.js';
import { useTestStack } from '../../test/stack.js';
import { startWebhookReceiver } from '../../test/webhook-receiver.js';

const WEBHOOK_SECRET = 'tollgate_whs_benefit-grants-secret';

describe('benefit grants: what a buyer paid for is granted, cycled, updated and revoked (through @polar-sh/sdk)', () => {
  const env = useTestStack();
  const receivers: Awaited<ReturnType<typeof startWebhookReceiver>>[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((receiver) => receiver.stop()));
  });

  async function seller() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    return { organization, token, polar };
  }

  const buy = (polar: Polar, productId: string, customerId: string) =>
    buyInSandbox(polar, env.stack.baseUrl, productId, customerId);

  const grantsOf = async (polar: Polar, benefitId: string) =>
    (await polar.benefits.grants({ id: benefitId, limit: 100 })).result.items;

  const settledGrants = (
    polar: Polar,
    benefitId: string,
    check: (grants: Awaited<ReturnType<typeof grantsOf>>) => boolean,
  ) => eventually(() => grantsOf(polar, benefitId), check, 30_000);

  const rawGrantsOf = async (token: string, benefitId: string) => {
    const response = await fetch(`${env.stack.baseUrl}/v1/benefits/${benefitId}/grants`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return ((await response.json()) as { items: { properties: Record<string, unknown> }[] }).items;
  };

  const balanceOf = async (polar: Polar, customerId: string, meterId: string) =>
    (await polar.customerMeters.list({ customerId, meterId })).result.items[0]?.balance ?? 0;

  it('a one-time purchase grants every type; a refund with revoke_benefits takes them back; events and state follow', async () => {
    const { polar, organization, token } = await seller();
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    await polar.webhooks.createWebhookEndpoint({
      url: receiver.url,
      format: 'raw',
      secret: WEBHOOK_SECRET,
      events: ['benefit_grant.created', 'benefit_grant.revoked'],
    });
    const meter = await polar.meters.create({
      name: 'API calls',
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'call' }] },
      aggregation: { func: 'count' },
    });
    const file = await createUploadedFile(env.database.db, organization.id, {
      service: 'downloadable',
      name: 'book.pdf',
      mimeType: 'application/pdf',
    });
    const custom = await polar.benefits.create({
      type: 'custom',
      description: 'Private Slack channel',
      properties: { note: 'Join at example.test/slack' },
    });
    const license = await polar.benefits.create({
      type: 'license_keys',
      description: 'Desktop app license',
      properties: {
        prefix: 'tg',
        expires: { ttl: 1, timeframe: 'month' },
        activations: { limit: 2, enableCustomerAdmin: true },
        limitUsage: 100,
      },
    });
    const downloads = await polar.benefits.create({
      type: 'downloadables',
      description: 'The book',
      properties: { files: [file.id] },
    });
    const credits = await polar.benefits.create({
      type: 'meter_credit',
      description: '1,000 API calls',
      properties: { units: 1000, rollover: false, meterId: meter.id },
    });
    const product = await polar.products.create({
      name: 'Starter pack',
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 4900, priceCurrency: 'usd' }],
    });
    await polar.products.updateBenefits({
      id: product.id,
      productBenefitsUpdate: { benefits: [custom.id, license.id, downloads.id, credits.id] },
    });
    const customer = await polar.customers.create({ email: 'ada@example.test', externalId: 'user-ada' });
    await polar.events.ingest({
      events: [1, 2, 3].map(() => ({ name: 'call', externalCustomerId: 'user-ada' })),
    });

    const before = Date.now();
    const checkout = await buy(polar, product.id, customer.id);

    for (const benefit of [custom, license, downloads, credits]) {
      const [grant] = await settledGrants(polar, benefit.id, (grants) => grants[0]?.isGranted === true);
      expect(grant).toMatchObject({
        customerId: customer.id,
        isRevoked: false,
        subscriptionId: null,
        error: null,
      });
      expect(grant!.orderId).not.toBeNull();
    }
    const { result: keys } = await polar.licenseKeys.list({ benefitId: license.id });
    expect(keys.items).toHaveLength(1);
    const key = keys.items[0]!;
    expect(key.key).toMatch(/^TG-[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/);
    expect(key).toMatchObject({
      status: 'granted',
      displayKey: `****-${key.key.slice(-6)}`,
      limitActivations: 2,
      limitUsage: 100,
      customerId: customer.id,
      usage: 0,
    });
    // A month from the grant, within the test's run.
    const expires = key.expiresAt!.getTime();
    const month = (from: number) => {
      const date = new Date(from);
      date.setUTCMonth(date.getUTCMonth() + 1);
      return date.getTime();
    };
    expect(expires).toBeGreaterThanOrEqual(month(before) - 1000);
    expect(expires).toBeLessThanOrEqual(month(Date.now()) + 1000);
    // Read over HTTP: the SDK's union of grant properties matches Discord's (all optional) first
    // and drops the rest.
    expect((await rawGrantsOf(token, license.id))[0]!.properties).toEqual({
      license_key_id: key.id,
      display_key: key.displayKey,
    });
    expect((await rawGrantsOf(token, downloads.id))[0]!.properties).toEqual({ files: [file.id] });
    expect((await rawGrantsOf(token, credits.id))[0]!.properties).toMatchObject({
      last_credited_meter_id: meter.id,
      last_credited_units: 1000,
    });
    // 1,000 credited, 3 calls used before the purchase (the customer's own, counted).
    await eventually(
      () => balanceOf(polar, customer.id, meter.id),
      (balance) => balance === 997,
    );

    const state = await polar.customers.getState({ id: customer.id });
    expect(state.grantedBenefits.map((grant) => grant.benefitId).sort()).toEqual(
      [custom.id, license.id, downloads.id, credits.id].sort(),
    );

    const [order] = (await polar.orders.list({ productId: product.id })).result.items;
    expect(order!.checkoutId).toBe(checkout.id);
    await polar.refunds.create({
      orderId: order!.id,
      reason: 'customer_request',
      amount: 4900,
      revokeBenefits: true,
    });
    for (const benefit of [custom, license, downloads, credits]) {
      const [grant] = await settledGrants(polar, benefit.id, (grants) => grants[0]?.isRevoked === true);
      expect(grant!.isGranted).toBe(false);
    }
    expect((await polar.licenseKeys.get({ id: key.id })).status).toBe('revoked');
    // What was left of the credit is taken back: 997 − 997 = 0.
    await eventually(
      () => balanceOf(polar, customer.id, meter.id),
      (balance) => balance === 0,
    );
    expect((await polar.customers.getState({ id: customer.id })).grantedBenefits).toEqual([]);

    const events = await eventually(
      async () =>
        receiver.received.map((request) => validateEvent(request.body, request.headers, WEBHOOK_SECRET)),
      (list) => list.length >= 8,
    );
    const byType = (type: string) => events.filter((event) => event.type === type);
    expect(byType('benefit_grant.created')).toHaveLength(4);
    expect(byType('benefit_grant.revoked')).toHaveLength(4);
    const created = byType('benefit_grant.created').find(
      (event) => event.type === 'benefit_grant.created' && event.data.benefitId === license.id,
    );
    expect(created?.data).toMatchObject({
      customerId: customer.id,
      isGranted: true,
      benefit: { id: license.id },
    });
  });

  it('a subscription order cannot revoke benefits by refund: 422 at revoke_benefits, nothing changes', async () => {
    const { polar } = await seller();
    const custom = await polar.benefits.create({ type: 'custom', description: 'Support', properties: {} });
    const plan = await polar.products.create({
      name: 'Pro',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 1500, priceCurrency: 'usd' }],
    });
    await polar.products.updateBenefits({ id: plan.id, productBenefitsUpdate: { benefits: [custom.id] } });
    const customer = await polar.customers.create({ email: 'sub@example.test' });
    const checkout = await buy(polar, plan.id, customer.id);
    const [grant] = await settledGrants(polar, custom.id, (grants) => grants[0]?.isGranted === true);
    expect(grant!.subscriptionId).toBe(checkout.subscriptionId);

    const [order] = (await polar.orders.list({ productId: plan.id })).result.items;
    await expect(
      polar.refunds.create({
        orderId: order!.id,
        reason: 'customer_request',
        amount: 100,
        revokeBenefits: true,
      }),
    ).rejects.toMatchObject({ statusCode: 422 });
    expect((await polar.refunds.list({ orderId: order!.id })).result.items).toHaveLength(0);

    // Revoking the subscription takes the benefit back.
    await polar.subscriptions.revoke({ id: checkout.subscriptionId! });
    await settledGrants(polar, custom.id, (grants) => grants[0]?.isRevoked === true);
  });

  it("editing a product's benefits re-evaluates its buyers without touching what they keep; editing a benefit never revives a key", async () => {
    const { polar } = await seller();
    const meter = await polar.meters.create({
      name: 'Exports',
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'export' }] },
      aggregation: { func: 'count' },
    });
    const credits = await polar.benefits.create({
      type: 'meter_credit',
      description: '50 exports',
      properties: { units: 50, rollover: false, meterId: meter.id },
    });
    const license = await polar.benefits.create({
      type: 'license_keys',
      description: 'License',
      properties: { activations: { limit: 1, enableCustomerAdmin: false } },
    });
    const product = await polar.products.create({
      name: 'Exporter',
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 900, priceCurrency: 'usd' }],
    });
    await polar.products.updateBenefits({
      id: product.id,
      productBenefitsUpdate: { benefits: [credits.id] },
    });
    const ada = await polar.customers.create({ email: 'ada@example.test', externalId: 'ada' });
    await buy(polar, product.id, ada.id);
    await settledGrants(polar, credits.id, (grants) => grants[0]?.isGranted === true);
    await polar.events.ingest({ events: [1, 2].map(() => ({ name: 'export', externalCustomerId: 'ada' })) });
    await eventually(
      () => balanceOf(polar, ada.id, meter.id),
      (balance) => balance === 48,
    );

    // A benefit added: the existing buyer gets it; the credits are not granted again.
    await polar.products.updateBenefits({
      id: product.id,
      productBenefitsUpdate: { benefits: [credits.id, license.id] },
    });
    await settledGrants(polar, license.id, (grants) => grants[0]?.isGranted === true);
    expect(await balanceOf(polar, ada.id, meter.id)).toBe(48);
    expect(await grantsOf(polar, credits.id)).toHaveLength(1);

    // The key disabled by the seller, then the benefit's limits edited: the key follows the
    // limits and stays disabled.
    const [key] = (await polar.licenseKeys.list({ benefitId: license.id })).result.items;
    await polar.licenseKeys.update({ id: key!.id, licenseKeyUpdate: { status: 'disabled' } });
    await polar.benefits.update({
      id: license.id,
      requestBody: {
        type: 'license_keys',
        properties: { activations: { limit: 3, enableCustomerAdmin: false }, limitUsage: 5 },
      },
    });
    await eventually(
      () => polar.licenseKeys.get({ id: key!.id }),
      (value) => value.limitActivations === 3 && value.limitUsage === 5,
    );
    expect((await polar.licenseKeys.get({ id: key!.id })).status).toBe('disabled');

    // The license removed from the product: revoked; the credits kept as they are.
    await polar.products.updateBenefits({
      id: product.id,
      productBenefitsUpdate: { benefits: [credits.id] },
    });
    await settledGrants(polar, license.id, (grants) => grants[0]?.isRevoked === true);
    expect(await balanceOf(polar, ada.id, meter.id)).toBe(48);

    // The meter-credit benefit deleted: taken back from its holder.
    await polar.benefits.delete({ id: credits.id });
    await eventually(
      () => balanceOf(polar, ada.id, meter.id),
      (balance) => balance === 0,
    );
  });

  it('a GitHub benefit waits for the customer to connect their account, and says so on the grant', async () => {
    const { polar } = await seller();
    const github = await polar.benefits.create({
      type: 'github_repository',
      description: 'Source access',
      properties: { repositoryOwner: 'tollgate', repositoryName: 'sdk', permission: 'pull' },
    });
    const product = await polar.products.create({
      name: 'Source',
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 900, priceCurrency: 'usd' }],
    });
    await polar.products.updateBenefits({ id: product.id, productBenefitsUpdate: { benefits: [github.id] } });
    const customer = await polar.customers.create({ email: 'dev@example.test' });
    await buy(polar, product.id, customer.id);
    const [grant] = await settledGrants(polar, github.id, (grants) => grants[0]?.error != null);
    expect(grant).toMatchObject({
      isGranted: false,
      error: { message: 'The customer needs to connect their GitHub account.', type: 'account_not_linked' },
    });

    // The customer deleted: nothing is left to wait for.
    await polar.customers.delete({ id: customer.id });
    await settledGrants(polar, github.id, (grants) => grants[0]?.isRevoked === true);
  });

  it("a seller cannot read or change another organization's license keys", async () => {
    const one = await seller();
    const other = await seller();
    const license = await one.polar.benefits.create({
      type: 'license_keys',
      description: 'Key',
      properties: {},
    });
    const product = await one.polar.products.create({
      name: 'App',
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 900, priceCurrency: 'usd' }],
    });
    await one.polar.products.updateBenefits({
      id: product.id,
      productBenefitsUpdate: { benefits: [license.id] },
    });
    const customer = await one.polar.customers.create({ email: 'ada@example.test' });
    await buy(one.polar, product.id, customer.id);
    const [key] = (
      await eventually(
        () => one.polar.licenseKeys.list({}),
        (page) => page.result.items.length === 1,
      )
    ).result.items;
    expect((await other.polar.licenseKeys.list({})).result.items).toEqual([]);
    await expect(other.polar.licenseKeys.get({ id: key!.id })).rejects.toMatchObject({ statusCode: 404 });
    await expect(
      other.polar.licenseKeys.update({ id: key!.id, licenseKeyUpdate: { status: 'revoked' } }),
    ).rejects.toMatchObject({ statusCode: 404 });
    expect((await one.polar.licenseKeys.get({ id: key!.id })).status).toBe('granted');
  });
});
