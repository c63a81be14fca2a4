import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { WorkflowHandle } from '@temporalio/client';
import proto from '@temporalio/proto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import pino from 'pino';
import { createCheckoutActivities } from '../activities/checkouts.js';
import { createWebhookActivities } from '../activities/webhooks.js';
import { checkoutWorkflowId } from '../domain/checkouts/rules.js';
import { recordEvent } from '../domain/webhook-outbox/repository.js';
import { webhookDeliveryWorkflowId } from '../domain/webhooks/rules.js';
import { dispatchOutboxEvents } from '../domain/webhooks/dispatch.js';
import { renderWebhookData } from '../activities/webhook-payloads.js';
import type { PaymentProcessor } from '../domain/payments/processor.js';
import { createHttpWebhookSender } from '../integrations/http/webhook-sender.js';
import { createSandboxProcessor } from '../integrations/sandbox/processor.js';
import { createMailer } from '../integrations/smtp/mailer.js';
import { temporalCheckoutWorkflows } from '../temporal/checkouts.js';
import { operatorContext } from '../temporal/entity-directory.js';
import { ENTITY_ID, ENTITY_KIND, isoUtc, ORGANIZATION_ID, STATUS } from '../domain/operators/rules.js';
import { temporalSubscriptionWorkflows } from '../temporal/subscriptions.js';
import { temporalWebhookWorkflows } from '../temporal/webhooks.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { requireTestEnv } from '../test/env.js';
import { createOrganization, createWebhookEndpoint } from '../test/factories.js';
import { createTimeSkippingEnvironment } from '../test/time-skipping.js';
import { startWebhookReceiver } from '../test/webhook-receiver.js';

const PUBLIC_URL = 'http://tollgate.test';
const logger = pino({ level: 'silent' });

/** Current details as the Temporal UI reads them: the SDK's built-in metadata query. */
async function currentDetails(handle: WorkflowHandle): Promise<string> {
  const metadata = await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
  return metadata.currentDetails ?? '';
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A history recorded by the workflows as they were before operators' upserts (see __fixtures__),
 * as if its start had carried the search attributes (a starter updated before the worker): only
 * the patch then keeps the status upserts out of its replay.
 */
function fixtureHistory(name: string, kind: string) {
  const json = JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8')) as {
    events: { workflowExecutionStartedEventAttributes?: Record<string, unknown> }[];
  };
  const keyword = (value: string) => ({
    metadata: {
      encoding: Buffer.from('json/plain').toString('base64'),
      type: Buffer.from('Keyword').toString('base64'),
    },
    data: Buffer.from(JSON.stringify(value)).toString('base64'),
  });
  json.events[0]!.workflowExecutionStartedEventAttributes!.searchAttributes = {
    indexedFields: { [ENTITY_KIND.name]: keyword(kind), [STATUS.name]: keyword('started') },
  };
  return proto.temporal.api.history.v1.History.fromObject(json);
}

describe('what operators see of workflows (time-skipping)', () => {
  let env: TestWorkflowEnvironment;
  let database: TestDatabase;

  beforeAll(async () => {
    env = await createTimeSkippingEnvironment();
    database = await createTestDatabase();
  });
  beforeEach(() => database.reset());
  afterAll(async () => {
    await env?.teardown();
    await database?.drop();
  });

  it.each([
    ['checkout-before-operators.json', 'checkout', 'a checkout paid after a processing payment'],
    [
      'webhook-delivery-before-operators.json',
      'webhook_delivery',
      'a webhook delivered on its third attempt',
    ],
  ])('replays %s (%s: %s) recorded before the status upserts', async (fixture, kind) => {
    await expect(
      Worker.runReplayHistory(
        { workflowBundle: { codePath: requireTestEnv('workflowBundle') } },
        fixtureHistory(fixture, kind),
      ),
    ).resolves.toBeUndefined();
  });

  async function createCheckout(organizationId: string) {
    const product = await database.db.product.create({ data: { organizationId, name: 'Guide' } });
    const price = await database.db.productPrice.create({
      data: {
        organizationId,
        productId: product.id,
        amountType: 'fixed',
        type: 'one_time',
        priceCurrency: 'usd',
        priceAmount: 1000,
      },
    });
    return database.db.checkout.create({
      data: {
        organizationId,
        status: 'open',
        clientSecret: `secret-${randomUUID()}`,
        expiresAt: new Date((await env.currentTimeMs()) + 60 * 60 * 1000),
        productIds: [product.id],
        productId: product.id,
        productPriceId: price.id,
        currency: 'usd',
        amount: 1000,
        discountAmount: 0,
        netAmount: 1000,
        taxAmount: 0,
        totalAmount: 1000,
      },
    });
  }

  it('starts a checkout with its organization, kind, id, status and dashboard link, waits for the buyer, then records its expiry', async () => {
    const organization = await createOrganization(database.db);
    const checkout = await createCheckout(organization.id);
    const taskQueue = `operators-${randomUUID()}`;
    const operators = operatorContext(database.db, PUBLIC_URL);
    const checkouts = temporalCheckoutWorkflows(env.client, taskQueue, operators);
    const processor: PaymentProcessor = createSandboxProcessor({
      db: database.db,
      sink: { deliver: async () => {} },
    });
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: { codePath: requireTestEnv('workflowBundle') },
      activities: createCheckoutActivities({
        db: database.db,
        publicUrl: PUBLIC_URL,
        processor,
        processorMetadata: {},
        mailer: createMailer({ db: database.db, from: 'shop@example.test', logger }),
        workflows: {
          checkouts,
          subscriptions: temporalSubscriptionWorkflows(env.client, taskQueue, operators),
        },
      }),
    });
    await worker.runUntil(async () => {
      await checkouts.start(checkout.id);
      const handle = env.client.workflow.getHandle(checkoutWorkflowId(checkout.id));
      const started = await handle.describe();
      expect(started.typedSearchAttributes.get(ORGANIZATION_ID)).toBe(organization.id);
      expect(started.typedSearchAttributes.get(ENTITY_KIND)).toBe('checkout');
      expect(started.typedSearchAttributes.get(ENTITY_ID)).toBe(checkout.id);
      expect(started.typedSearchAttributes.get(STATUS)).toBe('open');
      expect(started.memo).toEqual({ dashboard_url: `${PUBLIC_URL}/dashboard/checkouts` });

      // The checkout's expiry in words and ISO-8601, never a timer: the query and the details agree.
      const sentence = `the buyer to confirm payment, until the checkout expires at ${isoUtc(checkout.expiresAt.getTime())}`;
      const waiting = await until(
        () => currentDetails(handle),
        (details) => details.startsWith('**Waiting**'),
      );
      expect(waiting).toBe(`**Waiting** for ${sentence}.\n\nThey have not confirmed the checkout yet.`);
      expect(await handle.query<string>('waitingFor')).toBe(sentence);

      expect(await handle.result()).toBe('expired');
      expect(await handle.query<string>('waitingFor')).toMatch(
        /^nothing: the checkout expired at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
      );
      const ended = await handle.describe();
      expect(ended.typedSearchAttributes.get(STATUS)).toBe('expired');
      expect(ended.typedSearchAttributes.get(ORGANIZATION_ID)).toBe(organization.id);
    });
  });

  it("shows a failing webhook delivery's last error and next attempt in its current details", async () => {
    const organization = await createOrganization(database.db);
    const receiver = await startWebhookReceiver(async () => 500);
    try {
      const endpoint = await createWebhookEndpoint(database.db, organization.id, { url: receiver.url });
      await database.db.$transaction((tx) =>
        recordEvent(tx, {
          organizationId: organization.id,
          type: 'organization.updated',
          data: { id: organization.id, name: organization.name },
        }),
      );
      const taskQueue = `operators-${randomUUID()}`;
      const webhooks = temporalWebhookWorkflows(
        env.client,
        taskQueue,
        operatorContext(database.db, PUBLIC_URL),
      );
      const worker = await Worker.create({
        connection: env.nativeConnection,
        taskQueue,
        workflowBundle: { codePath: requireTestEnv('workflowBundle') },
        activities: createWebhookActivities({
          db: database.db,
          mailer: createMailer({ db: database.db, from: 'no-reply@tollgate.test', logger }),
          publicUrl: PUBLIC_URL,
          workflows: { webhooks },
          webhookSender: createHttpWebhookSender({
            requireHttps: false,
            allowLoopback: true,
            allowPrivateNetworks: false,
          }),
        }),
      });
      await worker.runUntil(async () => {
        await dispatchOutboxEvents(database.db, webhooks, renderWebhookData);
        const handle = env.client.workflow.getHandle(webhookDeliveryWorkflowId(endpoint.id, organization.id));
        // Read together (the next attempt may land between two reads): the query and the details agree.
        const [details, waitingFor] = await until(
          async () =>
            Promise.all([
              currentDetails(handle).catch(() => ''),
              handle.query<string>('waitingFor').catch(() => ''),
            ]),
          ([value, sentence]) =>
            value.includes('HTTP 500') && value.startsWith(`**Waiting** for ${sentence}.`),
        );
        expect(details).toMatch(
          /^\*\*Waiting\*\* for the next attempt at the endpoint, until attempt \d+ of 10 is sent at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\.\n\nEvent [\w-]+: attempt \d+ of 10 failed \(HTTP 500\)\.$/,
        );
        expect(details.split('\n')[0]).toBe(`**Waiting** for ${waitingFor}.`);
        const described = await until(
          () => handle.describe(),
          (value) => value.typedSearchAttributes.get(STATUS) === 'retrying',
        );
        expect(described.typedSearchAttributes.get(STATUS)).toBe('retrying');
        expect(described.typedSearchAttributes.get(ENTITY_KIND)).toBe('webhook_delivery');
        expect(described.memo).toEqual({ dashboard_url: `${PUBLIC_URL}/dashboard/webhooks/${endpoint.id}` });
        await handle.terminate('test over');
      });
    } finally {
      await receiver.stop();
    }
  });
});
