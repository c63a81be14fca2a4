// A free trial's emails through the subscription workflow on the time-skipping server, received by a
// real SMTP server: trial started (nothing charged, the first payment and its date), the reminder
// 3 days before the end (the amount and the date; none for a shorter trial or a trial set to
// cancel), and the first charge's receipt as the trial's conversion, each sent once.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DOCUMENT_LOCALE, formatDay } from '../domain/dates/rules.js';
import { createOrganization } from '../test/factories.js';
import { startTestSmtpServer } from '../test/smtp.js';
import { DAY_MS, subscriptionWorkflowHarness } from '../test/subscription-workflow-harness.js';

describe('subscriptionWorkflow: trial emails (time-skipping)', () => {
  const h = subscriptionWorkflowHarness('trial-emails');
  let smtp: Awaited<ReturnType<typeof startTestSmtpServer>>;

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
  });
  afterAll(async () => {
    await smtp?.stop();
  });

  const day = (date: Date) => formatDay(date, { timeZone: 'UTC', locale: DOCUMENT_LOCALE, style: 'long' });

  /** A monthly plan of 20.00 started now with a trial of `trialDays` days, its card saved. */
  async function subscribeWithTrial(trialDays: number) {
    const organization = await createOrganization(h.db, { timeZone: 'UTC' });
    const options = { amount: 2000, trialDays };
    const { subscription, trialEnd } = await h.subscribe({
      ...options,
      product: await h.plan(organization.id, options),
      cardSummary: { brand: 'visa', last4: '4242' },
    });
    const { email } = await h.db.customer.findUniqueOrThrow({ where: { id: subscription.customerId } });
    return { subscription, trialEnd: trialEnd!, email };
  }

  const withWorker = <T>(work: (taskQueue: string) => Promise<T>) =>
    h.withWorker(work, { smtpUrl: smtp.url });
  const { start } = h;
  const waitingFor = (subscriptionId: string) => h.parked(subscriptionId);
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
      await h.env.sleep(10 * DAY_MS);
      expect(subjectsTo(email)).toHaveLength(1);
      await h.env.sleep(2 * DAY_MS);
      await smtp.waitFor((each) => each.to.includes(email) && /ends on/.test(each.subject));
      const reminder = bodyOf(email, /ends on/);
      expect(reminder).toContain(
        `Your free trial of Pro plan ends on ${endsOn}. On ${endsOn} we will charge $20.00 to visa card ending 4242`,
      );
      expect(await waitingFor(subscription.id)).toMatch(/^the end of the free trial/);

      await h.env.sleep(3 * DAY_MS);
      await smtp.waitFor((each) => each.to.includes(email) && /has ended/.test(each.subject));
    });
    // One of each, and the conversion is the first charge's receipt (no second receipt).
    expect(subjectsTo(email)).toEqual([
      'Your free trial of Pro plan has started',
      `Your free trial of Pro plan ends on ${endsOn}`,
      'Your free trial of Pro plan has ended: $20.00 paid',
    ]);
    expect(bodyOf(email, /has ended/)).toContain('We charged $20.00 to your visa card ending 4242');
    const keys = (await h.db.emailMessage.findMany({ where: { toAddress: email } })).map(
      (row) => row.idempotencyKey,
    );
    expect(keys).toHaveLength(3);
    expect(keys).toContain(`subscription:${subscription.id}:trial_ending:${trialEnd.toISOString()}`);
  });

  it('sends no reminder for a trial shorter than 3 days, nor for a trial set to cancel', async () => {
    const short = await subscribeWithTrial(2);
    const canceling = await subscribeWithTrial(14);
    await h.db.subscription.update({
      where: { id: canceling.subscription.id },
      data: {
        cancelAtPeriodEnd: true,
        canceledAt: new Date(await h.env.currentTimeMs()),
        endsAt: canceling.trialEnd,
      },
    });
    await withWorker(async (taskQueue) => {
      await start(taskQueue, short.subscription.id);
      await start(taskQueue, canceling.subscription.id);
      await smtp.waitFor((each) => each.to.includes(short.email));
      expect(await waitingFor(short.subscription.id)).toMatch(/^the end of the free trial/);
      await h.env.sleep(3 * DAY_MS);
      await smtp.waitFor((each) => each.to.includes(short.email) && /has ended/.test(each.subject));
      await h.env.sleep(12 * DAY_MS);
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
