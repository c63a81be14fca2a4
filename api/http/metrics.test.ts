import type { AddressInfo } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import express from 'express';
import {
  createApiMetrics,
  methodLabel,
  metricsHandler,
  operationLabel,
  recordRequests,
  statusClass,
} from './metrics.js';

describe('metric labels', () => {
  it('uses the operationId when a payments API operation answered', () => {
    expect(operationLabel('/v1/orders/0d9f1c1e-1111-4a4a-9999-000000000000', 'orders:get')).toBe(
      'orders:get',
    );
  });

  it('puts every other path in a fixed group, never the path itself', () => {
    expect(operationLabel('/v1/orders/0d9f1c1e-1111-4a4a-9999-000000000000', undefined)).toBe('v1_other');
    expect(operationLabel('/api/auth/sign-in/email', undefined)).toBe('auth');
    expect(operationLabel('/healthz', undefined)).toBe('health');
    expect(operationLabel('/metrics', undefined)).toBe('metrics');
    expect(operationLabel('/v1/integrations/stripe/webhook', undefined)).toBe('integrations');
    expect(operationLabel('/api/dev/mailbox', undefined)).toBe('api_other');
    expect(operationLabel('/dashboard/acme/orders/123', undefined)).toBe('web');
    expect(operationLabel('/x', 'has spaces and ; quotes"')).toBe('web');
  });

  it('bounds methods and status classes', () => {
    expect(methodLabel('PROPFIND')).toBe('other');
    expect(methodLabel('GET')).toBe('GET');
    expect(statusClass(201)).toBe('2xx');
    expect(statusClass(503)).toBe('5xx');
    expect(statusClass(999)).toBe('other');
  });
});

describe('GET /metrics', () => {
  async function serve(token: string | undefined) {
    const metrics = createApiMetrics();
    const app = express();
    app.use(recordRequests(metrics));
    app.get('/metrics', metricsHandler(metrics, token));
    app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    return { base: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(resolve)) };
  }

  it('refuses a scrape without the token and counts requests with it', async () => {
    const { base, close } = await serve('a-long-enough-metrics-token');
    try {
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(
        401,
      );
      await fetch(`${base}/healthz`);
      const response = await fetch(`${base}/metrics`, {
        headers: { authorization: 'Bearer a-long-enough-metrics-token' },
      });
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toMatch(
        /tollgate_http_requests_total\{operation="health",method="GET",status_class="2xx"\} 1/,
      );
      expect(text).toMatch(
        /tollgate_http_requests_total\{operation="metrics",method="GET",status_class="4xx"\} 2/,
      );
      expect(text).toContain('tollgate_nodejs_eventloop_lag_seconds');
    } finally {
      await close();
    }
  });
});
