import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import type { WorkflowExecutionInfo, WorkflowHandle } from '@temporalio/client';
import { benefitGrantDispatcherWorkflowId, benefitGrantWorkflowId } from '../domain/benefit-grants/rules.js';
import { checkoutWorkflowId } from '../domain/checkouts/rules.js';
import { customerMeterRefresherWorkflowId } from '../domain/customer-meters/service.js';
import { recordEvent } from '../domain/webhook-outbox/repository.js';
import { invitationWorkflowId } from '../domain/invitations/rules.js';
import { isoUtc, ENTITY_ID, ENTITY_KIND, ORGANIZATION_ID, STATUS } from '../domain/operators/rules.js';
import {
  paymentMethodDetachWorkflowId,
  paymentMethodSetupWorkflowId,
} from '../domain/payment-methods/rules.js';
import { refundWorkflowId } from '../domain/refunds/rules.js';
import { subscriptionWorkflowId } from '../domain/subscriptions/rules.js';
import {
  webhookDeliveryWorkflowId,
  webhookDispatcherWorkflowId,
  webhookEndpointDeliveryWorkflowId,
} from '../domain/webhooks/rules.js';
import { eventually } from '../test/eventually.js';
import {
  buyInSandbox,
  createAccessToken,
  createBenefit,
  createCustomer,
  createMemberUser,
  createOrganization,
  createProduct,
  createRefund,
  createWebhookEndpoint,
} from '../test/factories.js';
import { useTestStack } from '../test/stack.js';
import { startWebhookReceiver } from '../test/webhook-receiver.js';
import { operatorContext } from './entity-directory.js';
import {
  ensureSchedules,
  benefitGrantDispatcherWatchdogScheduleId,
  customerMeterRefresherWatchdogScheduleId,
  housekeepingScheduleId,
  reconcileBenefitGrantsScheduleId,
  reconcileCheckoutsScheduleId,
  reconcileInvitationsScheduleId,
  reconcileRefundsScheduleId,
  reconcileSubscriptionsScheduleId,
  redeliverProcessorEventsScheduleId,
  webhookDispatcherWatchdogScheduleId,
} from './schedules.js';
import { taskQueues } from './task-queues.js';

/** ISO-8601 in UTC to the second, as every `waitingFor` sentence writes time. */
const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/;

type OperatorReading = { waitingFor: string; details: string; summary?: string; staticDetails?: string };

/**
 * What the Temporal UI shows of a run: its `waitingFor` answer, its current details (the SDK's
 * metadata query) and its user metadata. The query and the details are read together until they
 * agree (the workflow may move between two reads) and `done` accepts them.
 */
async function readOperatorView(
  handle: WorkflowHandle,
  done: (reading: OperatorReading) => boolean,
): Promise<OperatorReading> {
  const reading = await eventually(
    async () => {
      // One query after the other: the worker answers a closed run's queries by replaying it, and
      // two at once on one run may fail.
      const waitingFor = await handle.query<string>('waitingFor').catch(() => '');
      const metadata = await handle
        .query<{ currentDetails?: string }>('__temporal_workflow_metadata')
        .catch(() => ({ currentDetails: '' }));
      return { waitingFor, details: metadata.currentDetails ?? '' };
    },
    (value) => value.waitingFor !== '' && detailsAgree(value) && done(value),
  );
  const described = await handle.describe();
  return {
    ...reading,
    summary: await described.staticSummary(),
    staticDetails: await described.staticDetails(),
  };
}

/** The details start with the same sentence the query answers: waiting, working or finished. */
function detailsAgree({ waitingFor, details }: OperatorReading): boolean {
  if (waitingFor.startsWith('its own work: ')) {
    return details.startsWith(`**Working**: ${waitingFor.slice('its own work: '.length)}.`);
  }
  if (waitingFor.startsWith('nothing: ')) {
    return details === `**Finished**: ${waitingFor.slice('nothing: '.length)}.`;
  }
  return details.startsWith(`**Waiting** for ${waitingFor}.`);
}

/** Time in words and ISO-8601, never a bare epoch number or a timer's milliseconds. */
function expectReadableTime(sentence: string) {
  expect(sentence).toMatch(ISO);
  expect(sentence).not.toMatch(/\d{10,}/);
}

describe('what operators find in the Temporal UI (dev server)', () => {
  const env = useTestStack();

  async function seller(name = `Acme ${randomUUID().slice(0, 8)}`) {
    const organization = await createOrganization(env.database.db, { name });
    const polar = new Polar({
      accessToken: await createAccessToken(env.database.db, organization.id),
      serverURL: env.stack.baseUrl,
    });
    return { organization, polar };
  }

  it('finds an organization’s checkout and subscription workflows by organization, with their status kept current', async () => {
    const organization = await createOrganization(env.database.db);
    const polar = new Polar({
      accessToken: await createAccessToken(env.database.db, organization.id),
      serverURL: env.stack.baseUrl,
    });
    const plan = await createProduct(polar, {
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 1500, priceCurrency: 'usd' }],
    });
    const customer = await createCustomer(polar);
    const checkout = await buyInSandbox(polar, env.stack.baseUrl, plan.id, customer.id);
    const subscription = await eventually(
      () => env.database.db.subscription.findFirst({ where: { checkoutId: checkout.id } }),
      (row) => row !== null,
    );
    const temporal = env.stack.temporal;

    const checkoutHandle = temporal.workflow.getHandle(checkoutWorkflowId(checkout.id));
    const checkoutRun = await eventually(
      () => checkoutHandle.describe(),
      (described) => described.typedSearchAttributes.get(STATUS) === 'succeeded',
    );
    expect(checkoutRun.typedSearchAttributes.get(ORGANIZATION_ID)).toBe(organization.id);
    expect(checkoutRun.typedSearchAttributes.get(ENTITY_KIND)).toBe('checkout');
    expect(checkoutRun.typedSearchAttributes.get(ENTITY_ID)).toBe(checkout.id);
    expect(checkoutRun.memo).toEqual({ dashboard_url: `${env.stack.baseUrl}/dashboard/checkouts` });

    const subscriptionHandle = temporal.workflow.getHandle(subscriptionWorkflowId(subscription!.id));
    const active = await subscriptionHandle.describe();
    expect(active.typedSearchAttributes.get(STATUS)).toBe('active');
    expect(active.typedSearchAttributes.get(ENTITY_KIND)).toBe('subscription');
    expect(active.memo).toEqual({
      dashboard_url: `${env.stack.baseUrl}/dashboard/subscriptions/${subscription!.id}`,
    });

    await polar.subscriptions.update({
      id: subscription!.id,
      subscriptionUpdate: { cancelAtPeriodEnd: true },
    });
    const canceling = await eventually(
      () => subscriptionHandle.describe(),
      (described) => described.typedSearchAttributes.get(STATUS) === 'canceling',
    );
    expect(canceling.typedSearchAttributes.get(ORGANIZATION_ID)).toBe(organization.id);
    expect(canceling.status.name).toBe('RUNNING');

    // Visibility is eventually consistent: the list catches up with the starts within moments.
    const listed = await eventually(
      async () => {
        const found: WorkflowExecutionInfo[] = [];
        for await (const workflow of temporal.workflow.list({
          query: `TollgateOrganizationId = '${organization.id}'`,
        })) {
          found.push(workflow);
        }
        return found.map((workflow) => workflow.workflowId).sort();
      },
      (ids) => ids.includes(checkoutHandle.workflowId) && ids.includes(subscriptionHandle.workflowId),
    );
    expect(listed).toEqual(
      expect.arrayContaining([checkoutHandle.workflowId, subscriptionHandle.workflowId]),
    );
    const other = await createOrganization(env.database.db);
    const foreign = temporal.workflow.list({ query: `TollgateOrganizationId = '${other.id}'` });
    for await (const workflow of foreign) throw new Error(`unexpected workflow ${workflow.workflowId}`);
  });

  it('an open checkout waits for the buyer until it expires, and its run is summarised with product, buyer and organization', async () => {
    const { organization, polar } = await seller('Acme Checkout');
    const product = await createProduct(polar, { name: `Pro plan ${randomUUID().slice(0, 4)}` });
    const email = `buyer-${randomUUID().slice(0, 8)}@example.com`;
    const checkout = await polar.checkouts.create({ products: [product.id], customerEmail: email });
    const handle = env.stack.temporal.workflow.getHandle(checkoutWorkflowId(checkout.id));

    const view = await readOperatorView(handle, (reading) => reading.details.startsWith('**Waiting**'));
    expect(view.waitingFor).toBe(
      `the buyer to confirm payment, until the checkout expires at ${isoUtc(checkout.expiresAt.getTime())}`,
    );
    expectReadableTime(view.waitingFor);
    expect(view.details).toBe(
      `**Waiting** for ${view.waitingFor}.\n\nThey have not confirmed the checkout yet.`,
    );
    expect(view.summary).toBe(`Checkout for ${product.name} by ${email} — Acme Checkout`);
    expect(view.staticDetails).toContain(
      `**Checkout** \`${checkout.id}\` of **Acme Checkout** for **${product.name}**.`,
    );
    expect(view.staticDetails).toContain('- Due at checkout: $10.00');
    expect(view.staticDetails).toContain(`- Dashboard: ${env.stack.baseUrl}/dashboard/checkouts`);
    expect((await handle.describe()).typedSearchAttributes.get(ORGANIZATION_ID)).toBe(organization.id);
    await handle.terminate('test over');

    // A namespace that refused the search attributes: starts still say what they are for.
    const withoutAttributes = await operatorContext(env.database.db, env.stack.baseUrl, {
      searchAttributes: false,
    }).entity('checkout', checkout.id, 'open');
    expect(withoutAttributes.typedSearchAttributes).toBeUndefined();
    expect(withoutAttributes.staticSummary).toBe(view.summary);
    expect(withoutAttributes.memo).toEqual({ dashboard_url: `${env.stack.baseUrl}/dashboard/checkouts` });
  });

  it('a subscription waits for the end of its period until it renews; a refund says how it ended', async () => {
    const { polar } = await seller('Acme Plans');
    const plan = await createProduct(polar, {
      name: 'Pro plan',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 2000, priceCurrency: 'usd' }],
    });
    const customer = await createCustomer(polar);
    const checkout = await buyInSandbox(polar, env.stack.baseUrl, plan.id, customer.id);
    const subscription = await eventually(
      () => env.database.db.subscription.findFirst({ where: { checkoutId: checkout.id } }),
      (row) => row !== null,
    );

    const subscriptionView = await readOperatorView(
      env.stack.temporal.workflow.getHandle(subscriptionWorkflowId(subscription!.id)),
      (reading) => reading.waitingFor.startsWith('the end of period'),
    );
    expect(subscriptionView.waitingFor).toBe(
      `the end of period 0, until the subscription renews into period 1 at ${isoUtc(subscription!.currentPeriodEnd.getTime())}`,
    );
    expect(subscriptionView.details).toBe(
      `**Waiting** for ${subscriptionView.waitingFor}.\n\nNothing is due before then.`,
    );
    expect(subscriptionView.summary).toBe(
      `Subscription to Pro plan (monthly) of ${customer.email} — Acme Plans`,
    );
    expect(subscriptionView.staticDetails).toContain(`- Customer: ${customer.email}`);

    const checkoutView = await readOperatorView(
      env.stack.temporal.workflow.getHandle(checkoutWorkflowId(checkout.id)),
      (reading) => reading.waitingFor.startsWith('nothing:'),
    );
    expect(checkoutView.waitingFor).toMatch(/^nothing: the checkout succeeded at /);
    expectReadableTime(checkoutView.waitingFor);

    const order = await env.database.db.order.findFirstOrThrow({ where: { checkoutId: checkout.id } });
    const refund = await createRefund(polar, order.id, { amount: 500 });
    const refundView = await readOperatorView(
      env.stack.temporal.workflow.getHandle(refundWorkflowId(refund.id)),
      (reading) => reading.waitingFor.startsWith('nothing:'),
    );
    expect(refundView.waitingFor).toMatch(/^nothing: the refund succeeded at /);
    expectReadableTime(refundView.waitingFor);
    expect(refundView.summary).toBe(
      `Refund of $5.00 on the Pro plan order of ${customer.email} — Acme Plans`,
    );
    expect(refundView.staticDetails).toContain(
      `- Dashboard: ${env.stack.baseUrl}/dashboard/orders/${order.id}`,
    );
    await env.stack.temporal.workflow
      .getHandle(subscriptionWorkflowId(subscription!.id))
      .terminate('test over');
  });

  it('an invitation waits for the invitee until its reminder; a benefit grant, a saved and a deleted card say what they are', async () => {
    const { organization, polar } = await seller('Acme Team');
    const inviter = await createMemberUser(env.database.db, organization.id, 'owner');
    const invitation = await env.database.db.invitation.create({
      data: {
        organizationId: organization.id,
        email: `invitee-${randomUUID().slice(0, 8)}@example.com`,
        role: 'admin',
        inviterId: inviter.id,
        expiresAt: new Date(Date.now() + 7 * 86_400_000),
      },
    });
    await env.stack.workflows.invitations.requestEmail(invitation.id, 'initial');
    const invitationView = await readOperatorView(
      env.stack.temporal.workflow.getHandle(invitationWorkflowId(invitation.id)),
      (reading) => reading.waitingFor.startsWith('the invitee'),
    );
    expect(invitationView.waitingFor).toMatch(
      /^the invitee to accept or decline, until the reminder email goes out at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
    );
    expect(invitationView.details).toContain(
      `the invitation expires at ${isoUtc(invitation.expiresAt.getTime())}.`,
    );
    expect(invitationView.summary).toBe(`Invitation of ${invitation.email} to Acme Team as admin`);
    expect(invitationView.staticDetails).toContain(`- Invited by: ${inviter.name}`);
    await env.stack.temporal.workflow.getHandle(invitationWorkflowId(invitation.id)).terminate('test over');

    const customer = await createCustomer(polar);
    const benefit = await createBenefit(polar, { description: 'Priority support' });
    await env.stack.workflows.benefitGrants.wake([{ customerId: customer.id, benefitId: benefit.id }]);
    const grantView = await readOperatorView(
      env.stack.temporal.workflow.getHandle(benefitGrantWorkflowId(customer.id, benefit.id)),
      (reading) => reading.waitingFor.startsWith('changes to these grants'),
    );
    expect(grantView.waitingFor).toMatch(
      /^changes to these grants, until this run ends \(the next change starts another\) at \d{4}-/,
    );
    expect(grantView.summary).toBe(`Benefit “Priority support” (custom) for ${customer.email} — Acme Team`);

    const requestId = randomUUID();
    const saved = await env.stack.workflows.paymentMethods.setUp({
      requestId,
      organizationId: organization.id,
      customerId: customer.id,
      confirmationTokenId: 'pm_card_visa',
      setDefault: true,
    });
    expect(saved.status).toBe('saved');
    const setupView = await readOperatorView(
      env.stack.temporal.workflow.getHandle(paymentMethodSetupWorkflowId(customer.id, requestId)),
      () => true,
    );
    expect(setupView.waitingFor).toMatch(/^nothing: the card was saved at /);
    expect(setupView.summary).toBe(`Saving a card for ${customer.email} — Acme Team`);

    const card = await env.database.db.customerPaymentMethod.update({
      where: { id: saved.status === 'saved' ? saved.paymentMethodId : '' },
      data: { deletedAt: new Date() },
    });
    await env.stack.workflows.paymentMethods.detach(card.id);
    const detachView = await readOperatorView(
      env.stack.temporal.workflow.getHandle(paymentMethodDetachWorkflowId(card.id)),
      (reading) => reading.waitingFor.startsWith('nothing:'),
    );
    expectReadableTime(detachView.waitingFor);
    expect(detachView.summary).toBe(`Removing visa •••• 4242 of ${customer.email} — Acme Team`);
  });

  it('a failing webhook waits for its next attempt; the deployment-wide workflows wait for work in rounds', async () => {
    const { organization } = await seller('Acme Hooks');
    const receiver = await startWebhookReceiver(async () => 500);
    try {
      const endpoint = await createWebhookEndpoint(env.database.db, organization.id, { url: receiver.url });
      await env.database.db.$transaction((tx) =>
        recordEvent(tx, {
          organizationId: organization.id,
          type: 'organization.updated',
          data: { id: organization.id, name: organization.name },
        }),
      );
      const retries = env.stack.temporal.workflow.getHandle(
        webhookDeliveryWorkflowId(endpoint.id, organization.id),
      );
      const retryView = await readOperatorView(retries, (reading) =>
        reading.waitingFor.startsWith('the next attempt'),
      );
      expect(retryView.waitingFor).toMatch(
        /^the next attempt at the endpoint, until attempt 2 of 10 is sent at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
      );
      expect(retryView.details).toMatch(/\n\nEvent [\w-]+: attempt 1 of 10 failed \(HTTP 500\)\.$/);
      expect(retryView.summary).toBe(
        `Webhook retries to ${receiver.url} about ${organization.id} — Acme Hooks`,
      );
      const firstAttempts = await readOperatorView(
        env.stack.temporal.workflow.getHandle(webhookEndpointDeliveryWorkflowId(endpoint.id)),
        () => true,
      );
      expect(firstAttempts.summary).toBe(`Webhook first attempts to ${receiver.url} — Acme Hooks`);
      await retries.terminate('test over');
    } finally {
      await receiver.stop();
    }

    const taskQueue = taskQueues(env.stack.taskQueuePrefix).main;
    for (const [workflowId, summary, waitingFor] of [
      [webhookDispatcherWorkflowId(taskQueue), 'Webhook outbox dispatcher', 'new events in the outbox'],
      [
        benefitGrantDispatcherWorkflowId(taskQueue),
        'Benefit grant dispatcher',
        'customers whose benefits changed',
      ],
      [
        customerMeterRefresherWorkflowId(taskQueue),
        'Customer meter refresher',
        'customers whose meters changed',
      ],
    ]) {
      const view = await readOperatorView(env.stack.temporal.workflow.getHandle(workflowId!), (reading) =>
        reading.waitingFor.startsWith(waitingFor!),
      );
      expect(view.waitingFor).toMatch(
        new RegExp(
          `^${waitingFor}, until watch round \\d+ of 200 ends at \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$`,
        ),
      );
      expect(view.summary).toBe(`${summary} — whole deployment`);
    }
  });

  it('scheduled runs say what they are for, schedules of an earlier version included', async () => {
    const taskQueue = `${env.stack.taskQueuePrefix}-schedules`;
    const earlier = await env.stack.temporal.schedule.create({
      scheduleId: reconcileRefundsScheduleId(taskQueue),
      spec: { intervals: [{ every: '5 minutes' }] },
      action: { type: 'startWorkflow', workflowType: 'reconcileRefundsWorkflow', taskQueue },
    });
    const scheduleIds = [
      reconcileInvitationsScheduleId,
      reconcileCheckoutsScheduleId,
      reconcileRefundsScheduleId,
      reconcileSubscriptionsScheduleId,
      redeliverProcessorEventsScheduleId,
      housekeepingScheduleId,
      webhookDispatcherWatchdogScheduleId,
      customerMeterRefresherWatchdogScheduleId,
      benefitGrantDispatcherWatchdogScheduleId,
      reconcileBenefitGrantsScheduleId,
    ].map((scheduleIdOf) => scheduleIdOf(taskQueue));
    try {
      await ensureSchedules(env.stack.temporal, taskQueue, env.stack.workflows);
      const { action } = await earlier.describe();
      expect(action.type === 'startWorkflow' && action.staticSummary).toBe(
        'Reconciler: starts the workflows pending refunds are missing',
      );
      expect(action.type === 'startWorkflow' && action.staticDetails).toBe(
        `Started every 5 minutes by the schedule \`${reconcileRefundsScheduleId(taskQueue)}\`.`,
      );
      const housekeeping = await env.stack.temporal.schedule
        .getHandle(housekeepingScheduleId(taskQueue))
        .describe();
      expect(housekeeping.action.type === 'startWorkflow' && housekeeping.action.staticSummary).toBe(
        'Housekeeping: deletes expired idempotency keys and idle rate-limit counters',
      );
    } finally {
      for (const id of scheduleIds) await env.stack.temporal.schedule.getHandle(id).delete();
    }
  });
});
