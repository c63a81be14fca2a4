import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestAuthClient, postAuth, signUpUser } from '../../test/auth-client.js';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { addMember } from '../../test/factories.js';
import { startTestStack, useTestStack, type TestStack } from '../../test/stack.js';
import { totpCode } from '../../test/totp.js';

type ErrorAnswer = { status: number; message?: string; code?: string };

describe('spec §8 error catalogue on /api/auth', () => {
  const env = useTestStack({ withWorker: false });

  /** A raw call, so the status and body are the server's, not a client library's reading of them. */
  async function post(path: string, body: unknown, cookie?: string): Promise<ErrorAnswer> {
    const answer = await postAuth(env.stack.baseUrl, path, body, cookie);
    const json = (answer.body ?? {}) as { message?: string; code?: string };
    return { status: answer.status, message: json.message, code: json.code };
  }

  const password = 'correct horse battery staple';
  const signUp = (username: string) =>
    post('/sign-up/email', { email: `${randomUUID()}@example.test`, name: 'N', password, username });

  it('slug is taken (check-slug)', async () => {
    const owner = await signUpUser(env.stack.baseUrl);
    const slug = `taken-${randomUUID().slice(0, 8)}`;
    await owner.client.organization.create({ name: 'Taken', slug });
    expect(await post('/organization/check-slug', { slug }, owner.cookieHeader())).toEqual({
      status: 400,
      message: 'slug is taken',
      code: 'ORGANIZATION_SLUG_ALREADY_TAKEN',
    });
  });

  it('username is too short / too long / invalid (422) at sign-up', async () => {
    expect(await signUp('ab')).toMatchObject({
      status: 422,
      message: 'username is too short',
      code: 'USERNAME_TOO_SHORT',
    });
    expect(await signUp('a'.repeat(31))).toMatchObject({ status: 422, message: 'username is too long' });
    expect(await signUp('bad name!')).toMatchObject({
      status: 422,
      message: 'username is invalid',
      code: 'INVALID_USERNAME',
    });
  });

  it('username is too short (422) at update-user and at sign-in', async () => {
    const user = await signUpUser(env.stack.baseUrl);
    expect(await post('/update-user', { username: 'x' }, user.cookieHeader())).toMatchObject({
      status: 422,
      message: 'username is too short',
    });
    expect(await post('/sign-in/username', { username: 'x', password })).toMatchObject({
      status: 422,
      message: 'username is too short',
    });
  });

  it('username is already taken. please try another.', async () => {
    await signUpUser(env.stack.baseUrl, { username: 'dup_name' });
    expect(await signUp('DUP_NAME')).toMatchObject({
      message: 'username is already taken. please try another.',
      code: 'USERNAME_IS_ALREADY_TAKEN',
    });
  });

  it('invalid username or password (401)', async () => {
    const user = await signUpUser(env.stack.baseUrl);
    expect(
      await post('/sign-in/username', { username: user.credentials.username, password: 'wrong password' }),
    ).toMatchObject({
      status: 401,
      message: 'invalid username or password',
    });
  });

  it('Invitation not found (get, reject)', async () => {
    const user = await signUpUser(env.stack.baseUrl);
    const missing = randomUUID();
    const get = await fetch(`${env.stack.baseUrl}/api/auth/organization/get-invitation?id=${missing}`, {
      headers: { cookie: user.cookieHeader() },
    });
    expect(((await get.json()) as { message: string }).message).toBe('Invitation not found');
    expect(
      (await post('/organization/reject-invitation', { invitationId: missing }, user.cookieHeader())).message,
    ).toBe('Invitation not found');
  });

  it('You are not allowed to delete this member (403)', async () => {
    const owner = await signUpUser(env.stack.baseUrl);
    const created = await owner.client.organization.create({
      name: 'Team',
      slug: `team-${randomUUID().slice(0, 8)}`,
    });
    const organizationId = created.data?.id ?? '';
    const memberA = await signUpUser(env.stack.baseUrl);
    const memberB = await signUpUser(env.stack.baseUrl);
    await addMember(env.database.db, organizationId, memberA.user.id, 'member');
    const target = await addMember(env.database.db, organizationId, memberB.user.id, 'member');
    expect(
      await post(
        '/organization/remove-member',
        { memberIdOrEmail: target.id, organizationId },
        memberA.cookieHeader(),
      ),
    ).toMatchObject({ status: 403, message: 'You are not allowed to delete this member' });
  });

  it('invalid two factor cookie / invalid two factor authentication (401), then a TOTP sign-in', async () => {
    const user = await signUpUser(env.stack.baseUrl);
    const enabled = await user.client.twoFactor.enable({ password });
    const totpURI = enabled.data && 'totpURI' in enabled.data ? enabled.data.totpURI : '';
    expect(totpURI).toMatch(/^otpauth:\/\/totp\/Tollgate:/);
    expect((await user.client.twoFactor.verifyTotp({ code: totpCode(totpURI) })).error).toBeNull();
    await user.client.signOut();

    expect(await post('/two-factor/verify-totp', { code: '000000' })).toMatchObject({
      status: 401,
      message: 'invalid two factor cookie',
    });

    const fresh = createTestAuthClient(env.stack.baseUrl);
    const first = await fresh.client.signIn.email({ email: user.credentials.email, password });
    expect(first.data).toMatchObject({ twoFactorRedirect: true });
    const wrongCode = totpCode(totpURI) === '123456' ? '654321' : '123456';
    expect(await post('/two-factor/verify-totp', { code: wrongCode }, fresh.cookieHeader())).toMatchObject({
      status: 401,
      message: 'invalid two factor authentication',
    });
    const verified = await fresh.client.twoFactor.verifyTotp({ code: totpCode(totpURI), trustDevice: true });
    expect(verified.error).toBeNull();
    expect((await fresh.client.getSession()).data?.user.id).toBe(user.user.id);
    expect([...fresh.cookies.keys()].some((name) => name.endsWith('trust_device'))).toBe(true);
  });

  it('refuses malformed ids with 400 INVALID_ID instead of a database error', async () => {
    const user = await signUpUser(env.stack.baseUrl);
    expect(await post('/organization/set-active', { organizationId: 'abc' }, user.cookieHeader())).toEqual({
      status: 400,
      message: 'organizationId must be a UUID',
      code: 'INVALID_ID',
    });
    const get = await fetch(`${env.stack.baseUrl}/api/auth/organization/get-invitation?id=nope`, {
      headers: { cookie: user.cookieHeader() },
    });
    expect(get.status).toBe(400);
  });
});

describe('organization creation settings', () => {
  let database: TestDatabase;
  let limited: TestStack;
  let closed: TestStack;

  beforeAll(async () => {
    database = await createTestDatabase();
    limited = await startTestStack({ db: database.db, withWorker: false, organizations: { limit: 1 } });
    closed = await startTestStack({
      db: database.db,
      withWorker: false,
      organizations: { allowCreation: false },
    });
  });
  afterAll(async () => {
    await limited?.stop();
    await closed?.stop();
    await database?.drop();
  });

  const slug = () => `org-${randomUUID().slice(0, 8)}`;

  it('You have reached the maximum number of organizations (403), and Organization already exists', async () => {
    const user = await signUpUser(limited.baseUrl);
    const first = await user.client.organization.create({ name: 'First', slug: slug() });
    expect(first.error).toBeNull();
    const second = await user.client.organization.create({ name: 'Second', slug: slug() });
    expect(second.error).toMatchObject({
      status: 403,
      message: 'You have reached the maximum number of organizations',
    });

    const other = await signUpUser(limited.baseUrl);
    const duplicate = await other.client.organization.create({ name: 'Copy', slug: first.data?.slug ?? '' });
    expect(duplicate.error?.message).toBe('Organization already exists');
    expect(await database.db.organization.count({ where: { name: { in: ['Second', 'Copy'] } } })).toBe(0);
  });

  it('You are not allowed to create a new organization (403) when creation is switched off', async () => {
    const user = await signUpUser(closed.baseUrl);
    const result = await user.client.organization.create({ name: 'Nope', slug: slug() });
    expect(result.error).toMatchObject({
      status: 403,
      message: 'You are not allowed to create a new organization',
    });
  });
});
