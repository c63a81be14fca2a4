import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { grantPlatformAdmin, UserNotFoundError } from '../../domain/users/service.js';
import { createTestAuthClient, signUpUser } from '../../test/auth-client.js';
import { useTestStack } from '../../test/stack.js';

const password = 'correct horse battery staple';

/** Better Auth's admin plugin: the "all allowed" admin role and the "none" user role of spec §6. */
describe('/api/auth/admin/* (platform admins)', () => {
  const env = useTestStack({ withWorker: false });
  const signUp = () => signUpUser(env.stack.baseUrl);

  async function platformAdmin() {
    const admin = await signUp();
    await grantPlatformAdmin(env.database.db, admin.credentials.email);
    return admin;
  }

  it('make-admin promotes by email or username, keeps other roles, and refuses unknown users', async () => {
    const byEmail = await signUp();
    expect(
      (await grantPlatformAdmin(env.database.db, byEmail.credentials.email.toUpperCase())).user.role,
    ).toBe('user,admin');
    expect((await grantPlatformAdmin(env.database.db, byEmail.credentials.email)).changed).toBe(false);
    const byUsername = await signUp();
    expect((await grantPlatformAdmin(env.database.db, byUsername.credentials.username)).user.role).toBe(
      'user,admin',
    );
    await expect(grantPlatformAdmin(env.database.db, 'nobody@example.test')).rejects.toBeInstanceOf(
      UserNotFoundError,
    );
  });

  it('lists and searches users for admins only', async () => {
    const admin = await platformAdmin();
    const target = await signUp();
    const found = await admin.client.admin.listUsers({
      query: { searchField: 'email', searchValue: target.credentials.email, searchOperator: 'contains' },
    });
    expect(found.data?.users).toEqual([expect.objectContaining({ id: target.user.id })]);
    expect(found.data?.total).toBe(1);

    const plain = await signUp();
    expect((await plain.client.admin.listUsers({ query: {} })).error).toMatchObject({ status: 403 });
  });

  it('sets roles, and the new admin may use the admin calls', async () => {
    const admin = await platformAdmin();
    const target = await signUp();
    const promoted = await admin.client.admin.setRole({ userId: target.user.id, role: 'admin' });
    expect(promoted.data?.user).toMatchObject({ id: target.user.id, role: 'admin' });
    expect((await target.client.admin.listUsers({ query: {} })).error).toBeNull();

    await admin.client.admin.setRole({ userId: target.user.id, role: 'user' });
    expect((await target.client.admin.listUsers({ query: {} })).error).toMatchObject({ status: 403 });
  });

  it('bans (refusing sign-in, keeping the reason) and unbans', async () => {
    const admin = await platformAdmin();
    const target = await signUp();
    await admin.client.admin.banUser({ userId: target.user.id, banReason: 'chargebacks' });
    const refused = await createTestAuthClient(env.stack.baseUrl).client.signIn.email({
      email: target.credentials.email,
      password,
    });
    expect(refused.error).toMatchObject({ status: 403 });
    expect(refused.error?.message).toMatch(/^You have been banned from this application/);
    expect(await env.database.db.user.findUniqueOrThrow({ where: { id: target.user.id } })).toMatchObject({
      banned: true,
      banReason: 'chargebacks',
    });

    await admin.client.admin.unbanUser({ userId: target.user.id });
    const again = await createTestAuthClient(env.stack.baseUrl).client.signIn.email({
      email: target.credentials.email,
      password,
    });
    expect(again.error).toBeNull();
  });

  it('impersonates a user and stops impersonating', async () => {
    const admin = await platformAdmin();
    const target = await signUp();
    const started = await admin.client.admin.impersonateUser({ userId: target.user.id });
    expect(started.error).toBeNull();
    const asTarget = await admin.client.getSession();
    expect(asTarget.data?.user.id).toBe(target.user.id);
    expect(asTarget.data?.session).toMatchObject({ impersonatedBy: admin.user.id });

    await admin.client.admin.stopImpersonating();
    expect((await admin.client.getSession()).data?.user.id).toBe(admin.user.id);
  });

  it("sets a user's password", async () => {
    const admin = await platformAdmin();
    const target = await signUp();
    expect(
      (await admin.client.admin.setUserPassword({ userId: target.user.id, newPassword: 'set by the admin' }))
        .data,
    ).toEqual({ status: true });
    const signedIn = await createTestAuthClient(env.stack.baseUrl).client.signIn.email({
      email: target.credentials.email,
      password: 'set by the admin',
    });
    expect(signedIn.error).toBeNull();
  });

  it("lists and revokes a user's sessions", async () => {
    const admin = await platformAdmin();
    const target = await signUp();
    const other = createTestAuthClient(env.stack.baseUrl);
    await other.client.signIn.email({ email: target.credentials.email, password });

    const sessions = await admin.client.admin.listUserSessions({ userId: target.user.id });
    expect(sessions.data?.sessions).toHaveLength(2);
    const first = sessions.data!.sessions[0]!;
    expect((await admin.client.admin.revokeUserSession({ sessionToken: first.token })).data).toEqual({
      success: true,
    });
    expect(
      (await admin.client.admin.listUserSessions({ userId: target.user.id })).data?.sessions,
    ).toHaveLength(1);

    expect((await admin.client.admin.revokeUserSessions({ userId: target.user.id })).data).toEqual({
      success: true,
    });
    expect((await target.client.getSession()).data).toBeNull();
    expect((await other.client.getSession()).data).toBeNull();
  });

  it('creates and deletes users', async () => {
    const admin = await platformAdmin();
    const email = `created-${randomUUID()}@example.test`;
    const created = await admin.client.admin.createUser({ email, password, name: 'Created', role: 'user' });
    expect(created.data?.user).toMatchObject({ email });
    expect((await admin.client.admin.removeUser({ userId: created.data!.user.id })).data).toEqual({
      success: true,
    });
    expect(await env.database.db.user.count({ where: { email } })).toBe(0);
  });
});
