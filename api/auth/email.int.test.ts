import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '../../infra/logger.js';
import { createMailer } from '../../integrations/smtp/mailer.js';
import { createTestAuthClient, signUpUser } from '../../test/auth-client.js';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { startTestSmtpServer } from '../../test/smtp.js';
import { startTestStack, useTestStack, type TestStack } from '../../test/stack.js';

const silent = createLogger({ level: 'silent', name: 'test' });

describe('sign-in emails over SMTP', () => {
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

  it('sends a verification email on sign-up whose link verifies the address', async () => {
    const { user, credentials } = await signUpUser(stack.baseUrl);
    const email = await smtp.waitFor((message) => message.to.includes(credentials.email));
    expect(email.subject).toBe('Verify your email address');
    expect(email.from).toBe('no-reply@tollgate.test');
    const link = /(http:\/\/127\.0\.0\.1:\d+\/api\/auth\/verify-email\?token=[^\s"<]+)/.exec(email.body)?.[1];
    expect(link).toBeDefined();

    expect((await database.db.user.findUniqueOrThrow({ where: { id: user.id } })).emailVerified).toBe(false);
    const response = await fetch(link ?? '', { redirect: 'manual' });
    expect([200, 302]).toContain(response.status);
    expect((await database.db.user.findUniqueOrThrow({ where: { id: user.id } })).emailVerified).toBe(true);
  });

  it('resets a password with the emailed token, which lives one hour', async () => {
    const { credentials } = await signUpUser(stack.baseUrl);
    const { client } = createTestAuthClient(stack.baseUrl);
    const requested = await client.requestPasswordReset({
      email: credentials.email,
      redirectTo: '/reset-password',
    });
    expect(requested.error).toBeNull();

    const email = await smtp.waitFor(
      (message) => message.to.includes(credentials.email) && message.subject.includes('Reset'),
    );
    const token = /\/reset-password\/([A-Za-z0-9_-]+)/.exec(email.body)?.[1];
    expect(token).toBeDefined();
    const verification = await database.db.verification.findFirstOrThrow({
      where: { identifier: `reset-password:${token}` },
    });
    const lifetimeSeconds = (verification.expiresAt.getTime() - verification.createdAt.getTime()) / 1000;
    expect(Math.round(lifetimeSeconds)).toBe(3600);

    const reset = await client.resetPassword({ newPassword: 'a brand new passphrase', token: token ?? '' });
    expect(reset.error).toBeNull();
    const withOld = await client.signIn.email({ email: credentials.email, password: credentials.password });
    expect(withOld.error?.status).toBe(401);
    const withNew = await client.signIn.email({
      email: credentials.email,
      password: 'a brand new passphrase',
    });
    expect(withNew.error).toBeNull();
  });

  it('sends an email once per idempotency key, however often it is retried', async () => {
    const mailer = createMailer({
      db: database.db,
      smtpUrl: smtp.url,
      from: 'Tollgate <no-reply@tollgate.test>',
      logger: silent,
    });
    const email = {
      to: 'once@example.test',
      subject: 'Only once',
      text: 'hello',
      idempotencyKey: 'test:only-once',
    };
    expect(await mailer.send(email)).toBe('sent');
    expect(await mailer.send(email)).toBe('duplicate');
    expect(await Promise.all([mailer.send(email), mailer.send(email)])).toEqual(['duplicate', 'duplicate']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.received.filter((message) => message.subject === 'Only once')).toHaveLength(1);
  });
});

describe('sign-in emails without SMTP (dev mailbox)', () => {
  const env = useTestStack({ withWorker: false });

  it('keeps the verification email in the mailbox table, once', async () => {
    const { credentials } = await signUpUser(env.stack.baseUrl);
    const messages = await env.database.db.emailMessage.findMany({ where: { toAddress: credentials.email } });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      subject: 'Verify your email address',
      transport: 'mailbox',
      status: 'sent',
    });
    expect(messages[0]?.text).toContain('/api/auth/verify-email?token=');

    const mailer = createMailer({ db: env.database.db, from: 'x@y.test', logger: silent });
    const email = { to: 'box@example.test', subject: 'Boxed', text: 'hi', idempotencyKey: 'test:boxed' };
    expect(await Promise.all([mailer.send(email), mailer.send(email)])).toEqual(
      expect.arrayContaining(['sent', 'duplicate']),
    );
    expect(await env.database.db.emailMessage.count({ where: { idempotencyKey: 'test:boxed' } })).toBe(1);
  });
});
