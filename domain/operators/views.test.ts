import { describe, expect, it } from '@jest/globals';
import { describeEntityRun, describeSystemRun, plainText } from './views.js';

const dashboardUrl = 'https://pay.example.test/dashboard/checkouts';

describe('describeEntityRun (the summary and details of a run in the Temporal UI)', () => {
  it('names a checkout’s product, buyer and organization', () => {
    const run = describeEntityRun(
      {
        kind: 'checkout',
        id: 'c0ffee00-0000-4000-8000-000000000001',
        organizationName: 'Acme',
        productName: 'Pro plan',
        recurringInterval: 'month',
        buyerEmail: 'buyer@example.com',
        totalAmount: 1600,
        currency: 'usd',
        expiresAtMs: Date.parse('2026-11-28T11:00:00Z'),
      },
      { dashboardUrl },
    );
    expect(run.summary).toBe('Checkout for Pro plan by buyer@example.com — Acme');
    expect(run.details).toContain('- Due at checkout: $16.00, then the plan renews monthly');
    expect(run.details).toContain('- Expires: 2026-11-28T11:00:00Z');
    expect(run.details).toContain(`- Dashboard: ${dashboardUrl}`);
  });

  it('says a checkout’s buyer is not known before they give their email', () => {
    const run = describeEntityRun(
      {
        kind: 'checkout',
        id: 'c0ffee00-0000-4000-8000-000000000001',
        organizationName: 'Acme',
        productName: 'Guide',
        recurringInterval: null,
        buyerEmail: null,
        totalAmount: 1000,
        currency: 'eur',
        expiresAtMs: Date.parse('2026-11-28T11:00:00Z'),
      },
      { dashboardUrl },
    );
    expect(run.summary).toBe('Checkout for Guide — Acme');
    expect(run.details).toContain('- Buyer: not known yet');
    expect(run.details).toContain('- Due at checkout: €10.00\n');
  });

  it('names a subscription’s plan, interval and customer', () => {
    const run = describeEntityRun(
      {
        kind: 'subscription',
        id: 's',
        organizationName: 'Acme',
        productName: 'Pro plan',
        recurringInterval: 'year',
        customerEmail: 'buyer@example.com',
        startedAtMs: Date.parse('2026-11-28T10:00:00.120Z'),
      },
      { dashboardUrl },
    );
    expect(run.summary).toBe('Subscription to Pro plan (yearly) of buyer@example.com — Acme');
    expect(run.details).toContain('- Started: 2026-11-28T10:00:00Z');
  });

  it('tells a webhook endpoint’s first attempts from one resource’s retries', () => {
    const facts = {
      kind: 'webhook_delivery' as const,
      endpointId: 'e',
      organizationName: 'Acme',
      url: 'https://hooks.example.com/polar',
    };
    expect(describeEntityRun(facts, { dashboardUrl }).summary).toBe(
      'Webhook first attempts to https://hooks.example.com/polar — Acme',
    );
    expect(describeEntityRun(facts, { dashboardUrl, resourceId: 'r-1' }).summary).toBe(
      'Webhook retries to https://hooks.example.com/polar about r-1 — Acme',
    );
  });

  it('keeps what sellers and buyers typed on one line, literal and short', () => {
    expect(plainText('**Big**\n<b>sale</b>')).toBe('\\*\\*Big\\*\\* \\<b\\>sale\\</b\\>');
    expect(plainText('x'.repeat(200))).toHaveLength(80);
    const run = describeEntityRun(
      {
        kind: 'invitation',
        id: 'i',
        organizationName: 'Acme_Labs',
        email: 'ada@example.com',
        role: null,
        inviterName: 'Grace',
        expiresAtMs: 0,
      },
      { dashboardUrl },
    );
    expect(run.summary).toBe('Invitation of ada@example.com to Acme\\_Labs as member');
  });

  it('describes the deployment-wide workflows, and nothing else without an entity', () => {
    expect(describeSystemRun('webhook_dispatcher')?.summary).toBe(
      'Webhook outbox dispatcher — whole deployment',
    );
    expect(describeSystemRun('checkout')).toBeNull();
  });
});
