import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { WebhookCustomerCreatedPayload$inboundSchema } from '@polar-sh/sdk/models/components/webhookcustomercreatedpayload.js';
import { WebhookCustomerStateChangedPayload$inboundSchema } from '@polar-sh/sdk/models/components/webhookcustomerstatechangedpayload.js';
import { signUpUser } from '../../test/auth-client.js';
import { addMember, createAccessToken, createOrganization } from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

describe('/v1/customers', () => {
  const env = useTestStack({ withWorker: false });

  async function seller() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    return { organization, polar: new Polar({ accessToken: token, serverURL: env.stack.baseUrl }) };
  }

  const email = () => `buyer-${randomUUID()}@example.test`;

  it('creates, gets, lists, updates and deletes by id, validated by the SDK, recording events', async () => {
    const { organization, polar } = await seller();
    const address = email();
    const created = await polar.customers.create({
      email: address.toUpperCase(),
      name: 'Bea Buyer',
      externalId: `ext-${randomUUID()}`,
      metadata: { plan: 'pro', seats: 3, vip: true },
      billingAddress: { country: 'de', city: 'Berlin', postalCode: '10115', line1: 'Street 1' },
      taxId: ['de 123.456.789', 'eu_vat'],
    });
    expect(created).toMatchObject({
      email: address,
      name: 'Bea Buyer',
      organizationId: organization.id,
      metadata: { plan: 'pro', seats: 3, vip: true },
      billingAddress: { country: 'DE', city: 'Berlin' },
      taxId: ['DE123456789', 'eu_vat'],
      emailVerified: false,
      deletedAt: null,
    });
    expect(created.avatarUrl).toMatch(/^https:\/\/www\.gravatar\.com\/avatar\/[0-9a-f]{64}\?d=404$/);

    expect((await polar.customers.get({ id: created.id })).id).toBe(created.id);
    const updated = await polar.customers.update({
      id: created.id,
      customerUpdate: { name: 'Bea B.', metadata: { plan: 'team' } },
    });
    expect(updated).toMatchObject({ name: 'Bea B.', metadata: { plan: 'team' }, email: address });

    const page = await polar.customers.list({ query: 'bea b' });
    expect(page.result.items.map((customer) => customer.id)).toEqual([created.id]);
    expect(page.result.pagination).toEqual({ totalCount: 1, maxPage: 1 });

    await polar.customers.delete({ id: created.id });
    await expect(polar.customers.get({ id: created.id })).rejects.toMatchObject({ statusCode: 404 });
    expect((await polar.customers.list({})).result.items).toEqual([]);
    // A deleted customer's address may come back as a new customer.
    expect((await polar.customers.create({ email: address })).id).not.toBe(created.id);

    const events = await env.database.db.outboxEvent.findMany({
      where: { organizationId: organization.id },
      orderBy: { createdAt: 'asc' },
    });
    expect(events.map((event) => event.type)).toEqual([
      'customer.created',
      'customer.state_changed',
      'customer.updated',
      'customer.state_changed',
      'customer.deleted',
      'customer.state_changed',
      'customer.created',
      'customer.state_changed',
    ]);
    // The SDK's own webhook payload schemas read what the outbox holds.
    type Parsed = { data: Record<string, unknown> };
    const createdEvent = WebhookCustomerCreatedPayload$inboundSchema.parse(events[0]!.payload) as Parsed;
    expect(createdEvent.data.id).toBe(created.id);
    const state = (WebhookCustomerStateChangedPayload$inboundSchema.parse(events[1]!.payload) as Parsed).data;
    expect(state).toMatchObject({
      id: created.id,
      activeSubscriptions: [],
      grantedBenefits: [],
      activeMeters: [],
    });
  });

  it('works by external id: get, update, state and delete', async () => {
    const { polar } = await seller();
    const externalId = `user_${randomUUID()}`;
    const created = await polar.customers.create({ email: email(), externalId });
    expect((await polar.customers.getExternal({ externalId })).id).toBe(created.id);
    const updated = await polar.customers.updateExternal({
      externalId,
      customerUpdateExternalID: { name: 'By external' },
    });
    expect(updated.name).toBe('By external');
    expect(await polar.customers.getStateExternal({ externalId })).toMatchObject({
      id: created.id,
      externalId,
      activeSubscriptions: [],
      grantedBenefits: [],
      activeMeters: [],
    });
    expect((await polar.customers.getState({ id: created.id })).id).toBe(created.id);
    await polar.customers.deleteExternal({ externalId });
    await expect(polar.customers.getExternal({ externalId })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('keeps email and external id unique per organization, and the external id fixed once set', async () => {
    const { polar } = await seller();
    const address = email();
    const first = await polar.customers.create({ email: address, externalId: 'same' });
    await expect(polar.customers.create({ email: address.toUpperCase() })).rejects.toMatchObject({
      statusCode: 422,
    });
    await expect(polar.customers.create({ email: email(), externalId: 'same' })).rejects.toMatchObject({
      statusCode: 422,
    });
    await expect(
      polar.customers.update({ id: first.id, customerUpdate: { externalId: 'other' } }),
    ).rejects.toMatchObject({ statusCode: 422 });

    // Another organization may have the same buyer.
    const other = await seller();
    expect((await other.polar.customers.create({ email: address, externalId: 'same' })).email).toBe(address);
  });

  it('rejects bad input with 422 naming the field, creating nothing', async () => {
    const { organization, polar } = await seller();
    const token = await createAccessToken(env.database.db, organization.id);
    const post = (body: unknown) =>
      fetch(`${env.stack.baseUrl}/v1/customers/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (response) => ({
        status: response.status,
        loc: ((await response.json()) as { detail: { loc: unknown[] }[] }).detail[0]?.loc,
      }));
    expect(await post({ email: 'not-an-email' })).toEqual({ status: 422, loc: ['body', 'email'] });
    expect(await post({ email: email(), billing_address: { country: 'US' } })).toEqual({
      status: 422,
      loc: ['body', 'billing_address', 'state'],
    });
    expect(await post({ email: email(), tax_id: ['123', 'xx_vat'] })).toEqual({
      status: 422,
      loc: ['body', 'tax_id', 1],
    });
    expect(await post({ email: email(), tax_id: ['12', 'us_ein'] })).toEqual({
      status: 422,
      loc: ['body', 'tax_id'],
    });
    expect(await post({ email: email(), metadata: { ['k'.repeat(41)]: 'v' } })).toMatchObject({
      status: 422,
    });
    expect(await post({ email: email(), surprise: true })).toMatchObject({ status: 422 });
    expect(await post({ email: email(), organization_id: randomUUID() })).toEqual({
      status: 422,
      loc: ['body', 'organization_id'],
    });
    expect((await polar.customers.list({})).result.items).toEqual([]);
  });

  it('lets a signed-in admin write, naming the organization, and a member read', async () => {
    const organization = await createOrganization(env.database.db);
    const admin = await signUpUser(env.stack.baseUrl);
    const member = await signUpUser(env.stack.baseUrl);
    await addMember(env.database.db, organization.id, admin.user.id, 'admin');
    await addMember(env.database.db, organization.id, member.user.id, 'member');
    const post = (cookie: string, body: unknown) =>
      fetch(`${env.stack.baseUrl}/v1/customers/`, {
        method: 'POST',
        headers: { cookie, origin: env.stack.baseUrl, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post(admin.cookieHeader(), { email: email() })).status).toBe(422);
    expect(
      (await post(admin.cookieHeader(), { email: email(), organization_id: organization.id })).status,
    ).toBe(201);
    const listed = await fetch(`${env.stack.baseUrl}/v1/customers/?organization_id=${organization.id}`, {
      headers: { ...member.sessionHeaders() },
    });
    expect(((await listed.json()) as { items: unknown[] }).items).toHaveLength(1);
  });

  it('filters by email and metadata and sorts', async () => {
    const { polar } = await seller();
    const a = await polar.customers.create({
      email: `a-${email()}`,
      name: 'Anna',
      metadata: { tier: 'gold' },
    });
    const b = await polar.customers.create({
      email: `b-${email()}`,
      name: 'Bob',
      metadata: { tier: 'silver' },
    });
    expect((await polar.customers.list({ email: a.email })).result.items.map((c) => c.id)).toEqual([a.id]);
    expect(
      (await polar.customers.list({ metadata: { tier: 'silver' } })).result.items.map((c) => c.id),
    ).toEqual([b.id]);
    expect((await polar.customers.list({ sorting: ['-name'] })).result.items.map((c) => c.id)).toEqual([
      b.id,
      a.id,
    ]);
  });
});
