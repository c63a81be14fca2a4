import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signature: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`. The key is
 * the secret's UTF-8 bytes: `validateEvent` of `@polar-sh/sdk/webhooks` base64-encodes the secret
 * text it is given before handing it to `standardwebhooks`, which decodes it back to those bytes.
 */
export function signWebhook(input: { id: string; timestampSeconds: number; body: string; secret: string }) {
  const signature = createHmac('sha256', Buffer.from(input.secret, 'utf8'))
    .update(`${input.id}.${input.timestampSeconds}.${input.body}`)
    .digest('base64');
  return `v1,${signature}`;
}

export function webhookHeaders(input: {
  id: string;
  timestampSeconds: number;
  body: string;
  secret: string;
  /** The version the body is rendered in, as Polar names it on every delivery. */
  apiVersion: string;
}) {
  return {
    'content-type': 'application/json',
    'user-agent': 'Tollgate-Webhooks',
    'webhook-id': input.id,
    'webhook-timestamp': String(input.timestampSeconds),
    'webhook-signature': signWebhook(input),
    'webhook-api-version': input.apiVersion,
  };
}

/**
 * A secret for an endpoint created without one. Not `whsec_`-prefixed on purpose: Polar's SDK keys
 * the HMAC with the secret's text, while a Standard Webhooks library would strip `whsec_` and
 * base64-decode the rest, and the two would disagree.
 */
export function generateWebhookSecret(): string {
  return `tollgate_whs_${randomBytes(32).toString('base64url')}`;
}
