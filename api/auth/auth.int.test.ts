import { describe, expect, it } from '@jest/globals';
import { createTestAuthClient, signUpUser } from '../../test/auth-client.js';
import { useTestStack } from '../../test/stack.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('/api/auth (Better Auth)', () => {
  const env = useTestStack({ withWorker: false });

  describe('POST /sign-up/email', () => {
    it('creates a user with a UUID id, a lowercase username and the display username as typed', async () => {
      const { user, client } = await signUpUser(env.stack.baseUrl, { username: 'Alice.One' });
      expect(user.id).toMatch(UUID);
      const session = await client.getSession();
      expect(session.data?.user).toMatchObject({
        id: user.id,
        username: 'alice.one',
        displayUsername: 'Alice.One',
      });
      const row = await env.database.db.user.findUniqueOrThrow({ where: { id: user.id } });
      expect(row.username).toBe('alice.one');
    });

    it('refuses a username that is taken, whatever its case', async () => {
      await signUpUser(env.stack.baseUrl, { username: 'taken_name' });
      const { client } = createTestAuthClient(env.stack.baseUrl);
      const result = await client.signUp.email({
        email: 'second@example.test',
        username: 'Taken_Name',
        name: 'Second',
        password: 'correct horse battery staple',
      });
      expect(result.error?.status).toBe(400);
      expect(await env.database.db.user.count({ where: { email: 'second@example.test' } })).toBe(0);
    });
  });

  describe('POST /sign-in/username', () => {
    it('answers a token and the user, case-insensitively on the username', async () => {
      const { credentials, user } = await signUpUser(env.stack.baseUrl, { username: 'bob_builder' });
      const { client } = createTestAuthClient(env.stack.baseUrl);
      const result = await client.signIn.username({
        username: 'BOB_builder',
        password: credentials.password,
      });
      expect(result.error).toBeNull();
      expect(result.data?.token).toEqual(expect.any(String));
      expect(result.data?.user).toMatchObject({
        id: user.id,
        email: credentials.email,
        username: 'bob_builder',
      });
    });

    it('refuses a wrong password with 401', async () => {
      const { credentials } = await signUpUser(env.stack.baseUrl);
      const { client } = createTestAuthClient(env.stack.baseUrl);
      const result = await client.signIn.username({
        username: credentials.username,
        password: 'wrong password!',
      });
      expect(result.error?.status).toBe(401);
    });
  });

  describe('POST /organization/create', () => {
    it('makes the creator owner, creates a default team named after it and activates it', async () => {
      const { client, user } = await signUpUser(env.stack.baseUrl);
      const created = await client.organization.create({ name: 'Acme Widgets', slug: `acme-${Date.now()}` });
      expect(created.error).toBeNull();
      const organization = created.data;
      expect(organization?.id).toMatch(UUID);
      expect(organization?.members).toEqual([expect.objectContaining({ userId: user.id, role: 'owner' })]);

      const teams = await env.database.db.team.findMany({ where: { organizationId: organization?.id } });
      expect(teams.map((team) => team.name)).toEqual(['Acme Widgets']);
      const session = await client.getSession();
      expect(session.data?.session.activeOrganizationId).toBe(organization?.id);

      const listed = await client.organization.list();
      expect(listed.data?.map((entry) => entry.id)).toEqual([organization?.id]);
    });

    it('keeps the current active organization when asked to', async () => {
      const { client } = await signUpUser(env.stack.baseUrl);
      const first = await client.organization.create({ name: 'First', slug: `first-${Date.now()}` });
      await client.organization.create({
        name: 'Second',
        slug: `second-${Date.now()}`,
        keepCurrentActiveOrganization: true,
      });
      const session = await client.getSession();
      expect(session.data?.session.activeOrganizationId).toBe(first.data?.id);
    });

    it('refuses an anonymous caller', async () => {
      const { client } = createTestAuthClient(env.stack.baseUrl);
      const result = await client.organization.create({ name: 'Nope', slug: `nope-${Date.now()}` });
      expect(result.error?.status).toBe(401);
    });
  });
});
