import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { startTestStack, type TestStack } from '../../test/stack.js';

describe('GET /v1/organizations/{id}', () => {
  let database: TestDatabase;
  let stack: TestStack;

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startTestStack({ db: database.db, withWorker: false });
  });
  beforeEach(() => database.reset());
  afterAll(async () => {
    await stack?.stop();
    await database?.drop();
  });

  const polarWith = (accessToken: string) => new Polar({ accessToken, serverURL: stack.baseUrl });

  it('answers 401 to an anonymous caller', async () => {
    const organization = await createOrganization(database.db);
    const response = await fetch(`${stack.baseUrl}/v1/organizations/${organization.id}`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'Unauthorized', detail: 'Authentication is required.' });
  });

  it('answers 401 to a malformed, unknown or expired token', async () => {
    const organization = await createOrganization(database.db);
    const expired = await createAccessToken(database.db, organization.id, {
      expiresAt: new Date(Date.now() - 1000),
    });
    for (const token of ['not-a-token', `tollgate_oat_${'x'.repeat(43)}`, expired]) {
      const response = await fetch(`${stack.baseUrl}/v1/organizations/${organization.id}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it("answers 404 for another organization's id, as for a missing one", async () => {
    const own = await createOrganization(database.db);
    const foreign = await createOrganization(database.db);
    const polar = polarWith(await createAccessToken(database.db, own.id));
    await expect(polar.organizations.get({ id: foreign.id })).rejects.toMatchObject({
      name: 'ResourceNotFound',
    });
    await expect(
      polar.organizations.get({ id: '00000000-0000-4000-8000-000000000000' }),
    ).rejects.toMatchObject({
      name: 'ResourceNotFound',
    });
  });

  it('answers 422 naming the path parameter for an id that is not a UUID', async () => {
    const organization = await createOrganization(database.db);
    const response = await fetch(`${stack.baseUrl}/v1/organizations/not-a-uuid`, {
      headers: { authorization: `Bearer ${await createAccessToken(database.db, organization.id)}` },
    });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { detail: { loc: string[] }[] };
    expect(body.detail[0]?.loc).toEqual(['path', 'id']);
  });

  it("returns the token's organization in the shape Polar's SDK validates", async () => {
    const organization = await createOrganization(database.db, {
      email: 'billing@acme.test',
      website: 'https://acme.test',
      socials: [{ platform: 'github', url: 'https://github.com/acme' }],
      prorationBehavior: 'invoice',
    });
    const polar = polarWith(await createAccessToken(database.db, organization.id));
    const fetched = await polar.organizations.get({ id: organization.id });
    expect(fetched).toMatchObject({
      id: organization.id,
      name: organization.name,
      slug: organization.slug,
      email: 'billing@acme.test',
      website: 'https://acme.test',
      avatarUrl: null,
      socials: [{ platform: 'github', url: 'https://github.com/acme' }],
      detailsSubmittedAt: null,
      featureSettings: { issueFundingEnabled: false, usageBasedBillingEnabled: false },
      subscriptionSettings: {
        allowMultipleSubscriptions: false,
        allowCustomerUpdates: true,
        prorationBehavior: 'invoice',
      },
    });
    expect(fetched.createdAt).toEqual(organization.createdAt);
  });

  it('records when a token was last used', async () => {
    const organization = await createOrganization(database.db);
    const polar = polarWith(await createAccessToken(database.db, organization.id));
    await polar.organizations.get({ id: organization.id });
    const [token] = await database.db.organizationAccessToken.findMany({
      where: { organizationId: organization.id },
    });
    expect(token?.lastUsedAt).toBeInstanceOf(Date);
  });
});
