// The worker's step of a draft order's finalize try (`draft-order-charge:<order>:<try>`): claims
// the draft under the try's key, charges the card off-session under the same key (so a retried
// step gets the processor's first answer, never a second charge), and settles the order with the
// try's payment row in one transaction.

import { transaction, type Db } from '../../infra/db.js';
import { findPaymentMethod } from '../payment-methods/repository.js';
import { answerOrRefusal, PaymentProcessorError, refusalReason } from '../payments/errors.js';
import type { OffSessionPaymentResult, PaymentProcessor } from '../payments/processor.js';
import { recordPayment, type PaymentRecord } from '../payments/repository.js';
import { settleDraftPaid } from './drafts.js';
import { claimDraftOrder, findOrder, releaseDraftOrder } from './repository.js';
import { draftChargeKey, type DraftChargeInput, type DraftChargeResult } from './rules.js';

type Answer = OffSessionPaymentResult | PaymentProcessorError;

export async function chargeDraftOrder(
  ctx: { db: Db; processor: PaymentProcessor },
  input: DraftChargeInput,
): Promise<DraftChargeResult> {
  const key = draftChargeKey(input.orderId, input.attempt);
  const at = new Date();
  if (!(await claimDraftOrder(ctx.db, input.orderId, key, at))) {
    const order = await findOrder(ctx.db, input.orderId);
    // This try paid it already (the step is retried after its commit).
    if (order?.status === 'paid' && order.requestKey === key) return { outcome: 'paid' };
    return { outcome: 'not_draft', status: order?.status ?? 'missing' };
  }
  const order = (await findOrder(ctx.db, input.orderId))!;
  const card = await findPaymentMethod(ctx.db, input.paymentMethodId);
  if (
    !card ||
    card.deletedAt ||
    card.customerId !== order.customerId ||
    card.processor !== ctx.processor.name
  ) {
    await releaseDraftOrder(ctx.db, order.id, key, at);
    return {
      outcome: 'declined',
      declineCode: 'missing_payment_method',
      message: "This card is not one of the customer's saved cards.",
    };
  }
  const answer: Answer = await answerOrRefusal(
    ctx.processor.chargeOffSession({
      idempotencyKey: key,
      amount: order.totalAmount,
      currency: order.currency,
      processorCustomerId: card.processorCustomerId,
      paymentMethodId: card.processorPaymentMethodId,
      metadata: { order_id: order.id, organization_id: order.organizationId },
      description: order.items[0]?.label ?? order.productName,
    }),
  );
  const payment: PaymentRecord = {
    organizationId: order.organizationId,
    requestKey: key,
    processor: ctx.processor.name,
    orderId: order.id,
    customerId: order.customerId,
    amount: order.totalAmount,
    currency: order.currency,
    at,
    ...paymentOutcomeOf(answer),
  };
  return transaction(ctx.db, async ({ prisma: tx, sql }) => {
    await recordPayment(sql, payment);
    if (answer instanceof PaymentProcessorError || answer.status === 'failed') {
      await releaseDraftOrder(tx, order.id, key, at);
      return { outcome: 'declined', declineCode: payment.declineReason!, message: payment.declineMessage! };
    }
    // Settled by the next finalize, which resumes this try and asks the processor again.
    if (answer.status === 'processing') return { outcome: 'processing' };
    await settleDraftPaid(tx, order.id, key, answer.paymentId, at);
    return { outcome: 'paid' };
  });
}

function paymentOutcomeOf(
  answer: Answer,
): Pick<PaymentRecord, 'status' | 'processorPaymentId' | 'card' | 'declineReason' | 'declineMessage'> {
  // A refusal is a failed payment whose reason is the processor's, for the seller (docs/payments.md).
  if (answer instanceof PaymentProcessorError) {
    return {
      status: 'failed',
      processorPaymentId: null,
      card: null,
      declineReason: answer.code,
      declineMessage: refusalReason(answer),
    };
  }
  switch (answer.status) {
    case 'succeeded':
      return {
        status: 'succeeded',
        processorPaymentId: answer.paymentId,
        card: answer.paymentMethod,
        declineReason: null,
        declineMessage: null,
      };
    case 'processing':
      return {
        status: 'pending',
        processorPaymentId: answer.paymentId,
        card: null,
        declineReason: null,
        declineMessage: null,
      };
    case 'failed':
      return {
        status: 'failed',
        processorPaymentId: answer.paymentId,
        card: answer.paymentMethod ?? null,
        declineReason: answer.declineCode,
        declineMessage: answer.message,
      };
  }
}
