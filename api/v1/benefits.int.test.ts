import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import {
  createAccessToken,
  createMeter,
  createOrganization,
  createUploadedFile,
} from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

describe('/v1/benefits', () => {
  const env = useTestStack({ withWorker: false });

  async function seller() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    return { organization, token, polar: new Polar({ accessToken: token, serverURL: env.stack.baseUrl }) };
  }

  it('creates each of the six types with its properties, as the SDK reads them', async () => {
    const { polar, organization } = await seller();
    const custom = await polar.benefits.create({
      type: 'custom',
      description: 'Priority support',
      properties: { note: 'Mail us' },
    });
    expect(custom).toMatchObject({
      type: 'custom',
      properties: { note: 'Mail us' },
      selectable: true,
      deletable: true,
      organizationId: organization.id,
    });

    const discord = await polar.benefits.create({
      type: 'discord',
      description: 'Discord role',
      properties: { guildToken: '123456789012345678', roleId: '223456789012345678' },
    });
    expect(discord.properties).toEqual({
      guildId: '123456789012345678',
      roleId: '223456789012345678',
      guildToken: '123456789012345678',
    });

    const github = await polar.benefits.create({
      type: 'github_repository',
      description: 'Repo access',
      properties: { repositoryOwner: 'tollgate-dev', repositoryName: 'sdk.js', permission: 'pull' },
    });
    expect(github.properties).toEqual({
      repositoryOwner: 'tollgate-dev',
      repositoryName: 'sdk.js',
      permission: 'pull',
    });

    const fileId = (await createUploadedFile(env.database.db, organization.id, { service: 'downloadable' }))
      .id;
    const downloadables = await polar.benefits.create({
      type: 'downloadables',
      description: 'Downloads',
      properties: { files: [fileId] },
    });
    expect(downloadables.properties).toEqual({ archived: {}, files: [fileId] });

    const licenseKeys = await polar.benefits.create({
      type: 'license_keys',
      description: 'License key',
      properties: {
        prefix: 'TG',
        expires: { ttl: 1, timeframe: 'year' },
        activations: { limit: 3, enableCustomerAdmin: true },
      },
    });
    expect(licenseKeys.properties).toEqual({
      prefix: 'TG',
      expires: { ttl: 1, timeframe: 'year' },
      activations: { limit: 3, enableCustomerAdmin: true },
      limitUsage: null,
    });

    const meterId = (await createMeter(env.database.db, organization.id)).id;
    const credits = await polar.benefits.create({
      type: 'meter_credit',
      description: 'API credits',
      properties: { units: 1000, rollover: false, meterId },
    });
    expect(credits.properties).toEqual({ units: 1000, rollover: false, meterId });

    const all = await polar.benefits.list({});
    expect(all.result.pagination.totalCount).toBe(6);
    const onlyDiscord = await polar.benefits.list({ typeFilter: 'discord' });
    expect(onlyDiscord.result.items.map((benefit) => benefit.id)).toEqual([discord.id]);
    expect((await polar.benefits.list({ query: 'repo' })).result.items.map((benefit) => benefit.id)).toEqual([
      github.id,
    ]);

    const events = await env.database.db.outboxEvent.findMany({ where: { organizationId: organization.id } });
    expect(events.filter((event) => event.type === 'benefit.created')).toHaveLength(6);
  });

  it("refuses a meter or files that are not the organization's own", async () => {
    const { polar } = await seller();
    const other = await createOrganization(env.database.db);
    const foreignMeter = await createMeter(env.database.db, other.id);
    await expect(
      polar.benefits.create({
        type: 'meter_credit',
        description: 'Credits',
        properties: { units: 10, rollover: false, meterId: foreignMeter.id },
      }),
    ).rejects.toMatchObject({ statusCode: 422 });
    const foreignFile = await createUploadedFile(env.database.db, other.id, { service: 'downloadable' });
    await expect(
      polar.benefits.create({
        type: 'downloadables',
        description: 'Files',
        properties: { files: [foreignFile.id] },
      }),
    ).rejects.toMatchObject({ statusCode: 422 });
    expect((await polar.benefits.list({})).result.items).toEqual([]);
  });

  it('updates description, metadata and properties but never the type; deletes; records benefit.updated', async () => {
    const { polar, organization } = await seller();
    const benefit = await polar.benefits.create({
      type: 'custom',
      description: 'Old name',
      properties: { note: null },
    });
    const updated = await polar.benefits.update({
      id: benefit.id,
      requestBody: {
        type: 'custom',
        description: 'New name',
        metadata: { tier: 2 },
        properties: { note: 'Hello' },
      },
    });
    expect(updated).toMatchObject({
      description: 'New name',
      metadata: { tier: 2 },
      properties: { note: 'Hello' },
    });
    await expect(
      polar.benefits.update({ id: benefit.id, requestBody: { type: 'discord', description: 'Nope' } }),
    ).rejects.toMatchObject({ statusCode: 422 });
    expect((await polar.benefits.get({ id: benefit.id })).description).toBe('New name');

    await polar.benefits.delete({ id: benefit.id });
    await expect(polar.benefits.get({ id: benefit.id })).rejects.toMatchObject({ statusCode: 404 });
    const types = (
      await env.database.db.outboxEvent.findMany({
        where: { organizationId: organization.id },
        orderBy: { createdAt: 'asc' },
      })
    ).map((event) => event.type);
    expect(types).toEqual(['benefit.created', 'benefit.updated', 'benefit.updated']);
  });

  it('validates properties per type exactly, creating nothing', async () => {
    const { polar, token } = await seller();
    const post = async (body: unknown) => {
      const response = await fetch(`${env.stack.baseUrl}/v1/benefits/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return {
        status: response.status,
        loc: ((await response.json()) as { detail?: { loc: unknown[] }[] }).detail?.[0]?.loc,
      };
    };
    expect(
      await post({
        type: 'discord',
        description: 'Role',
        properties: { guild_token: 'abc', role_id: '223456789012345678' },
      }),
    ).toEqual({
      status: 422,
      loc: ['body', 'properties', 'guild_token'],
    });
    expect(
      await post({
        type: 'github_repository',
        description: 'Repo',
        properties: { repository_owner: '-bad-', repository_name: 'x', permission: 'pull' },
      }),
    ).toMatchObject({ status: 422 });
    expect(
      await post({
        type: 'github_repository',
        description: 'Repo',
        properties: { repository_owner: 'ok', repository_name: 'x', permission: 'write' },
      }),
    ).toMatchObject({ status: 422 });
    expect(
      await post({
        type: 'license_keys',
        description: 'Keys',
        properties: { activations: { limit: 51, enable_customer_admin: false } },
      }),
    ).toMatchObject({ status: 422 });
    expect(
      await post({
        type: 'meter_credit',
        description: 'Credits',
        properties: { units: 0, rollover: false, meter_id: randomUUID() },
      }),
    ).toMatchObject({ status: 422 });
    expect(
      await post({ type: 'downloadables', description: 'Files', properties: { files: [] } }),
    ).toMatchObject({ status: 422 });
    expect(await post({ type: 'custom', description: 'ab', properties: {} })).toEqual({
      status: 422,
      loc: ['body', 'description'],
    });
    expect(await post({ type: 'teleport', description: 'Beam me', properties: {} })).toMatchObject({
      status: 422,
    });
    expect(
      await post({ type: 'custom', description: 'Extra', properties: { note: null, surprise: 1 } }),
    ).toMatchObject({ status: 422 });
    expect((await polar.benefits.list({})).result.items).toEqual([]);
  });

  it('lists grants with their customers, filtered by state and customer', async () => {
    const { polar, organization } = await seller();
    const benefit = await polar.benefits.create({
      type: 'custom',
      description: 'Support',
      properties: { note: null },
    });
    const alice = await polar.customers.create({ email: `alice-${randomUUID()}@example.test` });
    const bob = await polar.customers.create({ email: `bob-${randomUUID()}@example.test` });
    // Grants are issued by checkouts and subscriptions (later); the table is what this reads.
    await env.database.db.benefitGrant.createMany({
      data: [
        { benefitId: benefit.id, customerId: alice.id, grantedAt: new Date(), orderId: randomUUID() },
        {
          benefitId: benefit.id,
          customerId: bob.id,
          grantedAt: new Date(),
          revokedAt: new Date(),
          orderId: randomUUID(),
        },
      ],
    });
    const all = await polar.benefits.grants({ id: benefit.id });
    expect(all.result.items).toHaveLength(2);
    const granted = await polar.benefits.grants({ id: benefit.id, isGranted: true });
    expect(granted.result.items.map((grant) => grant.customer.id)).toEqual([alice.id]);
    expect(granted.result.items[0]).toMatchObject({
      isGranted: true,
      isRevoked: false,
      benefitId: benefit.id,
    });
    const forBob = await polar.benefits.grants({ id: benefit.id, customerId: bob.id });
    expect(forBob.result.items[0]).toMatchObject({ isGranted: false, isRevoked: true });

    // The customer's state shows what they hold now.
    const state = await polar.customers.getState({ id: alice.id });
    expect(state.grantedBenefits).toEqual([
      expect.objectContaining({ benefitId: benefit.id, benefitType: 'custom' }),
    ]);
    expect((await polar.customers.getState({ id: bob.id })).grantedBenefits).toEqual([]);
    expect(organization.id).toBeDefined();
  });

  describe('list by customer_id (our extension, for the dashboard’s customer page)', () => {
    const listIds = async (token: string, query: string) => {
      const response = await fetch(`${env.stack.baseUrl}/v1/benefits/?${query}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const idsOf = (body: Record<string, unknown>) =>
      ((body.items ?? []) as { id: string }[]).map((item) => item.id).sort();

    it('lists only the benefits the customer has a grant of, whatever its state', async () => {
      const { polar, token } = await seller();
      const [note, license, github, unused] = await Promise.all(
        ['Note', 'License', 'Repository', 'Unused'].map((description) =>
          polar.benefits.create({ type: 'custom', description, properties: { note: null } }),
        ),
      );
      const ada = await polar.customers.create({ email: `ada-${randomUUID()}@example.test` });
      const bob = await polar.customers.create({ email: `bob-${randomUUID()}@example.test` });
      const nobody = await polar.customers.create({ email: `nobody-${randomUUID()}@example.test` });
      const failed = {
        message: 'The customer needs to connect their GitHub account.',
        type: 'account_not_linked',
      };
      await env.database.db.benefitGrant.createMany({
        data: [
          { benefitId: note!.id, customerId: ada.id, grantedAt: new Date(), orderId: randomUUID() },
          // A second purchase of the same benefit: the benefit is listed once.
          { benefitId: note!.id, customerId: ada.id, grantedAt: new Date(), orderId: randomUUID() },
          {
            benefitId: license!.id,
            customerId: ada.id,
            grantedAt: new Date(),
            revokedAt: new Date(),
            orderId: randomUUID(),
          },
          {
            benefitId: github!.id,
            customerId: ada.id,
            error: { ...failed, timestamp: new Date().toISOString() },
            orderId: randomUUID(),
          },
          { benefitId: github!.id, customerId: bob.id, grantedAt: new Date(), orderId: randomUUID() },
        ],
      });

      const forAda = await listIds(token, `customer_id=${ada.id}`);
      expect(forAda.status).toBe(200);
      expect(idsOf(forAda.body)).toEqual([note!.id, license!.id, github!.id].sort());
      expect(forAda.body.pagination).toEqual({ total_count: 3, max_page: 1 });
      // Several customers: the benefits either has; combined with the other filters.
      const both = await listIds(token, `customer_id=${ada.id}&customer_id=${bob.id}&query=repo`);
      expect(idsOf(both.body)).toEqual([github!.id]);
      expect(idsOf((await listIds(token, `customer_id=${nobody.id}`)).body)).toEqual([]);
      // Without the filter, every benefit, as Polar lists them.
      expect(idsOf((await listIds(token, '')).body)).toEqual(
        [note!.id, license!.id, github!.id, unused!.id].sort(),
      );
    });

    it("finds nothing for another organization's customer", async () => {
      const mine = await seller();
      const theirs = await seller();
      const benefit = await theirs.polar.benefits.create({
        type: 'custom',
        description: 'Theirs',
        properties: { note: null },
      });
      const customer = await theirs.polar.customers.create({ email: `eve-${randomUUID()}@example.test` });
      await env.database.db.benefitGrant.create({
        data: {
          benefitId: benefit.id,
          customerId: customer.id,
          grantedAt: new Date(),
          orderId: randomUUID(),
        },
      });
      const answer = await listIds(mine.token, `customer_id=${customer.id}`);
      expect(answer.status).toBe(200);
      expect(answer.body.items).toEqual([]);
      expect(idsOf((await listIds(theirs.token, `customer_id=${customer.id}`)).body)).toEqual([benefit.id]);
    });

    it('refuses an id that is not a UUID, at the parameter', async () => {
      const { token } = await seller();
      const answer = await listIds(token, 'customer_id=not-a-uuid');
      expect(answer.status).toBe(422);
      expect(answer.body.detail).toEqual([expect.objectContaining({ loc: ['query', 'customer_id'] })]);
    });

    it('is refused without credentials', async () => {
      const response = await fetch(`${env.stack.baseUrl}/v1/benefits/?customer_id=${randomUUID()}`);
      expect(response.status).toBe(401);
    });
  });
});
