import { chargeDraftOrder } from '../domain/orders/draft-charges.js';
import type { DraftChargeInput } from '../domain/orders/rules.js';
import type { PaymentProcessor } from '../domain/payments/processor.js';
import type { Db } from '../infra/db.js';
import { withRetryContract } from './failures.js';

export function createOrderActivities(deps: { db: Db; processor: PaymentProcessor }) {
  const ctx = { db: deps.db, processor: deps.processor };
  return withRetryContract({
    chargeDraftOrder(input: DraftChargeInput) {
      return chargeDraftOrder(ctx, input);
    },
  });
}

export type OrderActivities = ReturnType<typeof createOrderActivities>;
