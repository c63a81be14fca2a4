import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { validateEvent } from '@polar-sh/sdk/webhooks';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createWebhookActivities } from '../activities/webhooks.js';
import { recordEvent } from '../domain/webhook-outbox/repository.js';
import {
  RETRY_SCHEDULE_MS,
  webhookDeliveryWorkflowId,
  webhookEndpointDeliveryWorkflowId,
} from '../domain/webhooks/rules.js';
import { dispatchOutboxEvents } from '../domain/webhooks/dispatch.js';
import { renderWebhookData } from '../activities/webhook-payloads.js';
import type { WebhookWorkflows } from '../domain/webhooks/service.js';
import { createLogger } from '../infra/logger.js';
import { createMailer } from '../integrations/smtp/mailer.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { requireTestEnv } from '../test/env.js';
import { createMemberUser, createOrganization, createWebhookEndpoint } from '../test/factories.js';
import { createTimeSkippingEnvironment } from '../test/time-skipping.js';
import { startWebhookReceiver } from '../test/webhook-receiver.js';
import { createHttpWebhookSender } from '../integrations/http/webhook-sender.js';
import { temporalWebhookWorkflows } from '../temporal/webhooks.js';

const SECRET = 'tollgate_whs_workflow-test-secret';

describe('webhook delivery workflows (time-skipping)', () => {
  let env: TestWorkflowEnvironment;
  let database: TestDatabase;
  const receivers: Awaited<ReturnType<typeof startWebhookReceiver>>[] = [];

  beforeAll(async () => {
    env = await createTimeSkippingEnvironment();
    database = await createTestDatabase();
  });
  beforeEach(() => database.reset());
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((receiver) => receiver.stop()));
  });
  afterAll(async () => {
    await env?.teardown();
    await database?.drop();
  });

  /** A receiver that notes the Temporal server's (skipped) time of each request. */
  async function receiver(status: (index: number) => number) {
    const serverTimes: number[] = [];
    const started = await startWebhookReceiver(async (_request, index) => {
      serverTimes.push(await env.currentTimeMs());
      return status(index);
    });
    receivers.push(started);
    return { ...started, serverTimes };
  }

  async function withWorker<T>(work: (workflows: WebhookWorkflows) => Promise<T>) {
    const taskQueue = `webhooks-${randomUUID()}`;
    const workflows = temporalWebhookWorkflows(env.client, taskQueue);
    const logger = createLogger({ level: 'silent', name: 'test' });
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: { codePath: requireTestEnv('workflowBundle') },
      activities: createWebhookActivities({
        db: database.db,
        mailer: createMailer({ db: database.db, from: 'no-reply@tollgate.test', logger }),
        publicUrl: 'http://tollgate.test',
        workflows: { webhooks: workflows },
        webhookSender: createHttpWebhookSender({
          requireHttps: false,
          allowLoopback: true,
          allowPrivateNetworks: false,
        }),
      }),
    });
    return worker.runUntil(work(workflows));
  }

  async function recordOrganizationEvent(organizationId: string, data: { id: string; name: string }) {
    await database.db.$transaction((tx) =>
      recordEvent(tx, { organizationId, type: 'organization.updated', data: { ...organization(data) } }),
    );
  }

  function organization({ id, name }: { id: string; name: string }) {
    return {
      created_at: '2026-11-22T08:00:00.000Z',
      modified_at: null,
      id,
      name,
      slug: `slug-${id.slice(0, 8)}`,
      avatar_url: null,
      email: null,
      website: null,
      socials: [],
      details_submitted_at: null,
      feature_settings: {
        issue_funding_enabled: false,
        usage_based_billing_enabled: false,
        reset_proration_behavior_enabled: false,
        seat_based_pricing_enabled: true,
      },
      subscription_settings: {
        allow_multiple_subscriptions: false,
        allow_customer_updates: true,
        proration_behavior: 'prorate',
      },
    };
  }

  /** The endpoint's workflow makes every first attempt (and ends once idle, time skipped). */
  const firstAttemptsMade = (endpointId: string) =>
    env.client.workflow.getHandle(webhookEndpointDeliveryWorkflowId(endpointId)).result();

  /** A resource whose event failed its first attempt continues on its own workflow. */
  async function finished(endpointId: string, resourceId: string) {
    await firstAttemptsMade(endpointId);
    await env.client.workflow.getHandle(webhookDeliveryWorkflowId(endpointId, resourceId)).result();
  }

  it('retries a failing event on the schedule (5 s … 24 h, ±10 %), ten attempts over about three days, then gives up', async () => {
    const org = await createOrganization(database.db);
    const sink = await receiver(() => 500);
    const endpoint = await createWebhookEndpoint(database.db, org.id, { url: sink.url, secret: SECRET });
    await recordOrganizationEvent(org.id, { id: org.id, name: 'Failing' });

    const started = Date.now();
    await withWorker(async (workflows) => {
      await dispatchOutboxEvents(database.db, workflows, renderWebhookData);
      await finished(endpoint.id, org.id);
    });
    expect(Date.now() - started).toBeLessThan(45_000);

    expect(sink.received).toHaveLength(10);
    for (const request of sink.received) {
      expect(validateEvent(request.body, request.headers, SECRET).type).toBe('organization.updated');
    }
    const gaps = sink.serverTimes.slice(1).map((time, index) => time - sink.serverTimes[index]!);
    gaps.forEach((gap, index) => {
      const planned = RETRY_SCHEDULE_MS[index + 1]!;
      expect(gap).toBeGreaterThanOrEqual(planned * 0.9 - 1_000);
      expect(gap).toBeLessThanOrEqual(planned * 1.1 + 5_000);
    });
    // One webhook-id across the retries: receivers can deduplicate.
    expect(new Set(sink.received.map((request) => request.headers['webhook-id'])).size).toBe(1);

    const event = await database.db.webhookEvent.findFirstOrThrow({ include: { deliveries: true } });
    expect(event).toMatchObject({ status: 'failed', succeeded: false, lastHttpCode: 500 });
    expect(event.deliveries.map((delivery) => delivery.attempt).sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    const after = await database.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(after).toMatchObject({ enabled: true, consecutiveFailedEvents: 1 });
  });

  it('disables the endpoint after 10 events in a row failed every retry, and emails the owners once', async () => {
    const org = await createOrganization(database.db, { name: 'Acme' });
    const owner = await createMemberUser(database.db, org.id, 'owner');
    const sink = await receiver(() => 503);
    const endpoint = await createWebhookEndpoint(database.db, org.id, { url: sink.url });
    const resources = Array.from({ length: 10 }, () => randomUUID());
    for (const id of resources) await recordOrganizationEvent(org.id, { id, name: `Resource ${id}` });

    await withWorker(async (workflows) => {
      await dispatchOutboxEvents(database.db, workflows, renderWebhookData);
      // One at a time: each result() call unlocks the server's time skipping while it waits.
      for (const id of resources) await finished(endpoint.id, id);
    });

    const after = await database.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(after).toMatchObject({ enabled: false, disabledReason: 'failing', consecutiveFailedEvents: 10 });
    const emails = await database.db.emailMessage.findMany({ where: { toAddress: owner.email } });
    expect(emails.map((email) => email.subject)).toEqual(['Webhook endpoint disabled for Acme']);
    expect(emails[0]?.text).toContain('last 10 events');
    expect(sink.received).toHaveLength(100);
  });

  it("delivers other resources' events at once while one resource waits for a retry, and queues that resource's later events behind it", async () => {
    const org = await createOrganization(database.db);
    const [waiting, other] = [randomUUID(), randomUUID()];
    const nameOf = (body: string) => (JSON.parse(body) as { data: { name: string } }).data.name;
    // Only the first attempt of "One" fails.
    const sink = await receiver((index) =>
      index === sink.received.findIndex((request) => nameOf(request.body) === 'One') ? 500 : 200,
    );
    const endpoint = await createWebhookEndpoint(database.db, org.id, { url: sink.url, secret: SECRET });
    await recordOrganizationEvent(org.id, { id: waiting, name: 'One' });

    await withWorker(async (workflows) => {
      await dispatchOutboxEvents(database.db, workflows, renderWebhookData);
      await sink.waitFor(1);
      // A later dispatch: "Two" is about the resource whose "One" waits for its retry.
      await recordOrganizationEvent(org.id, { id: waiting, name: 'Two' });
      await recordOrganizationEvent(org.id, { id: other, name: 'Other' });
      await dispatchOutboxEvents(database.db, workflows, renderWebhookData);
      await sink.waitFor(2);
      await finished(endpoint.id, waiting);
    });
    expect(sink.received.map((request) => nameOf(request.body))).toEqual(['One', 'Other', 'One', 'Two']);
    const attempts = await database.db.webhookDelivery.findMany({
      include: { webhookEvent: true },
      orderBy: { createdAt: 'asc' },
    });
    expect(attempts.map((attempt) => [nameOf(attempt.webhookEvent.payload), attempt.attempt])).toEqual([
      ['One', 1],
      ['Other', 1],
      ['One', 2],
      ['Two', 1],
    ]);
  });

  it('counts only events in a row: a delivered event resets the streak', async () => {
    const org = await createOrganization(database.db);
    const delivered = randomUUID();
    const sink = await receiver(() => 200);
    const endpoint = await createWebhookEndpoint(database.db, org.id, {
      url: sink.url,
      consecutiveFailedEvents: 9,
    });
    await recordOrganizationEvent(org.id, { id: delivered, name: 'Delivered' });
    await withWorker(async (workflows) => {
      await dispatchOutboxEvents(database.db, workflows, renderWebhookData);
      await firstAttemptsMade(endpoint.id);
    });
    const after = await database.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(after).toMatchObject({ enabled: true, consecutiveFailedEvents: 0 });
  });

  it('delivers the events about one resource in order, holding later ones back while the first is retried', async () => {
    const org = await createOrganization(database.db);
    // The first two attempts fail: the first event is delivered after the 5 s and 5 min retries.
    const sink = await receiver((index) => (index < 2 ? 500 : 200));
    const endpoint = await createWebhookEndpoint(database.db, org.id, { url: sink.url, secret: SECRET });
    for (const name of ['One', 'Two', 'Three']) await recordOrganizationEvent(org.id, { id: org.id, name });

    await withWorker(async (workflows) => {
      await dispatchOutboxEvents(database.db, workflows, renderWebhookData);
      await finished(endpoint.id, org.id);
    });
    const names = sink.received.map((request) => {
      const event = validateEvent(request.body, request.headers, SECRET);
      return event.type === 'organization.updated' ? event.data.name : '';
    });
    expect(names).toEqual(['One', 'One', 'One', 'Two', 'Three']);
    expect(sink.serverTimes[3]! - sink.serverTimes[0]!).toBeGreaterThanOrEqual(5_000 * 0.9 + 300_000 * 0.9);
  });
});
