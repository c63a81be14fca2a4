// The built-in processor of sandbox mode (no Stripe key): Stripe's test mode, reproduced on our own
// tables so the whole flow runs offline. Test PaymentMethod ids decide outcomes (rules.ts); every
// request is idempotent by key as Stripe's are (same key, same parameters: the first answer again;
// other parameters: refused); every outcome is also reported as a ProcessorEvent through the same
// ingest path as Stripe's webhooks, under an event id stored with the outcome, so a retried request
// reports it again and the ingest path drops the duplicate.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../infra/db.js';
import { PaymentProcessorError } from '../../domain/payments/errors.js';
import { ingestProcessorEvent } from '../../domain/payments/events.js';
import {
  paymentRouteOf,
  type OffSessionPaymentInput,
  type OffSessionPaymentResult,
  type PaymentInput,
  type SetupInput,
  type PaymentProcessor,
  type PaymentResult,
  type ProcessorCustomerInput,
  type ProcessorEvent,
  type ProcessorEventSink,
  type RefundInput,
  type RefundResult,
} from '../../domain/payments/processor.js';
import {
  sandboxCustomerExists,
  findSandboxConfirmationToken,
  findSandboxCustomerByKey,
  findSandboxPayment,
  findSandboxPaymentByKey,
  findSandboxRefundByKey,
  insertSandboxConfirmationToken,
  insertSandboxCustomer,
  insertSandboxPayment,
  insertSandboxRefund,
  lockSandboxPayment,
  sumSandboxRefunds,
  type SandboxPaymentRow,
  type SandboxRefundRow,
  updateSandboxPayment,
} from './repository.js';
import {
  DECLINE_MESSAGES,
  SANDBOX_DISPUTE_DELAY_MS,
  SANDBOX_DISPUTE_REASON,
  SANDBOX_REFUND_FAILURE_REASON,
  sandboxCardExpiry,
  sandboxOffSessionOutcome,
  sandboxPaymentOutcome,
} from '../../domain/payments/rules.js';
import type {
  SandboxConfirmationToken,
  SandboxConfirmationTokenCreate,
} from '../../domain/payments/schemas.js';
import { expiryDateError, testCardFor } from '../../domain/payments/test-cards.js';
import { InvalidFieldError } from '../../domain/platform/errors.js';

export type SandboxProcessorDeps = { db: Db; sink: ProcessorEventSink };

const sandboxId = (prefix: 'cus' | 'pi' | 'seti' | 're' | 'evt' | 'ctoken') =>
  `${prefix}_sbx_${randomBytes(12).toString('hex')}`;

/** Key order must not matter: the same parameters always hash alike. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const requestHash = (operation: string, params: Record<string, unknown>) =>
  createHash('sha256').update(operation).update('\n').update(canonicalJson(params)).digest('hex');

function assertSameRequest(row: { requestHash: string }, hash: string, idempotencyKey: string) {
  if (row.requestHash !== hash) {
    throw new PaymentProcessorError(
      'idempotency_error',
      `Idempotency key '${idempotencyKey}' was first used with other parameters; use another key for a different request.`,
      'permanent',
    );
  }
}

/** As Stripe: a payment for a customer it does not know is refused before anything is made. */
async function assertSandboxCustomer(db: Db, id: string) {
  if (!(await sandboxCustomerExists(db.sql, id))) {
    throw new PaymentProcessorError('resource_missing', `No such customer: '${id}'`, 'permanent');
  }
}

function assertAmount(amount: number) {
  if (!Number.isSafeInteger(amount) || amount < 1) {
    throw new PaymentProcessorError(
      'parameter_invalid_integer',
      `Invalid amount: ${amount} (a positive integer of minor units).`,
      'permanent',
    );
  }
}

function paymentResult(row: SandboxPaymentRow): PaymentResult {
  if (row.status === 'requires_action' && row.clientSecret) {
    return { status: 'requires_action', paymentId: row.id, clientSecret: row.clientSecret };
  }
  const outcome = row.offSession
    ? sandboxOffSessionOutcome(row.paymentMethod)
    : sandboxPaymentOutcome(row.paymentMethod);
  const settled = outcome?.status === 'requires_action' ? outcome.authenticated : outcome;
  if (row.status === 'succeeded' && settled?.status === 'succeeded') {
    return { status: 'succeeded', paymentId: row.id, paymentMethod: settled.paymentMethod };
  }
  if (row.status === 'canceled') {
    return {
      status: 'failed',
      paymentId: row.id,
      declineCode: 'canceled',
      message: 'The payment was canceled.',
    };
  }
  const card = testCardFor(row.paymentMethod);
  return {
    status: 'failed',
    paymentId: row.id,
    declineCode: row.declineCode ?? 'generic_decline',
    message: row.failureMessage ?? 'Your card was declined.',
    paymentMethod: card ? { brand: card.brand, last4: card.number.slice(-4) } : null,
  };
}

/**
 * The event Stripe would send for this payment once it ended; none while it waits for the buyer,
 * once canceled (nobody listens for that), or without a checkout or a customer's payment of an
 * order to route it to (a renewal's charge answers at once).
 */
function paymentEvent(row: SandboxPaymentRow): ProcessorEvent | null {
  const route = paymentRouteOf(row.metadata as Record<string, string>);
  if (!route || row.status === 'canceled') return null;
  const result = paymentResult(row);
  const common = { id: row.eventId, occurredAt: row.createdAt.toISOString() };
  switch (result.status) {
    case 'succeeded':
      return 'checkoutId' in route
        ? {
            ...common,
            ...route,
            type: 'payment.succeeded',
            paymentId: row.id,
            paymentMethod: result.paymentMethod,
          }
        : {
            ...common,
            ...route,
            type: 'order_payment.succeeded',
            paymentId: row.id,
            paymentMethod: result.paymentMethod,
          };
    case 'failed': {
      const failure = { paymentId: row.id, declineCode: result.declineCode, message: result.message };
      return 'checkoutId' in route
        ? { ...common, ...route, ...failure, type: 'payment.failed' }
        : { ...common, ...route, ...failure, type: 'order_payment.failed' };
    }
    default:
      return null;
  }
}

/** The sandbox's dispute of a payment: one per payment, named after it. */
const sandboxDisputeId = (paymentId: string) => paymentId.replace(/^pi_sbx_/, 'dp_sbx_');

/**
 * The dispute Stripe's `pm_card_createDispute` card gets: opened as fraudulent for the whole amount
 * a few seconds after the payment succeeded. Reported with the payment under an id derived from the
 * payment's event, so reporting the payment again reports the same dispute; the dispute's workflow
 * waits until `occurredAt` before recording it.
 */
function disputeEvent(row: SandboxPaymentRow): ProcessorEvent | null {
  if (row.status !== 'succeeded' || row.amount === 0 || !row.id.startsWith('pi_sbx_')) return null;
  const outcome = sandboxPaymentOutcome(row.paymentMethod);
  if (outcome?.status !== 'succeeded' || !outcome.disputed) return null;
  return {
    id: `${row.eventId}_dispute`,
    type: 'dispute.updated',
    occurredAt: new Date(row.createdAt.getTime() + SANDBOX_DISPUTE_DELAY_MS).toISOString(),
    processorDisputeId: sandboxDisputeId(row.id),
    processorPaymentId: row.id,
    status: 'needs_response',
    amount: row.amount,
    currency: row.currency,
    reason: SANDBOX_DISPUTE_REASON,
    // Nobody argues a sandbox dispute: it asks for no evidence.
    evidenceDueBy: null,
  };
}

function refundResult(row: SandboxRefundRow): RefundResult {
  return { status: row.status === 'pending' ? 'pending' : 'succeeded', processorRefundId: row.id };
}

function refundEvent(row: SandboxRefundRow): ProcessorEvent | null {
  const refundId = (row.metadata as Record<string, string>).refund_id;
  if (!refundId) return null;
  const common = { id: row.eventId, occurredAt: row.createdAt.toISOString(), refundId };
  return row.failureReason
    ? { ...common, type: 'refund.failed', processorRefundId: row.id, reason: row.failureReason }
    : { ...common, type: 'refund.succeeded', processorRefundId: row.id };
}

/**
 * The test PaymentMethod a confirmation pays with, and the expiry the buyer typed when it came
 * through a ConfirmationToken of the sandbox's card form; a bare test PaymentMethod id (the API's
 * callers, tests) has none. Null for a token the sandbox never made.
 */
async function sandboxCard(
  db: Db,
  paymentMethodOrToken: string,
): Promise<{ paymentMethod: string; expiry: { month: number; year: number } | null } | null> {
  if (!paymentMethodOrToken.startsWith('ctoken_'))
    return { paymentMethod: paymentMethodOrToken, expiry: null };
  const token = await findSandboxConfirmationToken(db, paymentMethodOrToken);
  return (
    token && { paymentMethod: token.paymentMethod, expiry: { month: token.expMonth, year: token.expYear } }
  );
}

/**
 * A sandbox card's fingerprint. The sandbox keeps the test PaymentMethod a card number stands for,
 * not the number, so the fingerprint is of that PaymentMethod: the same test card always gives the
 * same one (as Stripe's fingerprint of a card number), and two numbers of one test PaymentMethod
 * count as one card.
 */
export function sandboxCardFingerprint(paymentMethod: string): string {
  return `fp_sbx_${createHash('sha256').update(`sandbox-card:${paymentMethod}`).digest('hex').slice(0, 16)}`;
}

/** Stripe's answer to a refund it refuses: no refund is created, so nothing is stored or reported. */
const refused = (reason: string): RefundResult => ({ status: 'failed', processorRefundId: null, reason });

export function createSandboxProcessor({ db, sink }: SandboxProcessorDeps): PaymentProcessor {
  const report = async (event: ProcessorEvent | null) => {
    if (event) await ingestProcessorEvent(db, 'sandbox', event, sink);
  };

  /** A payment (`pi`) or a card setup (`seti`), confirmed at once, idempotent by its key. */
  async function confirmIntent(
    kind: 'pi' | 'seti',
    params: {
      amount: number;
      currency: string;
      paymentMethod: string;
      customer: string;
      metadata: Record<string, string>;
      description: string;
      setupFutureUsage: boolean;
    },
    idempotencyKey: string,
  ): Promise<PaymentResult> {
    const hash = requestHash(kind === 'pi' ? 'payment_intents.create' : 'setup_intents.create', params);
    let row = await findSandboxPaymentByKey(db.sql, idempotencyKey);
    if (!row) {
      await assertSandboxCustomer(db, params.customer);
      const card = await sandboxCard(db, params.paymentMethod);
      const outcome = card && sandboxPaymentOutcome(card.paymentMethod);
      if (!card || !outcome) {
        // As Stripe: an unknown PaymentMethod fails the request before any payment exists.
        const source = params.paymentMethod.startsWith('ctoken_') ? 'ConfirmationToken' : 'PaymentMethod';
        return {
          status: 'failed',
          paymentId: null,
          declineCode: 'resource_missing',
          message: `No such ${source}: '${params.paymentMethod}'`,
        };
      }
      const id = sandboxId(kind);
      row = await insertSandboxPayment(db.sql, {
        id,
        idempotencyKey,
        requestHash: hash,
        ...params,
        paymentMethod: card.paymentMethod,
        cardExpMonth: card.expiry?.month ?? null,
        cardExpYear: card.expiry?.year ?? null,
        status: outcome.status,
        clientSecret:
          outcome.status === 'requires_action' ? `${id}_secret_${randomBytes(16).toString('hex')}` : null,
        declineCode: outcome.status === 'failed' ? outcome.declineCode : null,
        failureMessage: outcome.status === 'failed' ? outcome.message : null,
        eventId: sandboxId('evt'),
      });
      row ??= await findSandboxPaymentByKey(db.sql, idempotencyKey);
    }
    if (!row) throw new Error(`sandbox payment ${idempotencyKey} vanished after its insert`);
    assertSameRequest(row, hash, idempotencyKey);
    await report(paymentEvent(row));
    await report(disputeEvent(row));
    return paymentResult(row);
  }

  return {
    name: 'sandbox',

    async ensureCustomer(input: ProcessorCustomerInput) {
      const params = { email: input.email, name: input.name, customerId: input.customerId };
      const hash = requestHash('customers.create', params);
      let row = await findSandboxCustomerByKey(db, input.idempotencyKey);
      if (!row) {
        await insertSandboxCustomer(db, {
          id: sandboxId('cus'),
          idempotencyKey: input.idempotencyKey,
          requestHash: hash,
          ...params,
        });
        row = await findSandboxCustomerByKey(db, input.idempotencyKey);
      }
      if (!row) throw new Error(`sandbox customer ${input.idempotencyKey} vanished after its insert`);
      assertSameRequest(row, hash, input.idempotencyKey);
      return { processorCustomerId: row.id };
    },

    async pay(input: PaymentInput) {
      assertAmount(input.amount);
      return confirmIntent(
        'pi',
        {
          amount: input.amount,
          currency: input.currency.toLowerCase(),
          paymentMethod: input.confirmationTokenId,
          customer: input.processorCustomerId,
          metadata: input.metadata,
          description: input.description,
          setupFutureUsage: input.saveForOffSession,
        },
        input.idempotencyKey,
      );
    },

    async setUpOffSession(input: SetupInput) {
      // Kept beside the payments, as a payment of 0 that saves its card: the test cards decide
      // its outcome alike (a decline, or authentication on the test page), and events route it.
      return confirmIntent(
        'seti',
        {
          amount: 0,
          currency: input.currency.toLowerCase(),
          paymentMethod: input.confirmationTokenId,
          customer: input.processorCustomerId,
          metadata: input.metadata,
          description: input.description,
          setupFutureUsage: true,
        },
        input.idempotencyKey,
      );
    },

    async cancelPayment({ paymentId }) {
      // Canceling is idempotent by nature (a canceled payment stays canceled), so the key is not kept.
      const row = await db.$transaction(async (tx) => {
        const payment = await lockSandboxPayment(tx, paymentId);
        if (!payment) {
          throw new PaymentProcessorError(
            'resource_missing',
            `No such payment_intent: '${paymentId}'`,
            'permanent',
          );
        }
        if (payment.status !== 'requires_action') return payment;
        return updateSandboxPayment(tx, paymentId, { status: 'canceled' });
      });
      return paymentResult(row);
    },

    async savedPaymentMethod({ paymentId }) {
      const payment = await findSandboxPayment(db, paymentId);
      if (!payment || payment.status !== 'succeeded' || !payment.setupFutureUsage) return null;
      const result = paymentResult(payment);
      return {
        paymentMethodId: payment.paymentMethod,
        processorCustomerId: payment.customer,
        summary: result.status === 'succeeded' ? result.paymentMethod : null,
        expiry:
          payment.cardExpMonth !== null && payment.cardExpYear !== null
            ? { month: payment.cardExpMonth, year: payment.cardExpYear }
            : sandboxCardExpiry(payment.createdAt),
        fingerprint: sandboxCardFingerprint(payment.paymentMethod),
      };
    },

    // The sandbox's test cards belong to no customer it keeps, so there is nothing to take off:
    // Tollgate itself stops pointing anything at a deleted card.
    async detachPaymentMethod() {},

    async chargeOffSession(input: OffSessionPaymentInput): Promise<OffSessionPaymentResult> {
      assertAmount(input.amount);
      const params = {
        amount: input.amount,
        currency: input.currency.toLowerCase(),
        paymentMethod: input.paymentMethodId,
        customer: input.processorCustomerId,
        metadata: input.metadata,
        description: input.description,
        offSession: true,
      };
      const hash = requestHash('payment_intents.create', params);
      let row = await findSandboxPaymentByKey(db.sql, input.idempotencyKey);
      if (!row) {
        await assertSandboxCustomer(db, input.processorCustomerId);
        const outcome = sandboxOffSessionOutcome(input.paymentMethodId);
        if (!outcome) {
          return {
            status: 'failed',
            paymentId: null,
            declineCode: 'resource_missing',
            message: `No such PaymentMethod: '${input.paymentMethodId}'`,
          };
        }
        row = await insertSandboxPayment(db.sql, {
          id: sandboxId('pi'),
          idempotencyKey: input.idempotencyKey,
          requestHash: hash,
          ...params,
          status: outcome.status,
          declineCode: outcome.status === 'failed' ? outcome.declineCode : null,
          failureMessage: outcome.status === 'failed' ? outcome.message : null,
          eventId: sandboxId('evt'),
        });
        row ??= await findSandboxPaymentByKey(db.sql, input.idempotencyKey);
      }
      if (!row) throw new Error(`sandbox payment ${input.idempotencyKey} vanished after its insert`);
      assertSameRequest(row, hash, input.idempotencyKey);
      const result = paymentResult(row);
      if (result.status === 'requires_action') {
        throw new Error(`sandbox off-session payment ${row.id} asks for authentication`);
      }
      return result;
    },

    async refund(input: RefundInput) {
      if (input.amount !== null) assertAmount(input.amount);
      const params = {
        paymentId: input.paymentId,
        amount: input.amount,
        currency: input.currency.toLowerCase(),
        metadata: input.metadata,
      };
      const hash = requestHash('refunds.create', params);
      const outcome = await db.$transaction(async (tx) => {
        const earlier = await findSandboxRefundByKey(tx, input.idempotencyKey);
        if (earlier) return earlier;
        const payment = await lockSandboxPayment(tx, input.paymentId);
        if (!payment) return refused('resource_missing');
        // A card setup charged nothing: there is nothing to give back.
        if (payment.amount === 0) return refused('nothing_charged');
        if (payment.status !== 'succeeded') return refused('payment_intent_unexpected_state');
        // Under the payment's row lock: a concurrent first request with this key may have won.
        const replayed = await findSandboxRefundByKey(tx, input.idempotencyKey);
        if (replayed) return replayed;
        // Also under the lock, so concurrent refunds cannot together exceed the payment.
        const refundable = payment.amount - (await sumSandboxRefunds(tx, payment.id));
        if (refundable <= 0) return refused('charge_already_refunded');
        const amount = input.amount ?? refundable;
        if (amount > refundable) return refused('amount_too_large');
        const paymentOutcome = sandboxPaymentOutcome(payment.paymentMethod);
        const refundsFail = paymentOutcome?.status === 'succeeded' && paymentOutcome.refundsFail;
        return insertSandboxRefund(tx, {
          id: sandboxId('re'),
          idempotencyKey: input.idempotencyKey,
          requestHash: hash,
          paymentId: payment.id,
          amount,
          metadata: input.metadata,
          status: refundsFail ? 'pending' : 'succeeded',
          failureReason: refundsFail ? SANDBOX_REFUND_FAILURE_REASON : null,
          eventId: sandboxId('evt'),
        });
      });
      if (!('id' in outcome)) return outcome;
      assertSameRequest(outcome, hash, input.idempotencyKey);
      await report(refundEvent(outcome));
      return refundResult(outcome);
    },

    /** Nobody argues a sandbox dispute: conceding it loses it, as Stripe's close does. */
    async closeDispute({ processorDisputeId }) {
      const payment = await findSandboxPayment(db, processorDisputeId.replace(/^dp_sbx_/, 'pi_sbx_'));
      if (!processorDisputeId.startsWith('dp_sbx_') || !payment || !disputeEvent(payment)) {
        throw new PaymentProcessorError(
          'resource_missing',
          `No such dispute: '${processorDisputeId}'`,
          'permanent',
        );
      }
      return { status: 'lost' };
    },
  };
}

export type SandboxAuthentication = { paymentId: string; clientSecret: string; outcome: 'complete' | 'fail' };

/**
 * The buyer's answer to the sandbox's 3-D Secure page (Stripe's test page offers the same two
 * buttons). Authenticating ends the payment as its card says; failing declines it with Stripe's
 * `payment_intent_authentication_failure`. Either way the outcome is reported like any other.
 * Answering again reports where the payment ended and changes nothing; a wrong client secret is
 * refused exactly like an unknown payment.
 */
export async function authenticateSandboxPayment(
  { db, sink }: SandboxProcessorDeps,
  input: SandboxAuthentication,
): Promise<PaymentResult> {
  const row = await db.$transaction(async (tx) => {
    const payment = await lockSandboxPayment(tx, input.paymentId);
    if (!payment?.clientSecret || !sameSecret(payment.clientSecret, input.clientSecret)) {
      throw new PaymentProcessorError(
        'resource_missing',
        `No such payment_intent: '${input.paymentId}'`,
        'permanent',
      );
    }
    if (payment.status !== 'requires_action') return payment;
    const outcome = sandboxPaymentOutcome(payment.paymentMethod);
    const settled =
      input.outcome === 'fail' || outcome?.status !== 'requires_action'
        ? {
            status: 'failed' as const,
            declineCode: 'payment_intent_authentication_failure' as const,
            message: DECLINE_MESSAGES.payment_intent_authentication_failure,
          }
        : outcome.authenticated;
    return updateSandboxPayment(tx, payment.id, {
      status: settled.status,
      declineCode: settled.status === 'failed' ? settled.declineCode : null,
      failureMessage: settled.status === 'failed' ? settled.message : null,
    });
  });
  for (const event of [paymentEvent(row), disputeEvent(row)]) {
    if (event) await ingestProcessorEvent(db, 'sandbox', event, sink);
  }
  return paymentResult(row);
}

function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * What Stripe.js does with a card form in live mode (a ConfirmationToken), done for the sandbox's
 * card form: the token names the test PaymentMethod and keeps the expiry typed, so the saved card
 * shows it. Refused like a card form refuses: a number that is no test card, an expired date.
 */
export async function createSandboxConfirmationToken(
  db: Db,
  input: SandboxConfirmationTokenCreate,
  now: Date,
): Promise<SandboxConfirmationToken> {
  if (!sandboxPaymentOutcome(input.payment_method)) {
    throw new InvalidFieldError(
      ['body', 'payment_method'],
      `No such PaymentMethod: '${input.payment_method}'. Sandbox mode accepts only Stripe's test PaymentMethods, such as pm_card_visa.`,
    );
  }
  const expiry = { month: input.card.exp_month, year: input.card.exp_year };
  const expired = expiryDateError(expiry, now);
  if (expired) throw new InvalidFieldError(['body', 'card'], expired);
  const token = await insertSandboxConfirmationToken(db, {
    id: sandboxId('ctoken'),
    paymentMethod: input.payment_method,
    expMonth: expiry.month,
    expYear: expiry.year,
  });
  return {
    id: token.id,
    payment_method: token.paymentMethod,
    card: { exp_month: token.expMonth, exp_year: token.expYear },
  };
}
