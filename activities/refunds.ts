import type { PaymentProcessor } from '../domain/payments/processor.js';
import type { RefundExecution, RefundSettlement } from '../domain/refunds/rules.js';
import {
  executeRefund,
  reconcileRefundWorkflows,
  settleRefund,
  type RefundWorkflows,
} from '../domain/refunds/service.js';
import type { Db } from '../infra/db.js';

export type RefundActivityDeps = {
  db: Db;
  processor: PaymentProcessor;
  workflows: { refunds: RefundWorkflows };
};

/** The steps of `refund:<id>`; each is idempotent (the processor's key is the refund's id). */
export function createRefundActivities(deps: RefundActivityDeps) {
  return {
    executeRefund(refundId: string): Promise<RefundExecution> {
      return executeRefund(deps.db, deps.processor, refundId);
    },
    settleRefund(refundId: string, outcome: RefundSettlement) {
      return settleRefund(deps.db, refundId, outcome);
    },
    /** Heals refunds whose workflow start was lost. */
    reconcileRefunds() {
      return reconcileRefundWorkflows(deps.db, deps.workflows.refunds);
    },
  };
}

export type RefundActivities = ReturnType<typeof createRefundActivities>;
