import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { validateEvent } from '@polar-sh/sdk/webhooks';
import { Polar as PolarCurrent } from 'polar-sdk-0481';
import { validateEvent as validateCurrentEvent } from 'polar-sdk-0481/webhooks.js';
import { signUpUser } from '../../test/auth-client.js';
import {
  addMember,
  createAccessToken,
  createMemberUser,
  createOrganization,
  createWebhookEndpoint,
} from '../../test/factories.js';
import { WEBHOOK_URL_MESSAGES } from '../../domain/webhooks/rules.js';
import { useTestStack } from '../../test/stack.js';
import { startWebhookReceiver } from '../../test/webhook-receiver.js';
import { eventually } from '../../test/eventually.js';

const SECRET = 'tollgate_whs_integration-test-secret';

describe('/v1/webhooks', () => {
  const env = useTestStack();
  const receivers: Awaited<ReturnType<typeof startWebhookReceiver>>[] = [];
  beforeEach(() => env.database.reset());
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((receiver) => receiver.stop()));
  });

  const polarWith = (accessToken: string) => new Polar({ accessToken, serverURL: env.stack.baseUrl });

  async function receiver(answer?: Parameters<typeof startWebhookReceiver>[0]) {
    const started = await startWebhookReceiver(answer);
    receivers.push(started);
    return started;
  }

  async function organizationWithToken() {
    const organization = await createOrganization(env.database.db, { name: 'Acme' });
    const polar = polarWith(await createAccessToken(env.database.db, organization.id));
    return { organization, polar };
  }

  describe('endpoints', () => {
    it('creates, gets, lists, updates and deletes an endpoint in the shapes the SDK validates', async () => {
      const { organization, polar } = await organizationWithToken();
      const created = await polar.webhooks.createWebhookEndpoint({
        url: 'https://hooks.acme.test/polar',
        format: 'raw',
        secret: SECRET,
        events: ['order.created', 'organization.updated', 'order.created'],
      });
      expect(created).toMatchObject({
        url: 'https://hooks.acme.test/polar',
        format: 'raw',
        organizationId: organization.id,
        events: ['order.created', 'organization.updated'],
        modifiedAt: null,
      });
      // Polar's current API shows the secret to whoever manages the endpoint (0.48.1 requires it).
      const raw = (await (
        await fetch(`${env.stack.baseUrl}/v1/webhooks/endpoints/${created.id}`, {
          headers: { authorization: `Bearer ${await createAccessToken(env.database.db, organization.id)}` },
        })
      ).json()) as Record<string, unknown>;
      expect(raw).toMatchObject({
        secret: SECRET,
        api_version: '2026-10',
        name: null,
        uses_standard_webhook_signature: false,
      });

      expect(await polar.webhooks.getWebhookEndpoint({ id: created.id })).toEqual(created);
      const page = await polar.webhooks.listWebhookEndpoints({ organizationId: organization.id });
      expect(page.result.items.map((endpoint) => endpoint.id)).toEqual([created.id]);
      expect(page.result.pagination).toEqual({ totalCount: 1, maxPage: 1 });

      const updated = await polar.webhooks.updateWebhookEndpoint({
        id: created.id,
        webhookEndpointUpdate: { format: 'slack', events: ['order.paid'] },
      });
      expect(updated).toMatchObject({ format: 'slack', events: ['order.paid'], url: created.url });
      expect(updated.modifiedAt).toBeInstanceOf(Date);

      await polar.webhooks.deleteWebhookEndpoint({ id: created.id });
      await expect(polar.webhooks.getWebhookEndpoint({ id: created.id })).rejects.toMatchObject({
        name: 'ResourceNotFound',
      });
    });

    it('generates a secret when none is given', async () => {
      const { organization } = await organizationWithToken();
      const token = await createAccessToken(env.database.db, organization.id);
      const response = await fetch(`${env.stack.baseUrl}/v1/webhooks/endpoints`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'https://hooks.acme.test/', format: 'raw', events: [] }),
      });
      expect(response.status).toBe(201);
      const { id } = (await response.json()) as { id: string };
      const row = await env.database.db.webhookEndpoint.findUniqueOrThrow({ where: { id } });
      expect(row.secret).toMatch(/^tollgate_whs_/);
    });

    it('answers 422 to an http URL off this machine, an unknown event type, unknown fields, or no organization for a session', async () => {
      const { organization } = await organizationWithToken();
      const token = await createAccessToken(env.database.db, organization.id);
      const post = (body: unknown, auth: Record<string, string> = { authorization: `Bearer ${token}` }) =>
        fetch(`${env.stack.baseUrl}/v1/webhooks/endpoints`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const valid = { url: 'https://hooks.acme.test/', format: 'raw', events: ['order.paid'] };
      const cases: [unknown, (string | number)[]][] = [
        [{ ...valid, url: 'http://hooks.acme.test/' }, ['body', 'url']],
        [{ ...valid, events: ['order.exploded'] }, ['body', 'events', 0]],
        [{ ...valid, format: 'teams' }, ['body', 'format']],
        [{ ...valid, colour: 'red' }, ['body']],
      ];
      for (const [body, loc] of cases) {
        const response = await post(body);
        expect(response.status).toBe(422);
        expect(((await response.json()) as { detail: { loc: unknown[] }[] }).detail[0]?.loc).toEqual(loc);
      }
      // Not a web address and not https are told apart, each with its own code and sentence.
      const refusedUrl = async (url: string) =>
        ((await (await post({ ...valid, url })).json()) as { detail: unknown[] }).detail;
      expect(await refusedUrl('hooks.acme.test/polar')).toEqual([
        { loc: ['body', 'url'], msg: WEBHOOK_URL_MESSAGES.notAUrl, type: 'invalid_format' },
      ]);
      expect(await refusedUrl('http://hooks.acme.test/polar')).toEqual([
        { loc: ['body', 'url'], msg: WEBHOOK_URL_MESSAGES.notHttps, type: 'custom' },
      ]);
      const user = await signUpUser(env.stack.baseUrl);
      await addMember(env.database.db, organization.id, user.user.id, 'owner');
      const withoutOrganization = await post(valid, { ...user.sessionHeaders() });
      expect(withoutOrganization.status).toBe(422);
    });
  });

  describe('API versions', () => {
    const call = async (token: string, method: string, path: string, body?: unknown, version?: string) => {
      const response = await fetch(`${env.stack.baseUrl}/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          ...(version ? { 'polar-version': version } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await response.json()) as Record<string, unknown>;
    };

    it("renders events in the endpoint's version, the creating request's by default, and keeps a made event's version", async () => {
      const { organization, polar } = await organizationWithToken();
      const token = await createAccessToken(env.database.db, organization.id);
      const sink = await receiver();
      const endpoint = { url: sink.url, format: 'raw', events: ['organization.updated'], secret: SECRET };
      const april = await call(token, 'POST', '/webhooks/endpoints', endpoint, '2026-04');
      const unversioned = await call(token, 'POST', '/webhooks/endpoints', { ...endpoint, name: 'Main' });
      const named = await call(
        token,
        'POST',
        '/webhooks/endpoints',
        { ...endpoint, api_version: '2027-01' },
        '2026-04',
      );
      expect([april.api_version, unversioned.api_version, named.api_version]).toEqual([
        '2026-04',
        '2026-10',
        '2027-01',
      ]);
      expect(unversioned.name).toBe('Main');
      const refused = await call(token, 'POST', '/webhooks/endpoints', {
        ...endpoint,
        api_version: '2026-07',
      });
      expect((refused.detail as { loc: unknown[] }[])[0]?.loc).toEqual(['body', 'api_version']);

      await polar.organizations.update({ id: organization.id, organizationUpdate: { name: 'Versioned' } });
      const received = await sink.waitFor(3, 30_000);
      const versions = received.map((request) => {
        const body = JSON.parse(request.body) as { api_version: string; type: string };
        expect(request.headers['webhook-api-version']).toBe(body.api_version);
        // The unversioned SDKs accept every version's envelope.
        expect(validateEvent(request.body, request.headers, SECRET).type).toBe('organization.updated');
        return body.api_version;
      });
      expect(versions.sort()).toEqual(['2026-04', '2026-10', '2027-01']);

      // A change applies to later events; a redelivery keeps the version its event was made in.
      const changed = await call(token, 'PATCH', `/webhooks/endpoints/${april.id as string}`, {
        api_version: '2027-01',
      });
      expect(changed.api_version).toBe('2027-01');
      const [made] = await env.database.db.webhookEvent.findMany({
        where: { endpointId: april.id as string },
      });
      expect(made!.apiVersion).toBe('2026-04');
      const deliveries = await call(token, 'GET', `/webhooks/deliveries?endpoint_id=${april.id as string}`);
      expect((deliveries.items as { webhook_event: unknown }[])[0]?.webhook_event).toMatchObject({
        id: made!.id,
        type: 'organization.updated',
        skipped: false,
        is_archived: false,
        api_version: '2026-04',
      });
      const redelivered = await fetch(`${env.stack.baseUrl}/v1/webhooks/events/${made!.id}/redeliver`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(redelivered.status).toBe(202);
      const [again] = (await sink.waitFor(4, 30_000)).slice(3);
      expect(again!.headers['webhook-api-version']).toBe('2026-04');
      expect((JSON.parse(again!.body) as { api_version: string }).api_version).toBe('2026-04');
    });

    it('serves endpoints, deliveries and events as @polar-sh/sdk 0.48.1 validates them', async () => {
      const { organization, polar: seed } = await organizationWithToken();
      const polar = new PolarCurrent({
        accessToken: await createAccessToken(env.database.db, organization.id),
        serverURL: env.stack.baseUrl,
      });
      const sink = await receiver();
      const created = await polar.webhooks.createWebhookEndpoint({
        url: sink.url,
        name: 'Orders',
        format: 'raw',
        events: ['organization.updated'],
      });
      expect(created).toMatchObject({ name: 'Orders', format: 'raw', enabled: true });
      expect(created.secret).toMatch(/^tollgate_whs_/);
      expect(await polar.webhooks.getWebhookEndpoint({ id: created.id })).toEqual(created);
      const renamed = await polar.webhooks.updateWebhookEndpoint({
        id: created.id,
        webhookEndpointUpdate: { name: 'All orders' },
      });
      expect(renamed.name).toBe('All orders');
      const reset = await polar.webhooks.resetWebhookEndpointSecret({ id: created.id });
      expect(reset.secret).toMatch(/^tollgate_whs_/);
      expect(reset.secret).not.toBe(created.secret);
      await seed.organizations.update({ id: organization.id, organizationUpdate: { name: 'Current' } });
      const [request] = await sink.waitFor(1, 30_000);
      // 0.48.1 checks the payload against its own shapes, the organization's current fields included.
      const event = validateCurrentEvent(request!.body, request!.headers, reset.secret);
      expect(event).toMatchObject({ type: 'organization.updated', data: { name: 'Current' } });
      const deliveries = await eventually(
        () => polar.webhooks.listWebhookDeliveries({ endpointId: created.id }),
        (page) => page.result.items.length === 1,
      );
      expect(deliveries.result.items[0]?.webhookEvent).toMatchObject({
        type: 'organization.updated',
        skipped: false,
        isArchived: false,
      });
      await polar.webhooks.deleteWebhookEndpoint({ id: created.id });
    });

    it("shows the signing secret to the organization's managers, not to a member who may only read", async () => {
      const { organization } = await organizationWithToken();
      const endpoint = await createWebhookEndpoint(env.database.db, organization.id, {
        url: 'https://hooks.acme.test/',
        secret: SECRET,
      });
      const member = await signUpUser(env.stack.baseUrl);
      await addMember(env.database.db, organization.id, member.user.id, 'member');
      const read = await fetch(`${env.stack.baseUrl}/v1/webhooks/endpoints/${endpoint.id}`, {
        headers: member.sessionHeaders(),
      });
      expect(((await read.json()) as { secret: string }).secret).toBe('');
      const listed = await fetch(
        `${env.stack.baseUrl}/v1/webhooks/endpoints?organization_id=${organization.id}`,
        {
          headers: member.sessionHeaders(),
        },
      );
      expect(((await listed.json()) as { items: { secret: string }[] }).items[0]?.secret).toBe('');
      const owner = await signUpUser(env.stack.baseUrl);
      await addMember(env.database.db, organization.id, owner.user.id, 'owner');
      const asOwner = await fetch(`${env.stack.baseUrl}/v1/webhooks/endpoints/${endpoint.id}`, {
        headers: owner.sessionHeaders(),
      });
      expect(((await asOwner.json()) as { secret: string }).secret).toBe(SECRET);
    });
  });

  describe('delivery', () => {
    it('delivers organization.updated, signed so that validateEvent accepts it, and lists the attempt', async () => {
      const { organization, polar } = await organizationWithToken();
      const sink = await receiver();
      const endpoint = await polar.webhooks.createWebhookEndpoint({
        url: sink.url,
        format: 'raw',
        secret: SECRET,
        events: ['organization.updated'],
      });
      await polar.organizations.update({
        id: organization.id,
        organizationUpdate: { name: 'Acme Renamed' },
      });

      const [request] = await sink.waitFor(1);
      const event = validateEvent(request!.body, request!.headers, SECRET);
      expect(event.type).toBe('organization.updated');
      expect(event.data).toMatchObject({ id: organization.id, name: 'Acme Renamed' });
      expect(request!.headers['webhook-signature']).toMatch(/^v1,/);
      expect(Number(request!.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -2);

      const deliveries = await eventually(
        () => polar.webhooks.listWebhookDeliveries({ endpointId: endpoint.id }),
        (page) => page.result.items.length === 1,
      );
      const [delivery] = deliveries.result.items;
      expect(delivery).toMatchObject({ httpCode: 200, succeeded: true });
      expect(delivery!.webhookEvent).toMatchObject({
        id: request!.headers['webhook-id'],
        lastHttpCode: 200,
        succeeded: true,
        payload: request!.body,
      });
    });

    it('sends nothing to endpoints that are disabled, unsubscribed or of another organization', async () => {
      const { organization, polar } = await organizationWithToken();
      const other = await createOrganization(env.database.db);
      const sink = await receiver();
      await createWebhookEndpoint(env.database.db, organization.id, {
        url: sink.url,
        events: ['order.paid'],
      });
      await createWebhookEndpoint(env.database.db, organization.id, { url: sink.url, enabled: false });
      await createWebhookEndpoint(env.database.db, other.id, { url: sink.url });
      await polar.organizations.update({ id: organization.id, organizationUpdate: { name: 'Quiet' } });
      await eventually(
        () => env.database.db.outboxEvent.findFirstOrThrow({ where: { organizationId: organization.id } }),
        (event) => event.dispatchedAt !== null,
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(sink.received).toHaveLength(0);
      expect(await env.database.db.webhookEvent.count()).toBe(0);
    });

    it('keeps the order of events about one resource, even when the first needs a retry', async () => {
      const { organization, polar } = await organizationWithToken();
      const sink = await receiver((_request, index) => (index === 0 ? 503 : 200));
      await createWebhookEndpoint(env.database.db, organization.id, { url: sink.url, secret: SECRET });
      for (const name of ['First', 'Second', 'Third']) {
        await polar.organizations.update({ id: organization.id, organizationUpdate: { name } });
      }
      const received = await sink.waitFor(4, 30_000);
      const names = received.map((request) => {
        const event = validateEvent(request.body, request.headers, SECRET);
        return event.type === 'organization.updated' ? event.data.name : event.type;
      });
      expect(names).toEqual(['First', 'First', 'Second', 'Third']);
      // The retry waited the schedule's 5 s (±10 % jitter).
      expect(received[1]!.at - received[0]!.at).toBeGreaterThanOrEqual(4_500);
      const attempts = await eventually(
        () => env.database.db.webhookDelivery.findMany({ orderBy: { createdAt: 'asc' } }),
        (rows) => rows.length === 4,
      );
      expect(attempts.map((attempt) => [attempt.attempt, attempt.httpCode])).toEqual([
        [1, 503],
        [2, 200],
        [1, 200],
        [1, 200],
      ]);
      expect(attempts[0]!.response).toBe('answered 503');
    });

    it('disables an endpoint that answers 410 Gone and emails the organization owners', async () => {
      const { organization, polar } = await organizationWithToken();
      const owner = await createMemberUser(env.database.db, organization.id, 'owner');
      const member = await createMemberUser(env.database.db, organization.id, 'member');
      const sink = await receiver(() => 410);
      const endpoint = await createWebhookEndpoint(env.database.db, organization.id, { url: sink.url });
      await polar.organizations.update({ id: organization.id, organizationUpdate: { name: 'Gone' } });

      const row = await eventually(
        () => env.database.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } }),
        (current) => !current.enabled,
      );
      expect(row.disabledReason).toBe('gone');
      const email = await eventually(
        () => env.database.db.emailMessage.findFirst({ where: { toAddress: owner.email } }),
        (found) => found !== null,
      );
      expect(email!.subject).toBe('Webhook endpoint disabled for Gone');
      expect(email!.text).toContain(sink.url);
      expect(await env.database.db.emailMessage.count({ where: { toAddress: member.email } })).toBe(0);
      // One attempt only: 410 is not retried.
      expect(sink.received).toHaveLength(1);
      const url = `${env.stack.baseUrl}/v1/webhooks/endpoints/${endpoint.id}`;
      const authorization = `Bearer ${await createAccessToken(env.database.db, organization.id)}`;
      const response = await fetch(url, { headers: { authorization } });
      expect(((await response.json()) as { enabled: boolean }).enabled).toBe(false);

      // Later events are not sent to it.
      await polar.organizations.update({ id: organization.id, organizationUpdate: { name: 'Still gone' } });
      await eventually(
        () => env.database.db.outboxEvent.count({ where: { dispatchedAt: null } }),
        (count) => count === 0,
      );
      expect(sink.received).toHaveLength(1);

      // The seller turns it back on (`enabled`, as newer Polar APIs accept it).
      const enabled = await fetch(url, {
        method: 'PATCH',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ enabled: true }),
      });
      expect(((await enabled.json()) as { enabled: boolean }).enabled).toBe(true);
      expect(
        await env.database.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } }),
      ).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null });
    });

    it('delivers an event committed while the worker was down once a worker runs again', async () => {
      const { organization, polar } = await organizationWithToken();
      const sink = await receiver();
      await createWebhookEndpoint(env.database.db, organization.id, { url: sink.url, secret: SECRET });

      await env.stack.stopWorker();
      try {
        await polar.organizations.update({ id: organization.id, organizationUpdate: { name: 'While down' } });
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        expect(sink.received).toHaveLength(0);
        expect(await env.database.db.outboxEvent.count({ where: { dispatchedAt: null } })).toBe(1);
      } finally {
        await env.stack.startWorker();
      }
      const [request] = await sink.waitFor(1, 40_000);
      const event = validateEvent(request!.body, request!.headers, SECRET);
      expect(event.data).toMatchObject({ name: 'While down' });
    });

    it('redelivers an event to its endpoint with the same webhook-id', async () => {
      const { organization, polar } = await organizationWithToken();
      const sink = await receiver();
      await createWebhookEndpoint(env.database.db, organization.id, { url: sink.url, secret: SECRET });
      await polar.organizations.update({ id: organization.id, organizationUpdate: { name: 'Once' } });
      const [first] = await sink.waitFor(1);
      const webhookEventId = first!.headers['webhook-id']!;

      await polar.webhooks.redeliverWebhookEvent({ id: webhookEventId });
      const received = await sink.waitFor(2);
      expect(received[1]!.headers['webhook-id']).toBe(webhookEventId);
      expect(received[1]!.body).toBe(first!.body);
      expect(validateEvent(received[1]!.body, received[1]!.headers, SECRET).type).toBe(
        'organization.updated',
      );
      const attempts = await eventually(
        () => env.database.db.webhookDelivery.count({ where: { webhookEventId } }),
        (count) => count === 2,
      );
      expect(attempts).toBe(2);
    });
  });
});

// Regression: any seller could make the server call the operator's internal network (PostgreSQL,
// the Temporal UI, cloud metadata) and read the answer back in the delivery log.
describe('/v1/webhooks endpoint URLs outside sandbox mode', () => {
  const env = useTestStack({ mode: 'live', withWorker: false });

  it('refuses loopback, private, link-local and metadata targets, stores nothing and echoes no address', async () => {
    const organization = await createOrganization(env.database.db, { name: 'Internal' });
    const token = await createAccessToken(env.database.db, organization.id);
    const create = (url: string) =>
      fetch(`${env.stack.baseUrl}/v1/webhooks/endpoints`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url, format: 'raw', events: ['order.paid'] }),
      });
    for (const url of [
      'http://127.0.0.1:54329/',
      'http://localhost:8233/',
      'http://[::1]:7233/',
      'http://127.1/',
      'http://2130706433/',
      'http://0x7f000001/',
      'https://169.254.169.254/latest/meta-data/',
      'https://10.0.0.1/',
      'https://metadata.google.internal/',
      'https://[::ffff:10.0.0.1]/',
    ]) {
      const response = await create(url);
      expect(response.status).toBe(422);
      const body = (await response.json()) as { detail: { loc: unknown[]; msg: string }[] };
      expect(body.detail).toEqual([expect.objectContaining({ loc: ['body', 'url'] })]);
      expect(body.detail[0]!.msg).not.toMatch(/\d+\.\d+\.\d+\.\d+|::/);
    }
    expect(await env.database.db.webhookEndpoint.count({ where: { organizationId: organization.id } })).toBe(
      0,
    );

    const created = await create('https://hooks.example.test/polar');
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const moved = await fetch(`${env.stack.baseUrl}/v1/webhooks/endpoints/${id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://192.168.0.10/hook' }),
    });
    expect(moved.status).toBe(422);
    const stored = await env.database.db.webhookEndpoint.findUniqueOrThrow({ where: { id } });
    expect(stored.url).toBe('https://hooks.example.test/polar');
  });
});
