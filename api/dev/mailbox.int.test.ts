import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { signUpUser } from '../../test/auth-client.js';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { createMailboxMessage } from '../../test/factories.js';
import { startTestSmtpServer } from '../../test/smtp.js';
import { startTestStack, useTestStack, type TestStack } from '../../test/stack.js';

type MailboxPage = {
  items: { id: string; to: string; subject: string; text: string; created_at: string }[];
  pagination: { total_count: number; max_page: number };
};

const getMailbox = (baseUrl: string, query = '', cookie?: string) =>
  fetch(`${baseUrl}/api/dev/mailbox${query}`, { headers: cookie ? { cookie } : {} });

const getSettings = async (baseUrl: string) =>
  (await (await fetch(`${baseUrl}/api/settings`)).json()) as { dev_mailbox: boolean };

describe('GET /api/dev/mailbox in a sandbox without SMTP', () => {
  const env = useTestStack({ withWorker: false });
  beforeEach(() => env.database.reset());

  it('is announced in the public settings', async () => {
    expect((await getSettings(env.stack.baseUrl)).dev_mailbox).toBe(true);
  });

  it('refuses anonymous callers with 401', async () => {
    const response = await getMailbox(env.stack.baseUrl);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'Unauthorized' });
  });

  it('shows a user only the emails addressed to them (any letter case), newest first, a page at a time', async () => {
    const alice = await signUpUser(env.stack.baseUrl);
    const bob = await signUpUser(env.stack.baseUrl);
    const base = Date.now();
    for (const [index, subject] of ['older', 'newer', 'newest'].entries()) {
      await createMailboxMessage(env.database.db, {
        toAddress: index === 2 ? alice.credentials.email.toUpperCase() : alice.credentials.email,
        subject,
        createdAt: new Date(base + (index + 1) * 60_000),
      });
    }
    await createMailboxMessage(env.database.db, { toAddress: bob.credentials.email, subject: 'for bob' });

    const first = await getMailbox(env.stack.baseUrl, '?limit=2', alice.cookieHeader());
    expect(first.status).toBe(200);
    const page1 = (await first.json()) as MailboxPage;
    expect(page1.items.map((item) => item.subject)).toEqual(['newest', 'newer']);
    expect(page1.pagination).toEqual({ total_count: 4, max_page: 2 });

    const page2 = (await (
      await getMailbox(env.stack.baseUrl, '?limit=2&page=2', alice.cookieHeader())
    ).json()) as MailboxPage;
    expect(page2.items.map((item) => item.subject)).toEqual(['older', 'Verify your email address']);
    const verification = page2.items[1];
    expect(verification?.to).toBe(alice.credentials.email);
    expect(verification?.text).toContain('/api/auth/verify-email?token=');
    expect(Number.isNaN(Date.parse(verification?.created_at ?? ''))).toBe(false);
  });

  it('shows an admin every email', async () => {
    const alice = await signUpUser(env.stack.baseUrl);
    const bob = await signUpUser(env.stack.baseUrl);
    await env.database.db.user.update({ where: { id: alice.user.id }, data: { role: 'user,admin' } });

    const response = await getMailbox(env.stack.baseUrl, '', alice.cookieHeader());
    const page = (await response.json()) as MailboxPage;
    expect(page.items.map((item) => item.to).sort()).toEqual(
      [alice.credentials.email, bob.credentials.email].sort(),
    );
    expect(page.pagination.total_count).toBe(2);
  });

  it('answers 422 for an invalid page', async () => {
    const alice = await signUpUser(env.stack.baseUrl);
    const response = await getMailbox(env.stack.baseUrl, '?page=0', alice.cookieHeader());
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ detail: [{ loc: ['query', 'page'] }] });
  });
});

describe('GET /api/dev/mailbox when emails go out over SMTP', () => {
  let database: TestDatabase;
  let stack: TestStack;
  let smtp: Awaited<ReturnType<typeof startTestSmtpServer>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    smtp = await startTestSmtpServer();
    stack = await startTestStack({ db: database.db, withWorker: false, smtpUrl: smtp.url });
  });
  afterAll(async () => {
    await stack?.stop();
    await smtp?.stop();
    await database?.drop();
  });

  it('does not exist, even for a signed-in user, and is not announced', async () => {
    const alice = await signUpUser(stack.baseUrl);
    await database.db.user.update({ where: { id: alice.user.id }, data: { role: 'admin' } });
    expect((await getMailbox(stack.baseUrl)).status).toBe(404);
    const response = await getMailbox(stack.baseUrl, '', alice.cookieHeader());
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'ResourceNotFound' });
    expect((await getSettings(stack.baseUrl)).dev_mailbox).toBe(false);
  });
});

describe('GET /api/dev/mailbox in a live deployment', () => {
  const env = useTestStack({ withWorker: false, mode: 'live' });

  it('does not exist, even for a signed-in admin, and is not announced', async () => {
    const alice = await signUpUser(env.stack.baseUrl);
    await env.database.db.user.update({ where: { id: alice.user.id }, data: { role: 'admin' } });
    const response = await getMailbox(env.stack.baseUrl, '', alice.cookieHeader());
    expect(response.status).toBe(404);
    expect((await getSettings(env.stack.baseUrl)).dev_mailbox).toBe(false);
  });
});
