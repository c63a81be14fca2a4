import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { signUpUser } from '../../test/auth-client.js';
import { addMember, createAccessToken, createOrganization } from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

type TokenResponse = {
  organization_access_token: {
    id: string;
    organization_id: string;
    comment: string;
    scopes: string[];
    expires_at: string | null;
  };
  token: string;
};

describe('/v1/organization-access-tokens', () => {
  const env = useTestStack({ withWorker: false });
  beforeEach(() => env.database.reset());

  async function memberOfNewOrganization(role: string) {
    const user = await signUpUser(env.stack.baseUrl);
    const organization = await createOrganization(env.database.db);
    await addMember(env.database.db, organization.id, user.user.id, role);
    return { user, organization };
  }

  const call = (
    path: string,
    init: RequestInit & { cookie?: string; origin?: string; token?: string } = {},
  ) => {
    const headers = new Headers(init.headers);
    if (init.cookie) headers.set('cookie', init.cookie);
    if (init.origin) headers.set('origin', init.origin);
    if (init.token) headers.set('authorization', `Bearer ${init.token}`);
    if (init.body) headers.set('content-type', 'application/json');
    return fetch(`${env.stack.baseUrl}/v1/organization-access-tokens${path}`, { ...init, headers });
  };

  describe('POST /', () => {
    it('gives an owner a token, shown once and stored only as its hash, that works with the SDK', async () => {
      const { user, organization } = await memberOfNewOrganization('owner');
      const response = await call('/', {
        method: 'POST',
        ...user.sessionHeaders(),
        body: JSON.stringify({
          organization_id: organization.id,
          comment: 'CI',
          expires_in: 'P30D',
          scopes: ['organizations:read'],
        }),
      });
      expect(response.status).toBe(201);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const created = (await response.json()) as TokenResponse;
      expect(created.organization_access_token).toMatchObject({
        organization_id: organization.id,
        comment: 'CI',
        scopes: ['organizations:read'],
      });
      const expiresInMs = Date.parse(created.organization_access_token.expires_at ?? '') - Date.now();
      expect(expiresInMs).toBeGreaterThan(29 * 86_400_000);
      expect(expiresInMs).toBeLessThanOrEqual(30 * 86_400_000);

      const stored = await env.database.db.organizationAccessToken.findUniqueOrThrow({
        where: { id: created.organization_access_token.id },
      });
      expect(stored.tokenHash).toBe(createHash('sha256').update(created.token).digest('hex'));
      expect(stored.createdById).toBe(user.user.id);
      expect(JSON.stringify(stored)).not.toContain(created.token);

      const polar = new Polar({ accessToken: created.token, serverURL: env.stack.baseUrl });
      expect((await polar.organizations.get({ id: organization.id })).id).toBe(organization.id);
    });

    it('lets an admin (also as one of several roles) create one', async () => {
      for (const [role, status] of [
        ['admin', 201],
        ['member,admin', 201],
      ] as const) {
        const { user, organization } = await memberOfNewOrganization(role);
        const response = await call('/', {
          method: 'POST',
          ...user.sessionHeaders(),
          body: JSON.stringify({ organization_id: organization.id, comment: role }),
        });
        expect(response.status).toBe(status);
      }
    });

    it('rejects bad input with 422 and creates nothing', async () => {
      const { user, organization } = await memberOfNewOrganization('owner');
      for (const body of [
        { organization_id: organization.id },
        { organization_id: organization.id, comment: 'x', scopes: ['everything'] },
        { organization_id: organization.id, comment: 'x', expires_in: -5 },
        { organization_id: 'nope', comment: 'x' },
      ]) {
        const response = await call('/', {
          method: 'POST',
          ...user.sessionHeaders(),
          body: JSON.stringify(body),
        });
        expect(response.status).toBe(422);
      }
      expect(await env.database.db.organizationAccessToken.count()).toBe(0);
    });
  });

  describe('GET /', () => {
    it('lists the tokens of organizations the user manages, optionally for one of them', async () => {
      const { user, organization } = await memberOfNewOrganization('owner');
      const second = await createOrganization(env.database.db);
      await addMember(env.database.db, second.id, user.user.id, 'admin');
      const memberOnly = await createOrganization(env.database.db);
      await addMember(env.database.db, memberOnly.id, user.user.id, 'member');
      await createAccessToken(env.database.db, organization.id, { comment: 'first' });
      await createAccessToken(env.database.db, second.id, { comment: 'second' });
      await createAccessToken(env.database.db, memberOnly.id, { comment: 'hidden' });

      const all = (await (await call('/', { ...user.sessionHeaders() })).json()) as {
        items: { comment: string }[];
        pagination: { total_count: number };
      };
      expect(all.items.map((token) => token.comment).sort()).toEqual(['first', 'second']);
      expect(all.pagination.total_count).toBe(2);
      expect(JSON.stringify(all)).not.toContain('tollgate_oat_');

      const one = (await (
        await call(`/?organization_id=${second.id}`, { ...user.sessionHeaders() })
      ).json()) as {
        items: { comment: string }[];
      };
      expect(one.items.map((token) => token.comment)).toEqual(['second']);
    });
  });

  describe('PATCH /{id}', () => {
    it("changes a token's comment and scopes, and the token's next request has only the new ones", async () => {
      const { user, organization } = await memberOfNewOrganization('owner');
      const created = (await (
        await call('/', {
          method: 'POST',
          ...user.sessionHeaders(),
          body: JSON.stringify({
            organization_id: organization.id,
            comment: 'CI',
            scopes: ['organizations:read', 'products:read'],
          }),
        })
      ).json()) as TokenResponse;
      const readProducts = () =>
        fetch(`${env.stack.baseUrl}/v1/products/`, { headers: { authorization: `Bearer ${created.token}` } });
      expect((await readProducts()).status).toBe(200);

      const id = created.organization_access_token.id;
      const response = await call(`/${id}`, {
        method: 'PATCH',
        ...user.sessionHeaders(),
        body: JSON.stringify({ comment: 'Deploys', scopes: ['organizations:read'] }),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ id, comment: 'Deploys', scopes: ['organizations:read'] });
      expect((await readProducts()).status).toBe(403);

      // Left out or null: unchanged.
      const kept = await call(`/${id}`, {
        method: 'PATCH',
        ...user.sessionHeaders(),
        body: JSON.stringify({ scopes: null }),
      });
      expect(await kept.json()).toMatchObject({ comment: 'Deploys', scopes: ['organizations:read'] });
      const refused = await call(`/${id}`, {
        method: 'PATCH',
        ...user.sessionHeaders(),
        body: JSON.stringify({ scopes: ['everything:write'] }),
      });
      expect(refused.status).toBe(422);
    });

    it('lets only owners and admins change a token', async () => {
      const { organization } = await memberOfNewOrganization('owner');
      await createAccessToken(env.database.db, organization.id);
      const [row] = await env.database.db.organizationAccessToken.findMany();
      const member = await signUpUser(env.stack.baseUrl);
      await addMember(env.database.db, organization.id, member.user.id, 'member');
      const response = await call(`/${row?.id}`, {
        method: 'PATCH',
        ...member.sessionHeaders(),
        body: JSON.stringify({ comment: 'mine now' }),
      });
      expect(response.status).toBe(403);
      expect(
        (await env.database.db.organizationAccessToken.findUniqueOrThrow({ where: { id: row!.id } })).comment,
      ).not.toBe('mine now');
    });
  });

  describe('DELETE /{id}', () => {
    it('revokes a token at once', async () => {
      const { user, organization } = await memberOfNewOrganization('owner');
      const token = await createAccessToken(env.database.db, organization.id);
      const [row] = await env.database.db.organizationAccessToken.findMany();
      const response = await call(`/${row?.id}`, { method: 'DELETE', ...user.sessionHeaders() });
      expect(response.status).toBe(204);
      const after = await fetch(`${env.stack.baseUrl}/v1/organizations/${organization.id}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(after.status).toBe(401);
    });
  });
});
