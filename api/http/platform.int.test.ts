import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import express from 'express';
import { createLogger } from '../../infra/logger.js';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';
import { createErrorHandler } from './errors.js';
import { requestContext } from './request-context.js';
import { drainServer } from './shutdown.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function listen(app: express.Express): Promise<{ server: Server; baseUrl: string }> {
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('HTTP platform', () => {
  const env = useTestStack({ withWorker: false });

  describe('GET /api/auth/ok', () => {
    it('answers ok true', async () => {
      const response = await fetch(`${env.stack.baseUrl}/api/auth/ok`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ ok: true });
    });
  });

  describe('GET /api/auth/error', () => {
    it('shows the error code it was given', async () => {
      const response = await fetch(`${env.stack.baseUrl}/api/auth/error?error=state_not_found`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(await response.text()).toContain('<code id="error-code">state_not_found</code>');
    });

    it('escapes markup in the error code', async () => {
      const response = await fetch(
        `${env.stack.baseUrl}/api/auth/error?error=${encodeURIComponent('<script>x</script>')}`,
      );
      const html = await response.text();
      expect(html).not.toContain('<script>');
      expect(html).toContain('&#60;script&#62;');
    });

    it('rejects an over-long error code with a 422 naming the parameter', async () => {
      const response = await fetch(`${env.stack.baseUrl}/api/auth/error?error=${'x'.repeat(201)}`);
      expect(response.status).toBe(422);
      const body = (await response.json()) as { detail: { loc: string[]; type: string }[] };
      expect(body.detail[0]?.loc).toEqual(['query', 'error']);
    });
  });

  describe('/v1 errors', () => {
    it('answers an unknown route with ResourceNotFound for an authenticated caller', async () => {
      const organization = await createOrganization(env.database.db);
      const token = await createAccessToken(env.database.db, organization.id);
      const response = await fetch(`${env.stack.baseUrl}/v1/no-such-resource/`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
    });

    it('answers an anonymous caller with Unauthorized before routing', async () => {
      const response = await fetch(`${env.stack.baseUrl}/v1/no-such-resource/`);
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error: string }).error).toBe('Unauthorized');
    });

    it('answers a malformed JSON body with a 422 in the validation shape', async () => {
      // Bodies are read once the caller is known (an anonymous one is refused before).
      const organization = await createOrganization(env.database.db);
      const token = await createAccessToken(env.database.db, organization.id);
      const response = await fetch(`${env.stack.baseUrl}/v1/no-such-resource/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: '{"name": ',
      });
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual({
        detail: [{ loc: ['body'], msg: 'Request body is not valid JSON.', type: 'json_invalid' }],
      });
    });

    it('answers an oversized body with PayloadTooLarge', async () => {
      // Bodies are read once the caller is known (an anonymous one is refused before).
      const organization = await createOrganization(env.database.db);
      const token = await createAccessToken(env.database.db, organization.id);
      const response = await fetch(`${env.stack.baseUrl}/v1/no-such-resource/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ blob: 'x'.repeat(1_100_000) }),
      });
      expect(response.status).toBe(413);
      expect(((await response.json()) as { error: string }).error).toBe('PayloadTooLarge');
    });
  });

  describe('request ids', () => {
    it('generates a UUID request id when the caller sends none', async () => {
      const response = await fetch(`${env.stack.baseUrl}/healthz`);
      expect(response.headers.get('x-request-id')).toMatch(UUID);
    });

    it("echoes a caller's well-formed request id and replaces a malformed one", async () => {
      const echoed = await fetch(`${env.stack.baseUrl}/healthz`, {
        headers: { 'x-request-id': 'proxy-123.abc' },
      });
      expect(echoed.headers.get('x-request-id')).toBe('proxy-123.abc');
      const replaced = await fetch(`${env.stack.baseUrl}/healthz`, {
        headers: { 'x-request-id': 'bad id<>' },
      });
      expect(replaced.headers.get('x-request-id')).toMatch(UUID);
    });
  });

  describe('unexpected errors', () => {
    it('answer 500 with the request id and no internals', async () => {
      const app = express();
      const logger = createLogger({ level: 'silent', name: 'test' });
      app.use(requestContext(logger));
      app.get('/boom', () => {
        throw new Error('secret connection string postgres://user:pw@db');
      });
      app.use(createErrorHandler(logger));
      const { server, baseUrl } = await listen(app);
      try {
        const response = await fetch(`${baseUrl}/boom`);
        const text = await response.text();
        expect(response.status).toBe(500);
        const body = JSON.parse(text) as { error: string; request_id: string };
        expect(body.error).toBe('InternalServerError');
        expect(body.request_id).toBe(response.headers.get('x-request-id'));
        expect(text).not.toContain('secret');
        expect(text).not.toContain('at ');
      } finally {
        server.close();
      }
    });
  });

  describe('drainServer', () => {
    it('lets an in-flight request finish and refuses new connections', async () => {
      const app = express();
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      let markStarted: () => void = () => undefined;
      const started = new Promise<void>((resolve) => (markStarted = resolve));
      app.get('/slow', async (_req, res) => {
        markStarted();
        await released;
        res.json({ finished: true });
      });
      const { server, baseUrl } = await listen(app);

      const inFlight = fetch(`${baseUrl}/slow`);
      await started;
      const drained = drainServer(server, 10_000);
      await expect(fetch(`${baseUrl}/slow`)).rejects.toThrow();
      release();
      const response = await inFlight;
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ finished: true });
      await drained;
      expect(server.listening).toBe(false);
    });

    it('cuts connections that outlive the grace period', async () => {
      const app = express();
      app.get('/stuck', () => undefined);
      const { server, baseUrl } = await listen(app);
      const stuck = fetch(`${baseUrl}/stuck`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      let forced = false;
      await drainServer(server, 200, () => (forced = true));
      expect(forced).toBe(true);
      await expect(stuck).rejects.toThrow();
    });
  });
});
