import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { validateEvent } from '@polar-sh/sdk/webhooks';
import type { Db } from '../../infra/db.js';
import { signUpUser } from '../../test/auth-client.js';
import {
  addMember,
  createAccessToken,
  createOrganization,
  createWebhookEndpoint,
} from '../../test/factories.js';
import { eventually } from '../../test/eventually.js';
import { useTestStack } from '../../test/stack.js';
import { startWebhookReceiver } from '../../test/webhook-receiver.js';
import type { WebhookEndpointEvent, WebhookEndpointHealth } from '../../domain/webhooks/schemas.js';

const SECRET = 'tollgate_whs_health-test-secret';
const DAY_MS = 24 * 3_600_000;

type Attempt = {
  attempt?: number;
  round?: string;
  httpCode: number | null;
  succeeded: boolean;
  durationMs?: number;
  error?: string | null;
  response?: string | null;
  at: Date;
};

/** An event of `endpointId`, already dispatched, with the attempts given (the worker leaves it alone). */
async function insertEventWithAttempts(
  db: Db,
  endpoint: { id: string; organizationId: string },
  status: 'pending' | 'succeeded' | 'failed',
  attempts: Attempt[],
) {
  const { organizationId } = endpoint;
  const payload = { type: 'organization.updated', timestamp: new Date().toISOString(), data: {} };
  const outboxEvent = await db.outboxEvent.create({
    data: { organizationId, type: payload.type, payload, dispatchedAt: new Date() },
  });
  const event = await db.webhookEvent.create({
    data: {
      organizationId,
      endpointId: endpoint.id,
      outboxEventId: outboxEvent.id,
      type: payload.type,
      resourceId: outboxEvent.id,
      payload: JSON.stringify(payload),
      status,
      succeeded: attempts.at(-1)?.succeeded ?? null,
      lastHttpCode: attempts.at(-1)?.httpCode ?? null,
    },
  });
  await db.webhookDelivery.createMany({
    data: attempts.map((attempt, index) => ({
      organizationId,
      webhookEventId: event.id,
      round: attempt.round ?? 'dispatch',
      attempt: attempt.attempt ?? index + 1,
      succeeded: attempt.succeeded,
      httpCode: attempt.httpCode,
      durationMs: attempt.durationMs ?? 40,
      response: attempt.response ?? null,
      error: attempt.error ?? null,
      createdAt: attempt.at,
    })),
  });
  return event;
}

describe('/v1/webhooks health, events and test events (extensions)', () => {
  const env = useTestStack();
  const receivers: Awaited<ReturnType<typeof startWebhookReceiver>>[] = [];
  beforeEach(() => env.database.reset());
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((receiver) => receiver.stop()));
  });

  async function receiver(answer?: Parameters<typeof startWebhookReceiver>[0]) {
    const started = await startWebhookReceiver(answer);
    receivers.push(started);
    return started;
  }

  async function organizationWithToken(name = 'Acme') {
    const organization = await createOrganization(env.database.db, { name });
    const token = await createAccessToken(env.database.db, organization.id);
    const call = async (method: string, path: string) => {
      const response = await fetch(`${env.stack.baseUrl}/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}` },
      });
      return { status: response.status, body: (await response.json().catch(() => null)) as unknown };
    };
    return { organization, token, call };
  }

  describe('GET /v1/webhooks/endpoints/{id}/health', () => {
    it('computes the success rate over the last 7 days of attempts, the last failure and the streak', async () => {
      const { organization, call } = await organizationWithToken();
      const endpoint = await createWebhookEndpoint(env.database.db, organization.id, {
        consecutiveFailedEvents: 2,
      });
      const now = Date.now();
      // Outside the window: counted for neither the rate nor the attempts, but it is an older failure.
      await insertEventWithAttempts(env.database.db, endpoint, 'failed', [
        { httpCode: 500, succeeded: false, at: new Date(now - 8 * DAY_MS) },
      ]);
      await insertEventWithAttempts(env.database.db, endpoint, 'succeeded', [
        { httpCode: 503, succeeded: false, error: null, at: new Date(now - 2 * DAY_MS) },
        { httpCode: 200, succeeded: true, at: new Date(now - 2 * DAY_MS + 5_000) },
      ]);
      await insertEventWithAttempts(env.database.db, endpoint, 'pending', [
        { httpCode: null, succeeded: false, error: 'connection refused', at: new Date(now - 60_000) },
      ]);
      await insertEventWithAttempts(env.database.db, endpoint, 'succeeded', [
        { httpCode: 200, succeeded: true, at: new Date(now - DAY_MS) },
      ]);

      const { status, body } = await call('GET', `/webhooks/endpoints/${endpoint.id}/health`);
      expect(status).toBe(200);
      const health = body as WebhookEndpointHealth;
      expect(health).toMatchObject({
        endpoint_id: endpoint.id,
        status: 'degraded',
        window_days: 7,
        attempts: 4,
        succeeded_attempts: 2,
        success_rate: 0.5,
        consecutive_failed_events: 2,
        failed_events_to_disable: 10,
        last_failure: { http_code: null, error: 'connection refused' },
        disabled_at: null,
        disabled_reason: null,
      });
      expect(Date.parse(health.last_failure!.at)).toBeCloseTo(now - 60_000, -3);
    });

    it('says why a disabled endpoint was disabled, and that an unused one is idle', async () => {
      const { organization, call } = await organizationWithToken();
      const disabledAt = new Date('2026-11-20T10:00:00.000Z');
      const gone = await createWebhookEndpoint(env.database.db, organization.id, {
        enabled: false,
        disabledReason: 'gone',
        disabledAt,
      });
      const switchedOff = await createWebhookEndpoint(env.database.db, organization.id, {
        enabled: false,
        disabledAt,
      });
      const unused = await createWebhookEndpoint(env.database.db, organization.id);

      expect((await call('GET', `/webhooks/endpoints/${gone.id}/health`)).body).toMatchObject({
        status: 'disabled',
        disabled_reason: 'gone',
        disabled_at: disabledAt.toISOString(),
      });
      expect((await call('GET', `/webhooks/endpoints/${switchedOff.id}/health`)).body).toMatchObject({
        status: 'disabled',
        disabled_reason: 'manual',
      });
      expect((await call('GET', `/webhooks/endpoints/${unused.id}/health`)).body).toMatchObject({
        status: 'idle',
        attempts: 0,
        success_rate: null,
        last_failure: null,
      });

      // The list answers the same, one item per endpoint in the endpoint list's order.
      const list = await call('GET', `/webhooks/health?organization_id=${organization.id}`);
      expect(list.status).toBe(200);
      const items = (list.body as { items: WebhookEndpointHealth[] }).items;
      expect(items.map((item) => [item.endpoint_id, item.status])).toEqual([
        [unused.id, 'idle'],
        [switchedOff.id, 'disabled'],
        [gone.id, 'disabled'],
      ]);
    });

    it('answers 404 for another organization’s endpoint and 422 for an id that is no UUID', async () => {
      const { call } = await organizationWithToken();
      const other = await createOrganization(env.database.db, { name: 'Other' });
      const foreign = await createWebhookEndpoint(env.database.db, other.id);
      expect((await call('GET', `/webhooks/endpoints/${foreign.id}/health`)).status).toBe(404);
      expect((await call('GET', `/webhooks/endpoints/${foreign.id}/events`)).status).toBe(404);
      const list = await call('GET', `/webhooks/health?organization_id=${other.id}`);
      expect((list.body as { items: unknown[] }).items).toEqual([]);
      const invalid = await call('GET', '/webhooks/endpoints/not-a-uuid/health');
      expect(invalid.status).toBe(422);
      expect((invalid.body as { detail: { loc: unknown[] }[] }).detail[0]?.loc).toEqual(['path', 'id']);
      const badPage = await call('GET', `/webhooks/endpoints/${foreign.id}/events?limit=0`);
      expect(badPage.status).toBe(422);
    });
  });

  describe('GET /v1/webhooks/endpoints/{id}/events', () => {
    it('lists one item per event with its attempts and when the next retry is due', async () => {
      const { organization, call } = await organizationWithToken();
      const endpoint = await createWebhookEndpoint(env.database.db, organization.id);
      const failedAt = new Date(Date.now() - 60_000);
      const retrying = await insertEventWithAttempts(env.database.db, endpoint, 'pending', [
        { httpCode: 500, succeeded: false, durationMs: 120, at: new Date(failedAt.getTime() - 5_000) },
        { httpCode: 502, succeeded: false, durationMs: 80, response: 'bad gateway', at: failedAt },
      ]);

      const { status, body } = await call('GET', `/webhooks/endpoints/${endpoint.id}/events`);
      expect(status).toBe(200);
      const page = body as { items: WebhookEndpointEvent[]; pagination: unknown };
      expect(page.pagination).toEqual({ total_count: 1, max_page: 1 });
      const [event] = page.items;
      expect(event).toMatchObject({
        id: retrying.id,
        type: 'organization.updated',
        status: 'pending',
        test: false,
        last_http_code: 502,
        // Attempt 3 of the schedule comes 5 minutes after attempt 2.
        next_attempt_at: new Date(failedAt.getTime() + 5 * 60_000).toISOString(),
      });
      expect(event!.attempts).toEqual([
        expect.objectContaining({ attempt: 1, http_code: 500, duration_ms: 120, redelivery: false }),
        expect.objectContaining({ attempt: 2, http_code: 502, duration_ms: 80, response: 'bad gateway' }),
      ]);
    });

    it('shows a real delivery that failed once and then succeeded as one event with two attempts', async () => {
      const { organization, token } = await organizationWithToken();
      const sink = await receiver((_request, index) => (index === 0 ? 503 : 200));
      const endpoint = await createWebhookEndpoint(env.database.db, organization.id, {
        url: sink.url,
        secret: SECRET,
      });
      await fetch(`${env.stack.baseUrl}/v1/organizations/${organization.id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Retried' }),
      });
      await sink.waitFor(2, 30_000);
      const authorization = `Bearer ${token}`;
      const events = await eventually(
        async () => {
          const response = await fetch(`${env.stack.baseUrl}/v1/webhooks/endpoints/${endpoint.id}/events`, {
            headers: { authorization },
          });
          return ((await response.json()) as { items: WebhookEndpointEvent[] }).items;
        },
        (items) => items.length === 1 && items[0]!.status === 'succeeded',
      );
      expect(events[0]!.attempts.map((attempt) => [attempt.attempt, attempt.http_code])).toEqual([
        [1, 503],
        [2, 200],
      ]);
      expect(events[0]!.next_attempt_at).toBeNull();
      expect(events[0]!.attempts[0]!.response).toBe('answered 503');
    });
  });

  describe('POST /v1/webhooks/endpoints/{id}/test', () => {
    it('sends a signed organization.updated to that endpoint only, through the outbox, and logs it', async () => {
      const { organization, call } = await organizationWithToken('Test Co');
      const sink = await receiver();
      const bystander = await receiver();
      // Subscribed to nothing: the test event is sent anyway.
      const endpoint = await createWebhookEndpoint(env.database.db, organization.id, {
        url: sink.url,
        secret: SECRET,
        events: [],
      });
      await createWebhookEndpoint(env.database.db, organization.id, {
        url: bystander.url,
        events: ['organization.updated'],
      });

      const answer = await call('POST', `/webhooks/endpoints/${endpoint.id}/test`);
      expect(answer).toEqual({ status: 202, body: null });

      const [request] = await sink.waitFor(1);
      const event = validateEvent(request!.body, request!.headers, SECRET);
      expect(event.type).toBe('organization.updated');
      expect(event.data).toMatchObject({ id: organization.id, name: 'Test Co' });
      const outbox = await env.database.db.outboxEvent.findMany({
        where: { organizationId: organization.id },
      });
      expect(outbox).toEqual([expect.objectContaining({ endpointId: endpoint.id })]);

      const logged = await eventually(
        async () => (await call('GET', `/webhooks/endpoints/${endpoint.id}/events`)).body,
        (body) => (body as { items: WebhookEndpointEvent[] }).items[0]?.status === 'succeeded',
      );
      const [item] = (logged as { items: WebhookEndpointEvent[] }).items;
      expect(item).toMatchObject({ id: request!.headers['webhook-id'], test: true, last_http_code: 200 });
      expect(item!.attempts).toHaveLength(1);
      expect(bystander.received).toHaveLength(0);
    });

    it('answers 404 for another organization’s endpoint, 403 to a member, 409 when disabled, 422 for a bad id', async () => {
      const { organization, call } = await organizationWithToken();
      const other = await createOrganization(env.database.db, { name: 'Other' });
      const foreign = await createWebhookEndpoint(env.database.db, other.id);
      expect((await call('POST', `/webhooks/endpoints/${foreign.id}/test`)).status).toBe(404);

      const disabled = await createWebhookEndpoint(env.database.db, organization.id, { enabled: false });
      const refused = await call('POST', `/webhooks/endpoints/${disabled.id}/test`);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ detail: expect.stringContaining('enable it') });

      const invalid = await call('POST', '/webhooks/endpoints/42/test');
      expect(invalid.status).toBe(422);
      expect(await env.database.db.outboxEvent.count()).toBe(0);

      const member = await signUpUser(env.stack.baseUrl);
      await addMember(env.database.db, organization.id, member.user.id, 'member');
      const own = await createWebhookEndpoint(env.database.db, organization.id);
      const asMember = await fetch(`${env.stack.baseUrl}/v1/webhooks/endpoints/${own.id}/test`, {
        method: 'POST',
        headers: member.sessionHeaders(),
      });
      expect(asMember.status).toBe(403);
      // Members read health and the log.
      const read = await fetch(`${env.stack.baseUrl}/v1/webhooks/endpoints/${own.id}/health`, {
        headers: member.sessionHeaders(),
      });
      expect(read.status).toBe(200);
    });
  });
});
