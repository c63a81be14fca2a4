import express, { Router } from 'express';
import type { Db } from '../../infra/db.js';
import type { ProcessorEventSink } from '../../domain/payments/processor.js';
import { PaymentProcessorError } from '../../domain/payments/errors.js';
import { authenticateSandboxPayment } from './processor.js';
import {
  sandboxAuthenticationResultSchema,
  sandboxAuthenticationSchema,
} from '../../domain/payments/schemas.js';
import { AppError, invalidInputFromZod } from '../../domain/platform/errors.js';

/**
 * What Stripe.js and Stripe's servers do for the hosted page in live mode, done by us in sandbox
 * mode: the test 3-D Secure page's answer. Served only in sandbox mode; the buyer's page holds the
 * payment's client secret, which is the only credential (as with Stripe).
 */
export function createSandboxRouter(deps: { db: Db; sink: ProcessorEventSink }): Router {
  const router = Router();
  router.post('/payments/authenticate', express.json({ limit: '4kb' }), async (req, res) => {
    const parsed = sandboxAuthenticationSchema.safeParse(req.body);
    if (!parsed.success) throw invalidInputFromZod(parsed.error, 'body');
    const { client_secret: clientSecret, outcome } = parsed.data;
    const paymentId = clientSecret.slice(0, clientSecret.indexOf('_secret_'));
    try {
      const result = await authenticateSandboxPayment(deps, { paymentId, clientSecret, outcome });
      res.json(sandboxAuthenticationResultSchema.parse({ status: result.status }));
    } catch (error) {
      if (error instanceof PaymentProcessorError && error.code === 'resource_missing') {
        throw new AppError('ResourceNotFound', 'Payment not found');
      }
      throw error;
    }
  });
  return router;
}
