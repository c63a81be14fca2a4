import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client, Connection } from '@temporalio/client';
import { createLogger } from '../../infra/logger.js';
import { temporalStarters } from '../../temporal/starters.js';
import { createMailer } from '../../integrations/smtp/mailer.js';
import { signUpUser } from '../../test/auth-client.js';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { addMember } from '../../test/factories.js';
import { startTestStack, TEST_AUTH_SECRET, useTestStack, type TestStack } from '../../test/stack.js';
import { createAuth } from './auth.js';

describe('/api/auth security defaults', () => {
  let database: TestDatabase;
  let first: TestStack;
  let second: TestStack;

  beforeAll(async () => {
    database = await createTestDatabase();
    // Two API processes on one database, as behind a load balancer.
    first = await startTestStack({ db: database.db, withWorker: false, authRateLimit: true });
    second = await startTestStack({ db: database.db, withWorker: false, authRateLimit: true });
  });
  afterAll(async () => {
    await first?.stop();
    await second?.stop();
    await database?.drop();
  });

  const signIn = (stack: TestStack, clientIp: string, extraHeaders: Record<string, string> = {}) =>
    fetch(`${stack.baseUrl}/api/auth/sign-in/email`, {
      method: 'POST',
      // The API trusts X-Forwarded-For from loopback (a local proxy), which lets a test play several clients.
      headers: {
        'content-type': 'application/json',
        origin: stack.baseUrl,
        'x-forwarded-for': clientIp,
        ...extraHeaders,
      },
      body: JSON.stringify({ email: `nobody-${randomUUID()}@example.test`, password: 'wrong password' }),
    });

  describe('rate limiting', () => {
    it('limits sign-in per client across API processes (counters in PostgreSQL)', async () => {
      const client = '203.0.113.10';
      const statuses = [];
      for (const stack of [first, second, first]) statuses.push((await signIn(stack, client)).status);
      expect(statuses).toEqual([401, 401, 401]);
      const limited = await signIn(second, client);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('x-retry-after'))).toBeGreaterThan(0);
      expect((await signIn(first, '203.0.113.11')).status).toBe(401);
      expect(await database.db.rateLimit.count()).toBeGreaterThan(0);
    });

    it('cannot be dodged by sending our internal client-address header', async () => {
      const client = '203.0.113.20';
      const statuses = [];
      for (let attempt = 0; attempt < 4; attempt += 1) {
        statuses.push(
          (await signIn(first, client, { 'x-tollgate-client-ip': `198.51.100.${attempt}` })).status,
        );
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
    });
  });

  describe('client addresses', () => {
    // Regression: loopback was a trusted proxy by default, so any local client could claim any address.
    it('ignores X-Forwarded-For unless a proxy is configured', async () => {
      const direct = await startTestStack({
        db: database.db,
        withWorker: false,
        authRateLimit: true,
        trustProxy: false,
      });
      try {
        const statuses = [];
        for (let index = 0; index < 4; index += 1) {
          statuses.push((await signIn(direct, `198.51.100.${200 + index}`)).status);
        }
        expect(statuses).toEqual([401, 401, 401, 429]);
      } finally {
        await direct.stop();
      }
    });
  });

  describe('per-account back-off', () => {
    const attempt = (identifier: Record<string, string>, password: string, clientIp: string) =>
      fetch(`${first.baseUrl}/api/auth/sign-in/${'username' in identifier ? 'username' : 'email'}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: first.baseUrl, 'x-forwarded-for': clientIp },
        body: JSON.stringify({ ...identifier, password }),
      });

    // Regression: limited per address only, the right password still worked after 32 failures.
    it('makes an account wait after five wrong passwords, from any address, even with the right one', async () => {
      const user = await signUpUser(first.baseUrl);
      const { email, username, password } = user.credentials;
      const statuses = [];
      // One address per attempt: the per-address limit never sees more than one.
      for (let index = 0; index < 5; index += 1) {
        statuses.push((await attempt({ email }, 'wrong password', `198.51.100.${100 + index}`)).status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401]);
      const locked = await attempt({ email }, password, '198.51.100.120');
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(20);
      expect(await locked.json()).toMatchObject({ code: 'TOO_MANY_FAILED_SIGN_INS' });
      // The same account under its username waits too.
      expect((await attempt({ username }, password, '198.51.100.121')).status).toBe(429);

      // Once the wait is over the right password works, and the count starts again.
      await database.db.signInThrottle.updateMany({ data: { lockedUntil: new Date(Date.now() - 1000) } });
      expect((await attempt({ email }, password, '198.51.100.122')).status).toBe(200);
      expect(await database.db.signInThrottle.count({ where: { identifier: `user:${user.user.id}` } })).toBe(
        0,
      );
    });

    it('treats an unknown account like a known one', async () => {
      const email = `ghost-${randomUUID()}@example.test`;
      for (let index = 0; index < 5; index += 1) {
        expect((await attempt({ email }, 'guess', `198.51.100.${140 + index}`)).status).toBe(401);
      }
      expect((await attempt({ email }, 'guess', '198.51.100.150')).status).toBe(429);
    });
  });

  describe('banning a user', () => {
    it('ends their sessions at once and refuses their sign-in', async () => {
      const admin = await signUpUser(second.baseUrl);
      await database.db.user.update({ where: { id: admin.user.id }, data: { role: 'admin' } });
      const target = await signUpUser(second.baseUrl);
      expect((await target.client.getSession()).data?.user.id).toBe(target.user.id);

      const banned = await admin.client.admin.banUser({ userId: target.user.id, banReason: 'fraud' });
      expect(banned.error).toBeNull();
      expect((await target.client.getSession()).data).toBeNull();
      expect(await database.db.session.count({ where: { userId: target.user.id } })).toBe(0);
      const again = await fetch(`${second.baseUrl}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: second.baseUrl,
          'x-forwarded-for': '203.0.113.30',
        },
        body: JSON.stringify({ email: target.credentials.email, password: target.credentials.password }),
      });
      expect(again.status).toBe(403);
    });
  });
});

describe('spec §6 organization permissions', () => {
  const env = useTestStack({ withWorker: false });

  const matrix: [resource: string, action: string, allowed: Record<string, boolean>][] = [
    ['organization', 'update', { owner: true, admin: true, member: false }],
    ['organization', 'delete', { owner: true, admin: false, member: false }],
    ['member', 'create', { owner: true, admin: true, member: false }],
    ['member', 'update', { owner: true, admin: true, member: false }],
    ['member', 'delete', { owner: true, admin: true, member: false }],
    ['invitation', 'create', { owner: true, admin: true, member: false }],
    ['invitation', 'cancel', { owner: true, admin: true, member: false }],
    ['team', 'create', { owner: true, admin: true, member: false }],
    ['team', 'update', { owner: true, admin: true, member: false }],
    ['team', 'delete', { owner: true, admin: true, member: false }],
  ];

  it.each(['owner', 'admin', 'member', 'member,admin'])(
    'grants a %s exactly the permissions of the table',
    async (role) => {
      const user = await signUpUser(env.stack.baseUrl);
      const organization = await env.database.db.organization.create({
        data: { name: 'Perm', slug: `perm-${randomUUID().slice(0, 8)}` },
      });
      await addMember(env.database.db, organization.id, user.user.id, role);
      const roles = role.split(',');
      for (const [resource, action, allowed] of matrix) {
        const response = await fetch(`${env.stack.baseUrl}/api/auth/organization/has-permission`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            origin: env.stack.baseUrl,
            cookie: user.cookieHeader(),
          },
          body: JSON.stringify({ organizationId: organization.id, permissions: { [resource]: [action] } }),
        });
        const { success } = (await response.json()) as { success: boolean };
        const expected = roles.some((single) => allowed[single]);
        expect({ resource, action, role, success }).toEqual({ resource, action, role, success: expected });
      }
    },
  );
});

describe('cookies outside localhost', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('are Secure and __Secure- prefixed when the public URL is https', async () => {
    const logger = createLogger({ level: 'silent', name: 'test' });
    const auth = createAuth(database.db, {
      publicUrl: 'https://pay.example.com',
      secret: TEST_AUTH_SECRET,
      trustedOrigins: [],
      rateLimitEnabled: false,
      logger,
      mailer: createMailer({ db: database.db, from: 'x@y.test', logger }),
      invitations: temporalStarters(
        new Client({ connection: Connection.lazy({ address: '127.0.0.1:1' }) }),
        'unused',
      ).invitations,
    });
    const response = await auth.handler(
      new Request('https://pay.example.com/api/auth/sign-up/email', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://pay.example.com' },
        body: JSON.stringify({
          email: `secure-${randomUUID()}@example.test`,
          name: 'S',
          password: 'correct horse battery staple',
        }),
      }),
    );
    expect(response.status).toBe(200);
    const sessionCookie = response.headers.getSetCookie().find((cookie) => cookie.includes('session_token'));
    expect(sessionCookie).toMatch(/^__Secure-tollgate\.session_token=/);
    expect(sessionCookie).toMatch(/; Secure/i);
    expect(sessionCookie).toMatch(/; HttpOnly/i);
    expect(sessionCookie).toMatch(/; SameSite=Lax/i);
  });
});
