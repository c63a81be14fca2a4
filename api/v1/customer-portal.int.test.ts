import { describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import {
  buyInSandbox,
  createAccessToken,
  createOrganization,
  createUploadedFile,
} from '../../test/factories.js';
import { eventually } from '../../test/eventually.js';
import { useTestStack } from '../../test/stack.js';

describe('customer sessions and the customer portal (through @polar-sh/sdk)', () => {
  const env = useTestStack();

  async function seller() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    return { organization, token, polar };
  }

  const anonymous = () => new Polar({ serverURL: env.stack.baseUrl });

  const buy = (polar: Polar, productId: string, customerId: string) =>
    buyInSandbox(polar, env.stack.baseUrl, productId, customerId);

  /** A one-time product with a license key (2 activations, 3 uses) and a file, bought by Ada. */
  async function boughtBundle() {
    const world = await seller();
    const { polar, organization } = world;
    const file = await createUploadedFile(env.database.db, organization.id, {
      service: 'downloadable',
      name: 'manual.pdf',
      mimeType: 'application/pdf',
    });
    const license = await polar.benefits.create({
      type: 'license_keys',
      description: 'App license',
      properties: { activations: { limit: 2, enableCustomerAdmin: true }, limitUsage: 3 },
    });
    const files = await polar.benefits.create({
      type: 'downloadables',
      description: 'Manual',
      properties: { files: [file.id] },
    });
    const note = await polar.benefits.create({
      type: 'custom',
      description: 'Support',
      properties: { note: 'Write to help@example.test' },
    });
    const product = await polar.products.create({
      name: 'App bundle',
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 2900, priceCurrency: 'usd' }],
    });
    await polar.products.updateBenefits({
      id: product.id,
      productBenefitsUpdate: { benefits: [license.id, files.id, note.id] },
    });
    const customer = await polar.customers.create({ email: 'ada@example.test', name: 'Ada' });
    const checkout = await buy(polar, product.id, customer.id);
    await eventually(
      async () => (await polar.licenseKeys.list({})).result.items,
      (keys) => keys.length === 1,
    );
    await eventually(
      async () => (await polar.benefits.grants({ id: files.id })).result.items,
      (grants) => grants[0]?.isGranted === true,
    );
    const session = await polar.customerSessions.create({ customerId: customer.id });
    return {
      ...world,
      customer,
      product,
      license,
      file,
      checkout,
      session,
      security: { customerSession: session.token },
    };
  }

  it('signs a customer in with a session and shows them their orders, grants, keys, files and meters', async () => {
    const { polar, organization, customer, product, session, security, file } = await boughtBundle();
    expect(session.token).toMatch(/^tollgate_cst_[A-Za-z0-9_-]{32}$/);
    expect(session.customerPortalUrl).toBe(
      `${env.stack.baseUrl}/portal/${organization.slug}?customer_session_token=${session.token}`,
    );
    expect(session.expiresAt.getTime() - Date.now()).toBeGreaterThan(59 * 60 * 1000);
    expect(session.customer.id).toBe(customer.id);

    const portal = anonymous().customerPortal;
    expect(await portal.customers.get(security)).toMatchObject({
      id: customer.id,
      email: 'ada@example.test',
    });
    const orders = (await portal.orders.list(security, {})).result.items;
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({
      productId: product.id,
      product: { organization: { id: organization.id } },
    });
    expect(await portal.orders.get(security, { id: orders[0]!.id })).toMatchObject({ id: orders[0]!.id });

    const grants = (await portal.benefitGrants.list(security, {})).result.items;
    expect(grants.map((grant) => grant.benefit.type).sort()).toEqual([
      'custom',
      'downloadables',
      'license_keys',
    ]);
    const custom = grants.find((grant) => grant.benefit.type === 'custom')!;
    expect(custom.benefit.properties).toEqual({ note: 'Write to help@example.test' });

    const [key] = (await portal.licenseKeys.list(security, {})).result.items;
    expect(key).toMatchObject({ customerId: customer.id, status: 'granted', limitActivations: 2 });
    expect((await portal.licenseKeys.get(security, { id: key!.id })).activations).toEqual([]);

    const [download] = (await portal.downloadables.list(security, {})).result.items;
    expect(download!.file).toMatchObject({ id: file.id, name: 'manual.pdf' });
    const followed = await fetch(download!.file.download.url, { redirect: 'manual' });
    expect(followed.status).toBe(302);
    expect(followed.headers.get('location')).toBeTruthy();
    const tampered = download!.file.download.url.replace(
      /\.(\d{13})\./,
      (_match, ms: string) => `.${Number(ms) + 1}.`,
    );
    expect((await fetch(tampered, { redirect: 'manual' })).status).toBe(404);
    // A malformed link is refused by the path's pattern.
    expect((await fetch(`${env.stack.baseUrl}/v1/customer-portal/downloadables/not-a-token`)).status).toBe(
      422,
    );
    expect(
      await env.database.db.downloadable.findFirst({ where: { customerId: customer.id } }),
    ).toMatchObject({
      downloads: 1,
    });

    expect((await portal.customerMeters.list(security, {})).result.items).toEqual([]);
    const page = await anonymous().customerPortal.organizations.get({ slug: organization.slug });
    expect(page.organization.id).toBe(organization.id);
    expect(page.products.map((item) => item.id)).toContain(product.id);

    // The customer corrects their name and address themselves.
    const updated = await portal.customers.update(security, {
      name: 'Ada King',
      billingAddress: { country: 'DE', city: 'Berlin', postalCode: '10115', line1: 'Invalidenstr. 1' },
      taxId: 'DE123456789',
    });
    expect(updated).toMatchObject({ name: 'Ada King', taxId: ['DE123456789', 'eu_vat'] });
    expect((await polar.customers.get({ id: customer.id })).name).toBe('Ada King');
  });

  it('tells two license keys apart by the purchase each came with: the product as bought and the order', async () => {
    const { polar, customer, product, checkout, security } = await boughtBundle();
    await polar.products.update({ id: product.id, productUpdate: { name: 'App bundle 2' } });
    const again = await buy(polar, product.id, customer.id);
    await eventually(
      async () => (await polar.licenseKeys.list({})).result.items,
      (keys) => keys.length === 2,
    );
    const orderOf = async (checkoutId: string) => (await polar.orders.list({ checkoutId })).result.items[0]!;
    const [first, second] = [await orderOf(checkout.id), await orderOf(again.id)];

    const answer = await fetch(`${env.stack.baseUrl}/v1/customer-portal/license-keys/`, {
      headers: { authorization: `Bearer ${security.customerSession}` },
    });
    const { items } = (await answer.json()) as { items: { granted_for: unknown }[] };
    expect(items.map((key) => key.granted_for)).toEqual([
      {
        product_name: 'App bundle 2',
        order_id: second.id,
        ordered_at: second.createdAt.toISOString(),
        subscription_id: null,
      },
      {
        product_name: 'App bundle',
        order_id: first.id,
        ordered_at: first.createdAt.toISOString(),
        subscription_id: null,
      },
    ]);
  });

  it("checks license keys without credentials, counting uses and activations and refusing what is not the buyer's to use", async () => {
    const { polar, organization, customer, license } = await boughtBundle();
    const { key } = (await polar.licenseKeys.list({})).result.items[0]!;
    const keys = anonymous().customerPortal.licenseKeys;
    const validated = await keys.validate({ key, organizationId: organization.id, incrementUsage: 2 });
    expect(validated).toMatchObject({
      usage: 2,
      validations: 1,
      customerId: customer.id,
      benefitId: license.id,
    });
    await expect(
      keys.validate({ key, organizationId: organization.id, incrementUsage: 2 }),
    ).rejects.toMatchObject({
      statusCode: 400,
    });
    await expect(keys.validate({ key: 'NOT-A-KEY', organizationId: organization.id })).rejects.toMatchObject({
      statusCode: 404,
    });
    const laptop = await keys.activate({
      key,
      organizationId: organization.id,
      label: 'Laptop',
      conditions: { os: 'mac' },
    });
    await keys.activate({ key, organizationId: organization.id, label: 'Desktop' });
    await expect(
      keys.activate({ key, organizationId: organization.id, label: 'Third' }),
    ).rejects.toMatchObject({
      statusCode: 403,
    });
    // Conditions must repeat the activation's.
    await expect(
      keys.validate({
        key,
        organizationId: organization.id,
        activationId: laptop.id,
        conditions: { os: 'linux' },
      }),
    ).rejects.toMatchObject({ statusCode: 404 });
    expect(
      (
        await keys.validate({
          key,
          organizationId: organization.id,
          activationId: laptop.id,
          conditions: { os: 'mac' },
        })
      ).activation?.id,
    ).toBe(laptop.id);
    await keys.deactivate({ key, organizationId: organization.id, activationId: laptop.id });
    await keys.activate({ key, organizationId: organization.id, label: 'Replacement' });

    // A disabled key stops validating at once.
    const [stored] = (await polar.licenseKeys.list({})).result.items;
    await polar.licenseKeys.update({ id: stored!.id, licenseKeyUpdate: { status: 'disabled', usage: 2 } });
    await expect(keys.validate({ key, organizationId: organization.id })).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it('lets a subscriber cancel at the period end and resume, and change plan only where the seller allows it', async () => {
    const { polar, organization } = await seller();
    const plan = await polar.products.create({
      name: 'Pro',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 1500, priceCurrency: 'usd' }],
    });
    const bigger = await polar.products.create({
      name: 'Team',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 4500, priceCurrency: 'usd' }],
    });
    const customer = await polar.customers.create({ email: 'sub@example.test' });
    const { subscriptionId, customerSessionToken } = await buy(polar, plan.id, customer.id);
    // The token the checkout's confirmation handed the buyer signs them in too.
    const security = { customerSession: customerSessionToken };
    const portal = anonymous().customerPortal;
    const [listed] = (await portal.subscriptions.list(security, {})).result.items;
    expect(listed).toMatchObject({ id: subscriptionId, status: 'active', product: { id: plan.id } });

    const canceled = await portal.subscriptions.cancel(security, { id: subscriptionId! });
    expect(canceled).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    await expect(portal.subscriptions.cancel(security, { id: subscriptionId! })).rejects.toMatchObject({
      statusCode: 403,
    });
    const resumed = await portal.subscriptions.update(security, {
      id: subscriptionId!,
      customerSubscriptionUpdate: { cancelAtPeriodEnd: false },
    });
    expect(resumed.cancelAtPeriodEnd).toBe(false);
    const withReason = await portal.subscriptions.update(security, {
      id: subscriptionId!,
      customerSubscriptionUpdate: {
        cancelAtPeriodEnd: true,
        cancellationReason: 'too_expensive',
        cancellationComment: 'Cheaper elsewhere',
      },
    });
    expect(withReason).toMatchObject({
      cancelAtPeriodEnd: true,
      customerCancellationReason: 'too_expensive',
    });
    expect((await polar.subscriptions.get({ id: subscriptionId! })).customerCancellationComment).toBe(
      'Cheaper elsewhere',
    );
    await portal.subscriptions.update(security, {
      id: subscriptionId!,
      customerSubscriptionUpdate: { cancelAtPeriodEnd: false },
    });

    await env.database.db.organization.update({
      where: { id: organization.id },
      data: { allowCustomerUpdates: false },
    });
    await expect(
      portal.subscriptions.update(security, {
        id: subscriptionId!,
        customerSubscriptionUpdate: { productId: bigger.id },
      }),
    ).rejects.toMatchObject({ statusCode: 403 });
    await env.database.db.organization.update({
      where: { id: organization.id },
      data: { allowCustomerUpdates: true },
    });
    const changed = await portal.subscriptions.update(security, {
      id: subscriptionId!,
      customerSubscriptionUpdate: { productId: bigger.id },
    });
    expect(changed.product.id).toBe(bigger.id);

    // Signing out ends even the confirmation's token at once.
    const signOut = await fetch(`${env.stack.baseUrl}/v1/customer-portal/customer-session`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${customerSessionToken}` },
    });
    expect(signOut.status).toBe(204);
    await expect(portal.subscriptions.list(security, {})).rejects.toMatchObject({ statusCode: 401 });
  });

  it("refuses organization tokens, expired sessions and other customers' objects; an unknown customer is a 422", async () => {
    const { polar, token, customer, session, security } = await boughtBundle();
    const portal = anonymous().customerPortal;
    await expect(portal.customers.get({ customerSession: token })).rejects.toMatchObject({ statusCode: 401 });
    await expect(anonymous().customerPortal.orders.list({ customerSession: '' }, {})).rejects.toMatchObject({
      statusCode: 401,
    });
    // The session token is no organization token either.
    const asSeller = await fetch(`${env.stack.baseUrl}/v1/orders/`, {
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(asSeller.status).toBe(401);

    const other = await polar.customers.create({ email: 'other@example.test' });
    const otherSession = await polar.customerSessions.create({
      customerExternalId: undefined as never,
      customerId: other.id,
    });
    const [order] = (await portal.orders.list(security, {})).result.items;
    await expect(
      portal.orders.get({ customerSession: otherSession.token }, { id: order!.id }),
    ).rejects.toMatchObject({
      statusCode: 404,
    });
    expect((await portal.orders.list({ customerSession: otherSession.token }, {})).result.items).toEqual([]);

    // Signing out ends that session and no other.
    const signOut = await fetch(`${env.stack.baseUrl}/v1/customer-portal/customer-session`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${otherSession.token}` },
    });
    expect(signOut.status).toBe(204);
    await expect(portal.orders.list({ customerSession: otherSession.token }, {})).rejects.toMatchObject({
      statusCode: 401,
    });
    expect((await portal.orders.list(security, {})).result.items).toHaveLength(1);

    await env.database.db.customerSession.updateMany({
      where: { customerId: customer.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await expect(portal.customers.get(security)).rejects.toMatchObject({ statusCode: 401 });

    await expect(
      polar.customerSessions.create({ customerId: '00000000-0000-4000-8000-000000000000' }),
    ).rejects.toMatchObject({
      statusCode: 422,
    });
  });
  it('signs a customer in by an emailed code: one session per code, a few wrong tries, no telling who buys', async () => {
    const { polar, organization } = await seller();
    const customer = await polar.customers.create({ email: 'code@example.test' });
    const post = (path: string, body: unknown) =>
      fetch(`${env.stack.baseUrl}/v1/customer-portal/sign-in/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const codeOf = async (email: string) => {
      const [message] = await env.database.db.emailMessage.findMany({
        where: { toAddress: email },
        orderBy: { createdAt: 'desc' },
        take: 1,
      });
      return /\b(\d{6})\b/.exec(message?.subject ?? '')?.[1];
    };

    // A stranger's address answers as a customer's does, and no email goes out.
    expect(
      (await post('request', { organization_slug: organization.slug, email: 'nobody@example.test' })).status,
    ).toBe(202);
    expect(await codeOf('nobody@example.test')).toBeUndefined();
    const asked = await post('request', { organization_slug: organization.slug, email: 'Code@Example.test' });
    expect(asked.status).toBe(202);
    const code = (await codeOf('code@example.test'))!;
    expect(code).toMatch(/^\d{6}$/);

    const wrongCode = code === '000000' ? '111111' : '000000';
    const wrong = await post('verify', {
      organization_slug: organization.slug,
      email: 'code@example.test',
      code: wrongCode,
    });
    expect(wrong.status).toBe(422);
    expect(((await wrong.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual([
      'body',
      'code',
    ]);
    const right = await post('verify', {
      organization_slug: organization.slug,
      email: 'code@example.test',
      code,
    });
    expect(right.status).toBe(200);
    const { token } = (await right.json()) as { token: string };
    expect(await anonymous().customerPortal.customers.get({ customerSession: token })).toMatchObject({
      id: customer.id,
    });
    // Used once.
    expect(
      (await post('verify', { organization_slug: organization.slug, email: 'code@example.test', code }))
        .status,
    ).toBe(422);

    // Five wrong tries and the code is spent, even the right one (another customer: each address
    // has its own budget of tries a minute).
    await polar.customers.create({ email: 'tries@example.test' });
    await post('request', { organization_slug: organization.slug, email: 'tries@example.test' });
    const second = (await codeOf('tries@example.test'))!;
    const other = second === '000000' ? '111111' : '000000';
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await post('verify', {
        organization_slug: organization.slug,
        email: 'tries@example.test',
        code: other,
      });
    }
    expect(
      (
        await post('verify', {
          organization_slug: organization.slug,
          email: 'tries@example.test',
          code: second,
        })
      ).status,
    ).toBe(422);
    expect(
      (await post('request', { organization_slug: 'no-such-seller', email: 'code@example.test' })).status,
    ).toBe(404);
  });

  it('previews a plan change for the customer before they confirm it, with the benefits gained and lost', async () => {
    const { polar } = await seller();
    const plan = await polar.products.create({
      name: 'Pro',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 1500, priceCurrency: 'usd' }],
    });
    const team = await polar.products.create({
      name: 'Team',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 4500, priceCurrency: 'usd' }],
    });
    const custom = (description: string) =>
      polar.benefits.create({ type: 'custom', description, properties: { note: null } });
    const [support, chat, seats] = [
      await custom('Email support'),
      await custom('Community chat'),
      await custom('Team seats'),
    ];
    await polar.products.updateBenefits({
      id: plan.id,
      productBenefitsUpdate: { benefits: [support.id, chat.id] },
    });
    await polar.products.updateBenefits({
      id: team.id,
      productBenefitsUpdate: { benefits: [chat.id, seats.id] },
    });
    const customer = await polar.customers.create({ email: 'preview@example.test' });
    const { subscriptionId } = await buy(polar, plan.id, customer.id);
    const session = await polar.customerSessions.create({ customerId: customer.id });
    const preview = await fetch(
      `${env.stack.baseUrl}/v1/customer-portal/subscriptions/${subscriptionId}/proration-preview`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ product_id: team.id }),
      },
    );
    expect(preview.status).toBe(200);
    const body = (await preview.json()) as {
      lines: { amount: number }[];
      benefits_gained: unknown[];
      benefits_lost: unknown[];
    };
    expect(body.lines.length).toBeGreaterThan(0);
    expect(body.benefits_gained).toEqual([{ id: seats.id, type: 'custom', description: 'Team seats' }]);
    expect(body.benefits_lost).toEqual([{ id: support.id, type: 'custom', description: 'Email support' }]);
    // Nothing changed.
    expect((await polar.subscriptions.get({ id: subscriptionId! })).productId).toBe(plan.id);
  });
});
