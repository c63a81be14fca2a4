import { createMailer } from '../../integrations/smtp/mailer.js';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Prisma } from '../../generated/prisma/client.js';
import { describe, expect, it } from '@jest/globals';
import { Validator } from '@seriousme/openapi-schema-validator';
import { signUpUser } from '../../test/auth-client.js';
import { addMember, createAccessToken, createOrganization } from '../../test/factories.js';
import { startTestStack, useTestStack } from '../../test/stack.js';
import { noTax } from '../../domain/tax/rules.js';
import { createLogger } from '../../infra/logger.js';
import { projectRoot } from '../../scripts/lib/paths.js';
import { createV1Router } from './router.js';
import {
  IDEMPOTENCY_ORPHAN_GRACE_SECONDS,
  releaseRequests,
  reserveRequests,
} from '../../domain/platform/repository.js';
import { ProcessPresence } from '../../infra/process-presence.js';
import { taskQueues } from '../../temporal/task-queues.js';
import { createHttpWebhookSender } from '../../integrations/http/webhook-sender.js';

type OpenApi = {
  openapi: string;
  paths: Record<string, Record<string, { operationId: string; 'x-tollgate'?: string }>>;
};

/** Operations Polar manages elsewhere (its dashboard); Tollgate offers them on /v1. */
const TOLLGATE_EXTENSIONS = new Set([
  'openapi:get',
  'organization_access_tokens:create',
  'organization_access_tokens:list',
  'organization_access_tokens:delete',
]);

function polarOperations(): Set<string> {
  const file = path.join(projectRoot, 'docs', 'spec', 'polar-v1-endpoints.txt');
  const listed = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [method = '', route = '', name = ''] = line.trim().split(/\s+/);
      return `${method} ${route} ${name}`;
    });
  return new Set([...listed, ...currentSdkOperations()]);
}

/**
 * The operations of Polar's current SDK (@polar-sh/sdk 0.48.1), read from its functions: each
 * names its path and method, and its file is the operation's function name.
 */
function currentSdkOperations(): string[] {
  const folder = path.join(projectRoot, 'node_modules', 'polar-sdk-0481', 'src', 'funcs');
  return readdirSync(folder).flatMap((file) => {
    const source = readFileSync(path.join(folder, file), 'utf8');
    // A long path is wrapped onto its own line: `pathToFunc(\n  "/v1/…",\n)`.
    const route = /pathToFunc\(\s*"([^"]+)",?\s*\)/.exec(source)?.[1];
    const method = /method: "([A-Z]+)"/.exec(source)?.[1];
    return route && method ? [`${method} ${route} ${file.replace(/\.ts$/, '')}`] : [];
  });
}

/** `products:update_benefits` → `productsUpdateBenefits`, the SDK's function name in the endpoint list. */
const functionName = (operationId: string) =>
  operationId.replace(/[:_-](\w)/g, (_match, letter: string) => letter.toUpperCase());

describe('/v1 platform: OpenAPI, Idempotency-Key, rate limits', () => {
  const env = useTestStack({ withWorker: false });

  describe('GET /v1/openapi.json', () => {
    // Hardening issue item 7: references zod wrote as `#/$defs/…` resolved nowhere, so the document
    // was not valid OpenAPI 3.1 and schemathesis could not test the operations that used them.
    it('is a valid OpenAPI 3.1 document', async () => {
      const document: unknown = await (await fetch(`${env.stack.baseUrl}/v1/openapi.json`)).json();
      const result = await new Validator().validate(document as Record<string, unknown>);
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
    });

    it('documents both error shapes where a status has two (422: validation and named errors)', async () => {
      type Responses = Record<
        string,
        { content?: { 'application/json': { schema: Record<string, unknown> } } }
      >;
      const document = (await (await fetch(`${env.stack.baseUrl}/v1/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { responses: Responses }>>;
      };
      const invoice = document.paths['/v1/orders/{id}/invoice']!.post!.responses;
      const shapes = invoice['422']!.content!['application/json'].schema.oneOf as Record<string, unknown>[];
      expect(shapes).toEqual([
        expect.objectContaining({ required: ['detail'] }),
        expect.objectContaining({
          required: ['error', 'detail'],
          properties: expect.objectContaining({
            error: { enum: ['MissingInvoiceBillingDetails', 'NotPaidOrder'] },
          }) as unknown,
        }),
      ]);
      // Two named errors of one status are one schema naming both.
      expect(invoice['409']!.content!['application/json'].schema).toMatchObject({
        properties: { error: { enum: ['Conflict', 'InvoiceAlreadyExists'] } },
      });
    });

    it('states a maximum length (or a pattern, format or set of values) for every text an operation takes', async () => {
      type Schema = Record<string, unknown>;
      const document = (await (await fetch(`${env.stack.baseUrl}/v1/openapi.json`)).json()) as {
        paths: Record<
          string,
          Record<
            string,
            {
              parameters: { name: string; schema: Schema }[];
              requestBody?: { content: Record<string, { schema: Schema }> };
            }
          >
        >;
      };
      const unbounded: string[] = [];
      const visit = (schema: unknown, where: string): void => {
        if (Array.isArray(schema)) return schema.forEach((entry, index) => visit(entry, `${where}.${index}`));
        if (!schema || typeof schema !== 'object') return;
        const node = schema as Schema;
        const isBounded = ['maxLength', 'pattern', 'format', 'enum', 'const'].some((key) => key in node);
        const types = Array.isArray(node.type) ? (node.type as unknown[]) : [node.type];
        if (types.includes('string') && !isBounded) unbounded.push(where);
        for (const [key, value] of Object.entries(node)) visit(value, `${where}.${key}`);
      };
      for (const [route, operations] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          for (const parameter of operation.parameters)
            visit(parameter.schema, `${method} ${route} ${parameter.name}`);
          visit(Object.values(operation.requestBody?.content ?? {})[0]?.schema, `${method} ${route} body`);
        }
      }
      expect(unbounded).toEqual([]);
    });

    it('documents exactly the routes the router serves, each one a Polar operation or a known extension', async () => {
      const response = await fetch(`${env.stack.baseUrl}/v1/openapi.json`);
      expect(response.status).toBe(200);
      const document = (await response.json()) as OpenApi;
      expect(document.openapi).toBe('3.1.0');

      const documented = Object.entries(document.paths).flatMap(([route, operations]) =>
        Object.entries(operations).map(([method, operation]) => ({
          route,
          method,
          id: operation.operationId,
          extension: operation['x-tollgate'],
        })),
      );
      const { router } = createV1Router({
        db: env.database.db,
        auth: env.stack.auth,
        logger: createLogger({ level: 'silent', name: 'openapi-test' }),
        rateLimitPerMinute: 1,
        checkoutClientRateLimit: (_req, _res, next) => next(),
        version: 'test',
        publicUrl: env.stack.baseUrl,
        fileStorage: env.stack.fileStorage,
        workflows: env.stack.workflows,
        webhookSender: createHttpWebhookSender({
          requireHttps: false,
          allowLoopback: true,
          allowPrivateNetworks: false,
        }),
        tax: noTax,
        mailer: createMailer({
          db: env.database.db,
          from: 'x@y.test',
          logger: createLogger({ level: 'silent', name: 'openapi-test' }),
        }),
        processorMetadata: {},
        sandbox: true,
        checkoutTtlMs: 3_600_000,
      });
      type Layer = {
        route?: { path: string; methods: Record<string, boolean> };
        rawPath?: unknown;
        handle: { stack?: Layer[] };
      };
      // Routes sit in the router itself or in a router mounted at their first path segment.
      const routesOf = (stack: Layer[], prefix: string): string[] =>
        stack.flatMap((layer) => {
          if (layer.handle.stack && typeof layer.rawPath === 'string') {
            return routesOf(layer.handle.stack, `${prefix}${layer.rawPath}`);
          }
          if (!layer.route) return [];
          const path = `${prefix}${layer.route.path}`.replace(/:(\w+)/g, '{$1}');
          return (
            Object.keys(layer.route.methods)
              // Every path's 405 answer for the methods it does not serve (`router.all`).
              .filter((method) => method !== '_all')
              .map((method) => `${method} /v1${path}`)
          );
        });
      const served = routesOf((router as unknown as { stack: Layer[] }).stack, '');
      expect(documented.map(({ method, route }) => `${method} ${route}`).sort()).toEqual(served.sort());

      const polar = polarOperations();
      for (const { route, method, id, extension } of documented) {
        // Extensions say so in the document (`x-tollgate`), in words a client's developer can read.
        if (TOLLGATE_EXTENSIONS.has(id) || (typeof extension === 'string' && extension.length > 20)) continue;
        expect(polar).toContain(`${method.toUpperCase()} ${route} ${functionName(id)}`);
      }
    });
  });

  // Found by Schemathesis (unsupported_method): these were 404s, Polar answers 405.
  describe('a method no operation serves at a path', () => {
    it('is a 405 MethodNotAllowed listing the methods in Allow; OPTIONS gets the list', async () => {
      const organization = await createOrganization(env.database.db);
      const token = await createAccessToken(env.database.db, organization.id);
      const headers = { authorization: `Bearer ${token}` };
      const trace = await fetch(`${env.stack.baseUrl}/v1/products/`, { method: 'PUT', headers });
      expect(trace.status).toBe(405);
      expect(trace.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
      expect(await trace.json()).toMatchObject({ error: 'MethodNotAllowed' });
      const options = await fetch(`${env.stack.baseUrl}/v1/products/${randomUUID()}`, {
        method: 'OPTIONS',
        headers,
      });
      expect(options.status).toBe(204);
      expect(options.headers.get('allow')).toBe('GET, HEAD, PATCH, DELETE, OPTIONS');
      // Methods registered for a path after its first one still reach their routes.
      const update = await fetch(`${env.stack.baseUrl}/v1/products/${randomUUID()}`, {
        method: 'PATCH',
        headers,
      });
      expect(update.status).toBe(422);
    });
  });

  describe('Idempotency-Key', () => {
    async function ownerWithToken() {
      const user = await signUpUser(env.stack.baseUrl);
      const organization = await createOrganization(env.database.db);
      await addMember(env.database.db, organization.id, user.user.id, 'owner');
      const token = await createAccessToken(env.database.db, organization.id, { createdById: user.user.id });
      return { user, organization, token };
    }

    // Customers, not organizations: an access token cannot create organizations (Polar's rule).
    const createCustomer = (token: string, key: string | undefined, body: unknown) =>
      fetch(`${env.stack.baseUrl}/v1/customers/`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          ...(key ? { 'idempotency-key': key } : {}),
        },
        body: JSON.stringify(body),
      });

    it('replays the first answer for the same key and body, without doing the work again', async () => {
      const { token } = await ownerWithToken();
      const key = randomUUID();
      const email = `idem-${randomUUID().slice(0, 8)}@example.com`;
      const first = await createCustomer(token, key, { name: 'Once', email });
      expect(first.status).toBe(201);
      const created = (await first.json()) as { id: string };

      // Same meaning, other key order: still the same request.
      const again = await createCustomer(token, key, { email, name: 'Once' });
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await again.json()).toEqual(created);
      expect(await env.database.db.customer.count({ where: { email } })).toBe(1);
    });

    it('refuses the same key with another body (422), and leaves nothing behind for a failed request', async () => {
      const { token } = await ownerWithToken();
      const key = randomUUID();
      const email = `idem-${randomUUID().slice(0, 8)}@example.com`;
      const invalid = await createCustomer(token, key, { name: 'Bad', email: 'X' });
      expect(invalid.status).toBe(422);

      expect((await createCustomer(token, key, { name: 'Good', email })).status).toBe(201);
      const other = `other-${email}`;
      const reused = await createCustomer(token, key, { name: 'Other', email: other });
      expect(reused.status).toBe(422);
      expect(await reused.json()).toEqual({
        detail: [
          {
            loc: ['header', 'Idempotency-Key'],
            msg: 'This Idempotency-Key was used with a different request.',
            type: 'idempotency_key_reused',
          },
        ],
      });
      expect(await env.database.db.customer.count({ where: { email: other } })).toBe(0);
    });

    it('lets only one of many concurrent requests with one key do the work', async () => {
      const { token } = await ownerWithToken();
      const key = randomUUID();
      const email = `idem-${randomUUID().slice(0, 8)}@example.com`;
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => createCustomer(token, key, { name: 'Race', email })),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
      expect(
        answers.filter((answer) => answer.status === 201 && !answer.headers.get('idempotent-replayed')),
      ).toHaveLength(1);
      expect(await env.database.db.customer.count({ where: { email } })).toBe(1);
    });

    it('lets the same request take over a claim whose process died before answering', async () => {
      const { organization, token } = await ownerWithToken();
      const key = randomUUID();
      const create = (email: string) =>
        fetch(`${env.stack.baseUrl}/v1/customers/`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'idempotency-key': key,
          },
          body: JSON.stringify({ email }),
        });
      expect((await create('first@example.test')).status).toBe(201);
      // As a process killed mid-request leaves it: claimed, never answered.
      const orphan = async (ageMs: number) =>
        env.database.db.idempotencyKey.updateMany({
          where: { key },
          data: { status: null, responseBody: Prisma.DbNull, createdAt: new Date(Date.now() - ageMs) },
        });
      await orphan(10_000);
      expect((await create('first@example.test')).status).toBe(409);
      await orphan(3 * 60_000);
      expect((await create('second@example.test')).status).toBe(422);
      const retried = await create('first@example.test');
      expect(retried.status).toBe(422);
      // The customer exists (the dead request had done its work): the retry is refused as a duplicate,
      // never answered with "still being processed" forever.
      expect(await env.database.db.customer.count({ where: { organizationId: organization.id } })).toBe(1);
    });

    it('lets the same request take over at once a claim whose process is gone, told by its presence lock', async () => {
      const { organization, token } = await ownerWithToken();
      const key = randomUUID();
      const email = `presence-${randomUUID().slice(0, 8)}@example.test`;
      expect((await createCustomer(token, key, { email })).status).toBe(201);
      // Another API process, alive: it claimed the key and is still working on it.
      const other = new ProcessPresence(env.database.db.sql.options).start();
      try {
        for (let attempt = 0; attempt < 100 && other.heldKey === null; attempt += 1) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const holderLock = other.heldKey;
        expect(holderLock).not.toBeNull();
        const claimedBy = async (ageMs: number) => {
          await env.database.db.customer.deleteMany({ where: { organizationId: organization.id } });
          await env.database.db.idempotencyKey.updateMany({
            where: { key },
            data: {
              status: null,
              responseBody: Prisma.DbNull,
              holderLock,
              createdAt: new Date(Date.now() - ageMs),
            },
          });
        };
        await claimedBy(10_000);
        const whileAlive = await createCustomer(token, key, { email });
        expect(whileAlive.status).toBe(409);

        await other.stop();
        // Its session closed as it died; a moment ago it may only be reconnecting.
        await claimedBy(1_000);
        expect((await createCustomer(token, key, { email })).status).toBe(409);
        await claimedBy(IDEMPOTENCY_ORPHAN_GRACE_SECONDS * 1000 + 1_000);
        expect((await createCustomer(token, key, { email: `other-${email}` })).status).toBe(422);
        const retried = await createCustomer(token, key, { email });
        expect(retried.status).toBe(201);
        expect(retried.headers.get('idempotent-replayed')).toBeNull();
        expect(await env.database.db.customer.count({ where: { organizationId: organization.id } })).toBe(1);
        const replayed = await createCustomer(token, key, { email });
        expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      } finally {
        await other.stop();
      }
    });

    it('keeps keys apart per caller', async () => {
      const a = await ownerWithToken();
      const b = await ownerWithToken();
      const key = randomUUID();
      expect(
        (
          await createCustomer(a.token, key, {
            name: 'A',
            email: `a-${randomUUID().slice(0, 8)}@example.com`,
          })
        ).status,
      ).toBe(201);
      const other = await createCustomer(b.token, key, {
        name: 'B',
        email: `b-${randomUUID().slice(0, 8)}@example.com`,
      });
      expect(other.status).toBe(201);
      expect(other.headers.get('idempotent-replayed')).toBeNull();
    });

    it('refuses a malformed key', async () => {
      const { token } = await ownerWithToken();
      expect((await createCustomer(token, 'x'.repeat(256), { email: 'a@example.com' })).status).toBe(422);
    });
  });
});

describe('/v1 token scopes', () => {
  const env = useTestStack({ withWorker: false });

  it('lets a scoped token do what its scopes name, and nothing else', async () => {
    const organization = await createOrganization(env.database.db);
    const call = async (scopes: string[], method: string, path: string, body?: unknown) => {
      const token = await createAccessToken(env.database.db, organization.id, { scopes });
      const response = await fetch(`${env.stack.baseUrl}/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return response.status;
    };
    const customer = () => ({ email: `${randomUUID()}@example.test` });
    expect(await call(['customers:read'], 'GET', '/customers/')).toBe(200);
    expect(await call(['customers:read'], 'POST', '/customers/', customer())).toBe(403);
    expect(await call(['customers:write'], 'POST', '/customers/', customer())).toBe(201);
    expect(await call(['customers:write'], 'GET', '/customers/')).toBe(200);
    expect(await call(['customers:write'], 'GET', '/benefits/')).toBe(403);
    expect(await call([], 'GET', '/benefits/')).toBe(200);
  });
});

describe('/v1 rate limit', () => {
  const env = useTestStack({ withWorker: false, apiRateLimitPerMinute: 5 });

  it('answers 429 with Retry-After beyond the budget, per token, shared by API processes', async () => {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    const other = await createAccessToken(env.database.db, organization.id);
    const second = await startTestStack({ db: env.database.db, withWorker: false, apiRateLimitPerMinute: 5 });
    try {
      const get = (baseUrl: string, bearer: string) =>
        fetch(`${baseUrl}/v1/organizations/${organization.id}`, {
          headers: { authorization: `Bearer ${bearer}` },
        });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) {
        statuses.push((await get(i % 2 === 0 ? env.stack.baseUrl : second.baseUrl, token)).status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);

      const limited = await get(env.stack.baseUrl, token);
      expect(limited.status).toBe(429);
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(await limited.json()).toEqual({
        error: 'TooManyRequests',
        detail: 'Rate limit of 5 requests per minute exceeded.',
      });

      const fresh = await get(env.stack.baseUrl, other);
      expect(fresh.status).toBe(200);
      expect(fresh.headers.get('x-ratelimit-remaining')).toBe('4');
    } finally {
      await second.stop();
    }
  });
  it('grants concurrent reservations no more than the limit in all, and takes back what is released', async () => {
    const db = env.database.db;
    const key = `token:${randomUUID()}`;
    const options = { requested: 3, limit: 100, windowSeconds: 60 };
    const reservations = await Promise.all(
      Array.from({ length: 50 }, () => reserveRequests(db, key, options)),
    );
    expect(reservations.reduce((sum, reservation) => sum + reservation.granted, 0)).toBe(100);
    expect(new Set(reservations.map((reservation) => reservation.windowStart.getTime())).size).toBe(1);
    const windowStart = reservations[0]!.windowStart;

    await releaseRequests(db, key, windowStart, 7);
    expect(await reserveRequests(db, key, { ...options, requested: 10 })).toMatchObject({
      granted: 7,
      count: 100,
    });
    // A release for a window that ended changes nothing.
    await releaseRequests(db, key, new Date(windowStart.getTime() - 60_000), 50);
    expect((await reserveRequests(db, key, options)).granted).toBe(0);
  });
});

describe('housekeeping', () => {
  const env = useTestStack();

  it('the housekeeping workflow deletes idempotency keys older than 24 hours and idle rate-limit counters, and keeps the rest', async () => {
    const old = new Date(Date.now() - 25 * 60 * 60 * 1000);
    const row = { callerKey: 'token:housekeeping', method: 'POST', path: '/v1/x', requestHash: 'h' };
    await env.database.db.idempotencyKey.createMany({
      data: [
        { ...row, key: 'expired', createdAt: old },
        { ...row, key: 'recent' },
      ],
    });
    await env.database.db.apiRateLimit.createMany({
      data: [
        { key: 'ip:checkout:203.0.113.9', windowStart: new Date(Date.now() - 2 * 60 * 60 * 1000), count: 3 },
        { key: 'ip:checkout:203.0.113.10', windowStart: new Date(Date.now() - 30_000), count: 3 },
        // Being created right now by reserveRequests: not idle, only new.
        { key: 'ip:checkout:203.0.113.11', windowStart: new Date(0), count: 0 },
      ],
    });
    const result = await env.stack.temporal.workflow.execute('housekeepingWorkflow', {
      taskQueue: taskQueues(env.stack.taskQueuePrefix).main,
      workflowId: `housekeeping-test:${randomUUID()}`,
    });
    expect(result).toEqual({ idempotencyKeysDeleted: 1, rateLimitCountersDeleted: 1 });
    const counters = await env.database.db.apiRateLimit.findMany({
      where: { key: { startsWith: 'ip:checkout:203.0.113.' } },
      orderBy: { key: 'asc' },
    });
    expect(counters.map((counter) => counter.key)).toEqual([
      'ip:checkout:203.0.113.10',
      'ip:checkout:203.0.113.11',
    ]);
    const keys = await env.database.db.idempotencyKey.findMany({
      where: { callerKey: 'token:housekeeping' },
    });
    expect(keys.map((key) => key.key)).toEqual(['recent']);
  });
});
