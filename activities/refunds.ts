import type { Mailer } from '../domain/emails/mailer.js';
import type { PaymentProcessor } from '../domain/payments/processor.js';
import { sendRefundConfirmation } from '../domain/refunds/confirmation.js';
import type { RefundExecution, RefundSettlement } from '../domain/refunds/rules.js';
import {
  executeRefund,
  reconcileRefundWorkflows,
  settleRefund,
  type RefundWorkflows,
} from '../domain/refunds/service.js';
import type { Db } from '../infra/db.js';
import { withRetryContract } from './failures.js';

export type RefundActivityDeps = {
  db: Db;
  processor: PaymentProcessor;
  mailer: Mailer;
  publicUrl: string;
  workflows: { refunds: RefundWorkflows };
};

/** The steps of `refund:<id>`; each is idempotent (the processor's key is the refund's id). */
export function createRefundActivities(deps: RefundActivityDeps) {
  return withRetryContract({
    executeRefund(refundId: string): Promise<RefundExecution> {
      return executeRefund(deps.db, deps.processor, refundId);
    },
    async settleRefund(refundId: string, outcome: RefundSettlement) {
      await settleRefund(deps.db, refundId, outcome);
      // After the commit; a retried step finds the refund settled and the email sent.
      if (outcome.status === 'succeeded') {
        await sendRefundConfirmation({ db: deps.db, publicUrl: deps.publicUrl }, deps.mailer, refundId);
      }
    },
    /** Heals refunds whose workflow start was lost. */
    reconcileRefunds() {
      return reconcileRefundWorkflows(deps.db, deps.workflows.refunds);
    },
  });
}

export type RefundActivities = ReturnType<typeof createRefundActivities>;
