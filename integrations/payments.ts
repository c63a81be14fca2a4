// Which processor and tax calculator a deployment runs: sandbox mode without a Stripe key, Stripe
// (and Stripe Tax) with one (DESIGN.md, "Payment processing"; never both in one deployment).
import type { Config } from '../config/config.js';
import type { Db } from '../infra/db.js';
import type { TaxCalculator } from '../domain/tax/calculator.js';
import type { PaymentProcessor, ProcessorEventSink } from '../domain/payments/processor.js';
import { createSandboxProcessor } from './sandbox/processor.js';
import { createStripeClient, createStripeProcessor } from './stripe/processor.js';
import { createStripeTaxCalculator } from './stripe/tax.js';

export type PaymentsConfig = Pick<Config, 'isSandbox' | 'STRIPE_SECRET_KEY' | 'STRIPE_API_BASE'>;

function stripeClientFor(config: PaymentsConfig) {
  if (config.isSandbox || !config.STRIPE_SECRET_KEY) {
    throw new Error('Stripe is not configured: STRIPE_SECRET_KEY is not set (sandbox mode)');
  }
  return createStripeClient({ secretKey: config.STRIPE_SECRET_KEY, apiBase: config.STRIPE_API_BASE });
}

export function createPaymentProcessor(
  config: PaymentsConfig,
  deps: { db: Db; sink: ProcessorEventSink },
): PaymentProcessor {
  return config.isSandbox
    ? createSandboxProcessor(deps)
    : createStripeProcessor({ stripe: stripeClientFor(config) });
}

/** Stripe Tax; only with the Stripe processor on (throws in sandbox mode). */
export function createStripeTax(config: PaymentsConfig): TaxCalculator {
  return createStripeTaxCalculator({ stripe: stripeClientFor(config) });
}
