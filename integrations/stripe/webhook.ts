// POST /v1/integrations/stripe/webhook: Stripe's events, verified against the raw body with the
// endpoint's signing secret, turned into ProcessorEvents and handed to the workflows through the
// same ingest path as the sandbox's (domain/payments/events.ts). Not a Polar operation: mounted by
// the app ahead of the /v1 router, so no bearer token, rate limit or JSON parser runs before it.
import express, { Router, type Response } from 'express';
import type Stripe from 'stripe';
import type { Db } from '../../infra/db.js';
import { ingestProcessorEvent } from '../../domain/payments/events.js';
import type { ProcessorEventSink } from '../../domain/payments/processor.js';
import { stripeEventToProcessorEvent } from './mapping.js';

/** Spec §7: incoming webhook signatures are verified with a timestamp tolerance of 300 seconds. */
export const STRIPE_WEBHOOK_TOLERANCE_SECONDS = 300;

export type StripeWebhookDeps = {
  db: Db;
  /** The endpoint's signing secret (`whsec_…`, STRIPE_WEBHOOK_SECRET). */
  webhookSecret: string;
  sink: ProcessorEventSink;
};

/** `t=<unix seconds>` of a Stripe-Signature header; null when it has none. */
function signedTimestamp(header: string): number | null {
  const match = /(?:^|,)\s*t=(\d+)\s*(?:,|$)/.exec(header);
  return match ? Number(match[1]) : null;
}

function reject(res: Response, detail: string) {
  res.status(400).json({ error: 'WebhookVerificationFailed', detail });
}

export function createStripeWebhookRouter(deps: StripeWebhookDeps): Router {
  const router = Router();
  // The signature covers the bytes Stripe sent, so the body stays raw, whatever its content type.
  router.post('/webhook', express.raw({ type: () => true, limit: '1mb' }), async (req, res) => {
    const header = req.get('stripe-signature');
    if (!header) return reject(res, 'Missing Stripe-Signature header.');
    const timestamp = signedTimestamp(header);
    if (timestamp === null) return reject(res, 'Malformed Stripe-Signature header: no timestamp.');
    // Both directions (spec §8: "timestamp too old or too new"); Stripe's SDK checks only age.
    const age = Math.floor(Date.now() / 1000) - timestamp;
    if (age > STRIPE_WEBHOOK_TOLERANCE_SECONDS) {
      return reject(res, `Webhook timestamp is more than ${STRIPE_WEBHOOK_TOLERANCE_SECONDS} seconds old.`);
    }
    if (-age > STRIPE_WEBHOOK_TOLERANCE_SECONDS) {
      return reject(
        res,
        `Webhook timestamp is more than ${STRIPE_WEBHOOK_TOLERANCE_SECONDS} seconds in the future.`,
      );
    }

    const body: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    // Loaded with the first event: the SDK costs ~0.1 s at every load of the API, which sandbox
    // deployments and most test files pay for nothing.
    const { default: StripeSdk } = await import('stripe');
    let event: Stripe.Event;
    try {
      event = StripeSdk.webhooks.constructEvent(
        body,
        header,
        deps.webhookSecret,
        STRIPE_WEBHOOK_TOLERANCE_SECONDS,
      );
    } catch (error) {
      if (error instanceof StripeSdk.errors.StripeSignatureVerificationError) {
        return reject(res, 'No signature in the Stripe-Signature header matches the payload.');
      }
      // Verified, yet not JSON: only someone holding the secret could send it; still a bad request.
      if (error instanceof SyntaxError) return reject(res, 'The payload is not JSON.');
      throw error;
    }

    const processorEvent = stripeEventToProcessorEvent(event);
    if (!processorEvent) {
      res.json({ received: true, ignored: true });
      return;
    }
    // A sink failure propagates as a 500: Stripe re-sends the event, which is still undelivered.
    const outcome = await ingestProcessorEvent(deps.db, 'stripe', processorEvent, deps.sink);
    res.json({ received: true, duplicate: outcome === 'duplicate' });
  });
  return router;
}
