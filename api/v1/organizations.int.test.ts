import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { signUpUser } from '../../test/auth-client.js';
import { addMember, createAccessToken, createOrganization } from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

describe('/v1/organizations', () => {
  const env = useTestStack({ withWorker: false });
  beforeEach(() => env.database.reset());

  const polarWith = (accessToken: string) => new Polar({ accessToken, serverURL: env.stack.baseUrl });

  it('answers 401 to a malformed, unknown or expired token', async () => {
    const organization = await createOrganization(env.database.db);
    const expired = await createAccessToken(env.database.db, organization.id, {
      expiresAt: new Date(Date.now() - 1000),
    });
    for (const token of ['not-a-token', `tollgate_oat_${'x'.repeat(43)}`, expired]) {
      const response = await fetch(`${env.stack.baseUrl}/v1/organizations/${organization.id}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it('answers 422 naming the path parameter for an id that is not a UUID', async () => {
    const organization = await createOrganization(env.database.db);
    const response = await fetch(`${env.stack.baseUrl}/v1/organizations/not-a-uuid`, {
      headers: { authorization: `Bearer ${await createAccessToken(env.database.db, organization.id)}` },
    });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { detail: { loc: string[] }[] };
    expect(body.detail[0]?.loc).toEqual(['path', 'id']);
  });

  it("returns the token's organization in the shape Polar's SDK validates", async () => {
    const organization = await createOrganization(env.database.db, {
      email: 'billing@acme.test',
      website: 'https://acme.test',
      socials: [{ platform: 'github', url: 'https://github.com/acme' }],
      prorationBehavior: 'invoice',
    });
    const polar = polarWith(await createAccessToken(env.database.db, organization.id));
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
    const organization = await createOrganization(env.database.db);
    const polar = polarWith(await createAccessToken(env.database.db, organization.id));
    await polar.organizations.get({ id: organization.id });
    const [token] = await env.database.db.organizationAccessToken.findMany({
      where: { organizationId: organization.id },
    });
    expect(token?.lastUsedAt).toBeInstanceOf(Date);
  });

  describe('GET /v1/organizations/', () => {
    it("lists only the token's organization, paginated, filtered by slug", async () => {
      const own = await createOrganization(env.database.db, { slug: 'own-shop' });
      await createOrganization(env.database.db);
      const polar = polarWith(await createAccessToken(env.database.db, own.id));
      const page = await polar.organizations.list({});
      expect(page.result.items.map((organization) => organization.id)).toEqual([own.id]);
      expect(page.result.pagination).toEqual({ totalCount: 1, maxPage: 1 });
      const bySlug = await polar.organizations.list({ slug: 'someone-else' });
      expect(bySlug.result.items).toEqual([]);
    });

    it("lists a signed-in user's organizations, sorted as asked", async () => {
      const user = await signUpUser(env.stack.baseUrl);
      for (const name of ['Bravo', 'Alpha', 'Charlie']) {
        const organization = await createOrganization(env.database.db, { name });
        await addMember(env.database.db, organization.id, user.user.id, 'member');
      }
      await createOrganization(env.database.db, { name: 'Not mine' });
      const response = await fetch(`${env.stack.baseUrl}/v1/organizations/?sorting=-name&limit=2`, {
        headers: { ...user.sessionHeaders() },
      });
      const body = (await response.json()) as { items: { name: string }[]; pagination: unknown };
      expect(body.items.map((organization) => organization.name)).toEqual(['Charlie', 'Bravo']);
      expect(body.pagination).toEqual({ total_count: 3, max_page: 2 });
    });

    it('rejects an unknown sort field with a 422 naming it', async () => {
      const organization = await createOrganization(env.database.db);
      const response = await fetch(`${env.stack.baseUrl}/v1/organizations/?sorting=password`, {
        headers: { authorization: `Bearer ${await createAccessToken(env.database.db, organization.id)}` },
      });
      expect(response.status).toBe(422);
      const body = (await response.json()) as { detail: { loc: string[] }[] };
      expect(body.detail[0]?.loc).toEqual(['query', 'sorting']);
    });
  });

  describe('PATCH /v1/organizations/{id}', () => {
    it('updates the seller profile through the SDK and records organization.updated', async () => {
      const organization = await createOrganization(env.database.db);
      const polar = polarWith(await createAccessToken(env.database.db, organization.id));
      const updated = await polar.organizations.update({
        id: organization.id,
        organizationUpdate: {
          name: 'Acme Renamed',
          email: 'hello@acme.test',
          socials: [{ platform: 'x', url: 'https://x.com/acme' }],
          featureSettings: { usageBasedBillingEnabled: true },
          subscriptionSettings: {
            allowMultipleSubscriptions: true,
            allowCustomerUpdates: false,
            prorationBehavior: 'prorate',
          },
          details: {
            about: 'Widgets',
            productDescription: 'Widget subscriptions',
            intendedUse: 'Selling widgets',
            customerAcquisition: ['website'],
            futureAnnualRevenue: 100_000,
          },
        },
      });
      expect(updated).toMatchObject({
        name: 'Acme Renamed',
        email: 'hello@acme.test',
        socials: [{ platform: 'x', url: 'https://x.com/acme' }],
        featureSettings: { issueFundingEnabled: false, usageBasedBillingEnabled: true },
        subscriptionSettings: {
          allowMultipleSubscriptions: true,
          allowCustomerUpdates: false,
          prorationBehavior: 'prorate',
        },
      });
      expect(updated.detailsSubmittedAt).toBeInstanceOf(Date);

      const events = await env.database.db.outboxEvent.findMany({
        where: { organizationId: organization.id },
      });
      expect(events).toHaveLength(1);
      expect(events[0]?.type).toBe('organization.updated');
      expect(events[0]?.payload).toMatchObject({
        type: 'organization.updated',
        data: { id: organization.id, name: 'Acme Renamed' },
      });
    });

    it('rejects unknown fields and bad values with 422 and changes nothing', async () => {
      const organization = await createOrganization(env.database.db);
      const token = await createAccessToken(env.database.db, organization.id);
      for (const body of [
        { name: 'X', owner: 'me' },
        { email: 'not-an-email' },
        { socials: [{ platform: 'myspace', url: 'https://a.b' }] },
      ]) {
        const response = await fetch(`${env.stack.baseUrl}/v1/organizations/${organization.id}`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(response.status).toBe(422);
      }
      const row = await env.database.db.organization.findUniqueOrThrow({ where: { id: organization.id } });
      expect(row.name).toBe(organization.name);
      expect(row.email).toBeNull();
      expect(await env.database.db.outboxEvent.count()).toBe(0);
    });

    // Hardening issue item 7: a PATCH without a body answered 200.
    it('requires a body: none is a 422 at body, as Polar answers', async () => {
      const organization = await createOrganization(env.database.db);
      const token = await createAccessToken(env.database.db, organization.id);
      const response = await fetch(`${env.stack.baseUrl}/v1/organizations/${organization.id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual({
        detail: [{ loc: ['body'], msg: 'Field required', type: 'missing' }],
      });
      const asText = await fetch(`${env.stack.baseUrl}/v1/organizations/${organization.id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
        body: '{"name":"Plain"}',
      });
      expect(asText.status).toBe(415);
      expect(await asText.json()).toMatchObject({ error: 'UnsupportedMediaType' });
      expect(await env.database.db.outboxEvent.count()).toBe(0);
    });

    it("keeps the organization's time zone: an IANA name, UTC until set, read by Polar's SDK all along", async () => {
      const organization = await createOrganization(env.database.db);
      const token = await createAccessToken(env.database.db, organization.id);
      const patch = (body: unknown) =>
        fetch(`${env.stack.baseUrl}/v1/organizations/${organization.id}`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const read = async () =>
        (
          (await (
            await fetch(`${env.stack.baseUrl}/v1/organizations/${organization.id}`, {
              headers: { authorization: `Bearer ${token}` },
            })
          ).json()) as { time_zone: string }
        ).time_zone;
      expect(await read()).toBe('UTC');

      const changed = await patch({ time_zone: 'America/New_York' });
      expect(changed.status).toBe(200);
      expect(((await changed.json()) as { time_zone: string }).time_zone).toBe('America/New_York');
      // The SDK of the seed's version knows nothing of the field and still reads the organization.
      const fetched = await polarWith(token).organizations.get({ id: organization.id });
      expect(fetched.id).toBe(organization.id);

      // Not a zone at all, PostgreSQL's POSIX aliases (Intl knows none), a name too long: 422 at the field.
      for (const zone of ['Mars/Olympus_Mons', 'posix/Europe/Berlin', 'Europe/'.padEnd(80, 'x'), '']) {
        const refused = await patch({ time_zone: zone });
        expect(refused.status).toBe(422);
        const body = (await refused.json()) as { detail: { loc: string[]; msg: string }[] };
        expect(body.detail).toHaveLength(1);
        expect(body.detail[0]?.loc).toEqual(['body', 'time_zone']);
      }
      const unknown = (await (await patch({ time_zone: 'Mars/Olympus_Mons' })).json()) as {
        detail: { msg: string }[];
      };
      expect(unknown.detail[0]?.msg).toBe(
        'Unknown time zone: Mars/Olympus_Mons. Choose an IANA name such as Europe/Berlin.',
      );
      expect(await read()).toBe('America/New_York');
    });

    it.each([
      ['owner', 200],
      ['admin', 200],
      ['member,admin', 200],
    ])('lets a signed-in %s update: %p', async (role, status) => {
      const user = await signUpUser(env.stack.baseUrl);
      const organization = await createOrganization(env.database.db);
      await addMember(env.database.db, organization.id, user.user.id, role);
      const response = await fetch(`${env.stack.baseUrl}/v1/organizations/${organization.id}`, {
        method: 'PATCH',
        headers: { ...user.sessionHeaders(), 'content-type': 'application/json' },
        body: JSON.stringify({ website: 'https://acme.example' }),
      });
      expect(response.status).toBe(status);
    });
  });

  describe('/v1/organizations/{id}/notification-settings', () => {
    const settingsOf = (user: { sessionHeaders: () => Record<string, string> }, organizationId: string) =>
      fetch(`${env.stack.baseUrl}/v1/organizations/${organizationId}/notification-settings`, {
        headers: user.sessionHeaders(),
      });
    const choose = (
      user: { sessionHeaders: () => Record<string, string> },
      organizationId: string,
      body: unknown,
    ) =>
      fetch(`${env.stack.baseUrl}/v1/organizations/${organizationId}/notification-settings`, {
        method: 'PATCH',
        headers: { ...user.sessionHeaders(), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    it('gives owners and admins the New order email by default and members not; each changes only their own', async () => {
      const organization = await createOrganization(env.database.db);
      const [owner, admin, member] = await Promise.all([
        signUpUser(env.stack.baseUrl),
        signUpUser(env.stack.baseUrl),
        signUpUser(env.stack.baseUrl),
      ]);
      await addMember(env.database.db, organization.id, owner.user.id, 'owner');
      await addMember(env.database.db, organization.id, admin.user.id, 'admin');
      await addMember(env.database.db, organization.id, member.user.id, 'member');
      const read = async (user: typeof owner) => (await settingsOf(user, organization.id)).json();

      expect(await read(owner)).toEqual({ new_order_email: true, new_order_email_default: true });
      expect(await read(admin)).toEqual({ new_order_email: true, new_order_email_default: true });
      expect(await read(member)).toEqual({ new_order_email: false, new_order_email_default: false });

      // The owner switches theirs off, the member opts in: nobody else's changes.
      expect(await (await choose(owner, organization.id, { new_order_email: false })).json()).toEqual({
        new_order_email: false,
        new_order_email_default: true,
      });
      expect((await choose(member, organization.id, { new_order_email: true })).status).toBe(200);
      expect(await read(owner)).toEqual({ new_order_email: false, new_order_email_default: true });
      expect(await read(admin)).toEqual({ new_order_email: true, new_order_email_default: true });
      expect(await read(member)).toEqual({ new_order_email: true, new_order_email_default: false });
      const rows = await env.database.db.member.findMany({
        where: { organizationId: organization.id },
        select: { userId: true, newOrderEmail: true },
      });
      expect(Object.fromEntries(rows.map((row) => [row.userId, row.newOrderEmail]))).toEqual({
        [owner.user.id]: false,
        [admin.user.id]: null,
        [member.user.id]: true,
      });

      // null: back to the role's default.
      expect(await (await choose(owner, organization.id, { new_order_email: null })).json()).toEqual({
        new_order_email: true,
        new_order_email_default: true,
      });
    });

    it('names no member: a body naming another is refused, and an organization of others is not found', async () => {
      const organization = await createOrganization(env.database.db);
      const other = await createOrganization(env.database.db);
      const [owner, stranger] = await Promise.all([
        signUpUser(env.stack.baseUrl),
        signUpUser(env.stack.baseUrl),
      ]);
      await addMember(env.database.db, organization.id, owner.user.id, 'owner');
      await addMember(env.database.db, other.id, stranger.user.id, 'owner');

      const naming = await choose(owner, organization.id, {
        new_order_email: false,
        user_id: stranger.user.id,
      });
      expect(naming.status).toBe(422);
      expect((await choose(owner, organization.id, { new_order_email: 'yes' })).status).toBe(422);
      const foreign = await choose(stranger, organization.id, { new_order_email: false });
      expect(foreign.status).toBe(404);
      expect(await foreign.json()).toMatchObject({ error: 'ResourceNotFound' });
      expect((await settingsOf(stranger, organization.id)).status).toBe(404);
      expect(await env.database.db.member.count({ where: { newOrderEmail: { not: null } } })).toBe(0);
    });

    it('refuses an access token with 403: a token has no member behind it', async () => {
      const organization = await createOrganization(env.database.db);
      const token = await createAccessToken(env.database.db, organization.id);
      const response = await fetch(
        `${env.stack.baseUrl}/v1/organizations/${organization.id}/notification-settings`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({
        error: 'NotPermitted',
        detail: 'Notification settings belong to a signed-in member; an access token has none.',
      });
    });
  });

  describe('POST /v1/organizations/', () => {
    it('creates an organization owned by the signed-in user, with its default team', async () => {
      const creator = await signUpUser(env.stack.baseUrl);
      const slug = `new-shop-${Date.now()}`;
      const response = await fetch(`${env.stack.baseUrl}/v1/organizations/`, {
        method: 'POST',
        headers: { ...creator.sessionHeaders(), 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'New Shop',
          slug,
          website: 'https://new-shop.example',
          subscription_settings: {
            allow_multiple_subscriptions: false,
            allow_customer_updates: true,
            proration_behavior: 'invoice',
          },
        }),
      });
      expect(response.status).toBe(201);
      const created = (await response.json()) as {
        id: string;
        subscription_settings: { proration_behavior: string };
      };
      expect(created).toMatchObject({ name: 'New Shop', slug, website: 'https://new-shop.example' });
      expect(created.subscription_settings.proration_behavior).toBe('invoice');
      const members = await env.database.db.member.findMany({ where: { organizationId: created.id } });
      expect(members).toEqual([expect.objectContaining({ userId: creator.user.id, role: 'owner' })]);
      expect(
        await env.database.db.team.count({ where: { organizationId: created.id, name: 'New Shop' } }),
      ).toBe(1);
    });

    it('refuses a taken slug with a 422 on body.slug', async () => {
      const creator = await signUpUser(env.stack.baseUrl);
      await createOrganization(env.database.db, { slug: 'taken-slug' });
      const response = await fetch(`${env.stack.baseUrl}/v1/organizations/`, {
        method: 'POST',
        headers: { ...creator.sessionHeaders(), 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Copycat', slug: 'taken-slug' }),
      });
      expect(response.status).toBe(422);
      expect(((await response.json()) as { detail: { loc: string[] }[] }).detail[0]?.loc).toEqual([
        'body',
        'slug',
      ]);
    });

    // Hardening issue item 7: a token could create an organization it then could not read.
    it('refuses an organization access token with 403 NotPermitted, as Polar does', async () => {
      const creator = await signUpUser(env.stack.baseUrl);
      const home = await createOrganization(env.database.db);
      await addMember(env.database.db, home.id, creator.user.id, 'owner');
      for (const createdById of [creator.user.id, null]) {
        const token = await createAccessToken(env.database.db, home.id, { createdById });
        const slug = `token-shop-${randomUUID().slice(0, 8)}`;
        const response = await fetch(`${env.stack.baseUrl}/v1/organizations/`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Token Shop', slug }),
        });
        expect(response.status).toBe(403);
        expect(await response.json()).toMatchObject({ error: 'NotPermitted' });
        expect(await env.database.db.organization.count({ where: { slug } })).toBe(0);
      }
    });
  });
});
