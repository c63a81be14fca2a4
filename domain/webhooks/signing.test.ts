import { describe, expect, it } from '@jest/globals';
import { validateEvent, WebhookVerificationError } from '@polar-sh/sdk/webhooks';
import { formatWebhookBody } from './rules.js';
import { generateWebhookSecret, signWebhook, webhookHeaders } from './signing.js';

const organization = {
  created_at: '2026-11-22T08:00:00.000Z',
  modified_at: null,
  id: '6f1a3f3e-2f7c-4b0e-9a8e-3c1d2b4a5f60',
  name: 'Acme',
  slug: 'acme',
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
const body = formatWebhookBody(
  'raw',
  {
    type: 'organization.updated',
    timestamp: '2026-11-22T08:00:00.000Z',
    data: organization,
  },
  '2026-10',
);
const now = () => Math.floor(Date.now() / 1000);

describe('webhook signing', () => {
  it('signs "<id>.<timestamp>.<body>" with HMAC-SHA256 keyed by the secret text (vector from the standardwebhooks library)', () => {
    expect(
      signWebhook({
        id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
        timestampSeconds: 1614265330,
        body: '{"test": 2432232314}',
        secret: 'tollgate_whs_test-secret',
      }),
    ).toBe('v1,e+vOeqPKU0Q6eY1gTzNggSweNUTCw5E6U7Rw3tFqvQY=');
  });

  it("is accepted by the Polar SDK's validateEvent, which returns the typed event", () => {
    const secret = generateWebhookSecret();
    const headers = webhookHeaders({
      id: 'evt-1',
      timestampSeconds: now(),
      body,
      secret,
      apiVersion: '2026-10',
    });
    const event = validateEvent(body, headers, secret);
    expect(event.type).toBe('organization.updated');
    expect(event.data).toMatchObject({ id: organization.id, name: 'Acme' });
  });

  it('is refused with another secret, a changed body, or a timestamp older than 300 s (spec §9)', () => {
    const secret = generateWebhookSecret();
    const headers = webhookHeaders({
      id: 'evt-1',
      timestampSeconds: now(),
      body,
      secret,
      apiVersion: '2026-10',
    });
    expect(() => validateEvent(body, headers, generateWebhookSecret())).toThrow(WebhookVerificationError);
    expect(() => validateEvent(body.replace('Acme', 'Evil'), headers, secret)).toThrow(
      WebhookVerificationError,
    );
    const old = webhookHeaders({
      id: 'evt-1',
      timestampSeconds: now() - 301,
      body,
      secret,
      apiVersion: '2026-10',
    });
    expect(() => validateEvent(body, old, secret)).toThrow('Message timestamp too old');
  });

  it('generates distinct secrets without the whsec_ prefix', () => {
    const [a, b] = [generateWebhookSecret(), generateWebhookSecret()];
    expect(a).not.toBe(b);
    expect(a).toMatch(/^tollgate_whs_[A-Za-z0-9_-]{43}$/);
  });
});
