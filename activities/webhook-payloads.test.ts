import { describe, expect, it } from '@jest/globals';
import { API_VERSIONS } from '../domain/platform/api-versions.js';
import { SENT_WEBHOOK_EVENT_TYPES } from '../domain/webhook-outbox/schemas.js';
import { renderWebhookData, WEBHOOK_DATA_SCHEMAS } from './webhook-payloads.js';

// The rendering of real payloads in each version is proven end to end by
// api/v1/webhook-versions.int.test.ts; these are the table's own promises.
describe('renderWebhookData', () => {
  it('knows the wire schema of every event type Tollgate sends', () => {
    expect(SENT_WEBHOOK_EVENT_TYPES.filter((type) => !WEBHOOK_DATA_SCHEMAS[type])).toEqual([]);
  });

  it('sends the recorded data itself where the version shows the resource as recorded', () => {
    const organization = { id: '8d0c5a52-3f0e-4c43-9d5b-7b0f3c2a1e10', name: 'Acme' };
    for (const version of API_VERSIONS) {
      expect(renderWebhookData('organization.updated', organization, version)).toBe(organization);
    }
  });

  it('sends a payload its schema refuses as recorded, rather than holding back the events after it', () => {
    const unexpected = { id: 'not-a-product', prices: [{ amount_type: 'free' }] };
    expect(renderWebhookData('product.created', unexpected, '2026-04')).toBe(unexpected);
  });
});
