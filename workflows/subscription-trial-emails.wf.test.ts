// A free trial's emails through the subscription workflow on the time-skipping server, received by a
// real SMTP server: trial started (nothing charged, the first payment and its date), the reminder
// 3 days before the end (the amount and the date; none for a shorter trial or a trial set to
// cancel), and the first charge's receipt as the trial's conversion, each sent once.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import pino from 'pino';
import { createSubscriptionActivities } from '../activities/subscriptions.js';
import { DOCUMENT_LOCALE, formatDay } from '../domain/dates/rules.js';
import { subscriptionWorkflowId } from '../domain/subscriptions/rules.js';
import { startSubscription } from '../domain/subscriptions/service.js';
import { noTax } from '../domain/tax/rules.js';
import { createSandboxProcessor } from '../integrations/sandbox/processor.js';
import { createMailer } from '../integrations/smtp/mailer.js';
import { temporalSubscriptionWorkflows } from '../temporal/subscriptions.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { requireTestEnv } from '../test/env.js';
import { createOrganization } from '../test/factories.js';
import { startTestSmtpServer } from '../test/smtp.js';
import { createRecordingSink } from '../test/stripe-factories.js';
import { createTimeSkippingEnvironment } from '../test/time-skipping.js';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('subscriptionWorkflow: trial emails (time-skipping)', () => {
  let env: TestWorkflowEnvironment;
  let database: TestDatabase;
  let smtp: Awaited<ReturnType<typeof startTestSmtpServer>>;

  beforeAll(async () => {
    env = await createTimeSkippingEnvironment();
    database = await createTestDatabase();
    smtp = await startTestSmtpServer();
  });
  beforeEach(() => database.reset());
  afterAll(async () => {
    await env?.teardown();
    await database?.drop();
    await smtp?.stop();
  });

  const processor = () => createSandboxProcessor({ db: database.db, sink: createRecordingSink() });
  const day = (date: Date) => formatDay(date, { timeZone: 'UTC', locale: DOCUMENT_LOCALE, style: 'long' });

  /** A monthly plan of 20.00 started now with a trial of `trialDays` days, its card saved. */
  async function subscribeWithTrial(trialDays: number) {
    const db = database.db;
    const organization = await createOrganization(db, { timeZone: 'UTC' });
    const product = await db.product.create({
      data: {
        organizationId: organization.id,
        name: 'Pro plan',
        recurringInterval: 'month',
        trialInterval: 'day',
        trialIntervalCount: trialDays,
      },
    });
    const price = await db.productPrice.create({
      data: {
        organizationId: organization.id,
        productId: product.id,
        amountType: 'fixed',
        type: 'recurring',
        recurringInterval: 'month',
        priceCurrency: 'usd',
        priceAmount: 2000,
      },
    });
    const customer = await db.customer.create({
      data: { organizationId: organization.id, email: `buyer-${product.id}@example.test`, name: 'Ada' },
    });
    const { processorCustomerId } = await processor().ensureCustomer({
      idempotencyKey: `test:${customer.id}`,
      email: customer.email,
      name: customer.name,
      customerId: customer.id,
    });
    const at = new Date(await env.currentTimeMs());
    const trialEnd = new Date(at.getTime() + trialDays * DAY_MS);
    const row = await db.$transaction((tx) =>
      startSubscription(
        tx,
        {
          organizationId: organization.id,
          customerId: customer.id,
          productId: product.id,
          checkoutId: null,
          recurringInterval: 'month',
          currency: 'usd',
          prices: [{ productPriceId: price.id, amount: 2000 }],
          amount: 2000,
          discountId: null,
          metadata: {},
          customFieldData: {},
          paymentProcessor: 'sandbox',
          savedPaymentMethod: {
            paymentMethodId: 'pm_card_visa',
            processorCustomerId,
            summary: { brand: 'visa', last4: '4242' },
            expiry: null,
          },
          at,
          trialEnd,
        },
        'http://tollgate.test',
      ),
    );
    return { subscription: row, trialEnd, email: customer.email };
  }

  const started: string[] = [];
  async function withWorker<T>(work: (taskQueue: string) => Promise<T>) {
    const taskQueue = `trial-emails-${crypto.randomUUID()}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: { codePath: requireTestEnv('workflowBundle') },
      activities: createSubscriptionActivities({
        db: database.db,
        publicUrl: 'http://tollgate.test',
        mailer: createMailer({
          db: database.db,
          smtpUrl: smtp.url,
          from: 'shop@example.test',
          logger: pino({ level: 'silent' }),
        }),
        processor: processor(),
        tax: noTax,
        workflows: { subscriptions: temporalSubscriptionWorkflows(env.client, taskQueue) },
      }),
    });
    return worker.runUntil(async () => {
      try {
        return await work(taskQueue);
      } finally {
        for (const id of started.splice(0)) {
          const handle = env.client.workflow.getHandle(subscriptionWorkflowId(id));
          if ((await handle.describe()).status.name === 'RUNNING') await handle.terminate('test over');
        }
      }
    });
  }
  const start = (taskQueue: string, subscriptionId: string) => {
    started.push(subscriptionId);
    return temporalSubscriptionWorkflows(env.client, taskQueue).start(subscriptionId);
  };
  const waitingFor = (subscriptionId: string) =>
    env.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId)).query<string>('waitingFor');
  /** What reached the SMTP server for `to`, by subject, in the order sent. */
  const subjectsTo = (to: string) =>
    smtp.received.filter((email) => email.to.includes(to)).map((email) => email.subject);
  const bodyOf = (to: string, subject: RegExp) =>
    smtp.received.find((email) => email.to.includes(to) && subject.test(email.subject))?.body ?? '';

  it('says the trial started, reminds 3 days before its end with the amount and date, then that it converted', async () => {
    const { subscription, trialEnd, email } = await subscribeWithTrial(14);
    const endsOn = day(trialEnd);
    await withWorker(async (taskQueue) => {
      await start(taskQueue, subscription.id);
      await smtp.waitFor((each) => each.to.includes(email));
      expect(subjectsTo(email)).toEqual(['Your free trial of Pro plan has started']);
      const welcome = bodyOf(email, /has started/);
      expect(welcome).toContain(`runs until ${endsOn}. Nothing has been charged today.`);
      expect(welcome).toContain(`Your first payment, $20.00, is on ${endsOn}`);
      expect(await waitingFor(subscription.id)).toMatch(
        /^the day to remind the buyer that the free trial ends \(3 days before\)/,
      );

      // Day 10: nothing more yet. Day 12 (3 days before the end was day 11): the reminder.
      await env.sleep(10 * DAY_MS);
      expect(subjectsTo(email)).toHaveLength(1);
      await env.sleep(2 * DAY_MS);
      await smtp.waitFor((each) => each.to.includes(email) && /ends on/.test(each.subject));
      const reminder = bodyOf(email, /ends on/);
      expect(reminder).toContain(
        `Your free trial of Pro plan ends on ${endsOn}. On ${endsOn} we will charge $20.00 to visa card ending 4242`,
      );
      expect(await waitingFor(subscription.id)).toMatch(/^the end of the free trial/);

      await env.sleep(3 * DAY_MS);
      await smtp.waitFor((each) => each.to.includes(email) && /has ended/.test(each.subject));
    });
    // One of each, and the conversion is the first charge's receipt (no second receipt).
    expect(subjectsTo(email)).toEqual([
      'Your free trial of Pro plan has started',
      `Your free trial of Pro plan ends on ${endsOn}`,
      'Your free trial of Pro plan has ended: $20.00 paid',
    ]);
    expect(bodyOf(email, /has ended/)).toContain('We charged $20.00 to your visa card ending 4242');
    const keys = (await database.db.emailMessage.findMany({ where: { toAddress: email } })).map(
      (row) => row.idempotencyKey,
    );
    expect(keys).toHaveLength(3);
    expect(keys).toContain(`subscription:${subscription.id}:trial_ending:${trialEnd.toISOString()}`);
  });

  it('sends no reminder for a trial shorter than 3 days, nor for a trial set to cancel', async () => {
    const short = await subscribeWithTrial(2);
    const canceling = await subscribeWithTrial(14);
    await database.db.subscription.update({
      where: { id: canceling.subscription.id },
      data: {
        cancelAtPeriodEnd: true,
        canceledAt: new Date(await env.currentTimeMs()),
        endsAt: canceling.trialEnd,
      },
    });
    await withWorker(async (taskQueue) => {
      await start(taskQueue, short.subscription.id);
      await start(taskQueue, canceling.subscription.id);
      await smtp.waitFor((each) => each.to.includes(short.email));
      expect(await waitingFor(short.subscription.id)).toMatch(/^the end of the free trial/);
      await env.sleep(3 * DAY_MS);
      await smtp.waitFor((each) => each.to.includes(short.email) && /has ended/.test(each.subject));
      await env.sleep(12 * DAY_MS);
    });
    expect(subjectsTo(short.email)).toEqual([
      'Your free trial of Pro plan has started',
      'Your free trial of Pro plan has ended: $20.00 paid',
    ]);
    // Set to cancel: told it started and that it will end, never reminded, never charged.
    expect(subjectsTo(canceling.email)).toEqual([
      'Your free trial of Pro plan has started',
      `Your Pro plan subscription will end on ${day(canceling.trialEnd)}`,
    ]);
  });
});
