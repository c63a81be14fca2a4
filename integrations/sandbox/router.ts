import express, { Router, type RequestHandler } from 'express';
import type { Db } from '../../infra/db.js';
import type { ProcessorEventSink } from '../../domain/payments/processor.js';
import { PaymentProcessorError } from '../../domain/payments/errors.js';
import { authenticateSandboxPayment, createSandboxConfirmationToken } from './processor.js';
import {
  sandboxAuthenticationResultSchema,
  sandboxAuthenticationSchema,
  sandboxConfirmationTokenCreateSchema,
  sandboxConfirmationTokenSchema,
} from '../../domain/payments/schemas.js';
import { AppError, invalidInputFromZod } from '../../domain/platform/errors.js';

/**
 * What Stripe.js and Stripe's servers do for the hosted page in live mode, done by us in sandbox
 * mode: the card form's ConfirmationToken and the test 3-D Secure page's answer. Served only in
 * sandbox mode; the buyer's page holds the payment's client secret, which is the only credential
 * (as with Stripe). Tokens are made without a caller, as Stripe.js makes them with a publishable
 * key: `perClient` is the budget every buyer's address has.
 */
export function createSandboxRouter(deps: {
  db: Db;
  sink: ProcessorEventSink;
  perClient: RequestHandler;
}): Router {
  const router = Router();
  router.post('/confirmation-tokens', deps.perClient, express.json({ limit: '4kb' }), async (req, res) => {
    const parsed = sandboxConfirmationTokenCreateSchema.safeParse(req.body);
    if (!parsed.success) throw invalidInputFromZod(parsed.error, 'body');
    const token = await createSandboxConfirmationToken(deps.db, parsed.data, new Date());
    res.status(201).json(sandboxConfirmationTokenSchema.parse(token));
  });
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
