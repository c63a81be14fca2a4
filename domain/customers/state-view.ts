// Apart from views.ts: the state embeds the subscription and meter views, which embed the customer.
import { customerStateMeterView } from '../customer-meters/views.js';
import { customerStateSubscriptionView } from '../subscriptions/views.js';
import type { CustomerHoldings, CustomerRow } from './repository.js';
import { customerStateSchema, type CustomerState } from './schemas.js';
import { customerView } from './views.js';

/**
 * The customer with what they hold now: active subscriptions, benefits granted and not revoked,
 * and every meter they used or were credited (as of the refresher's last round: docs/usage.md).
 */
export function customerStateView(
  row: CustomerRow,
  { grants, subscriptions, meters }: CustomerHoldings,
): CustomerState {
  return customerStateSchema.parse({
    ...customerView(row),
    active_subscriptions: subscriptions.map(customerStateSubscriptionView),
    granted_benefits: grants.map((grant) => ({
      id: grant.id,
      created_at: grant.createdAt.toISOString(),
      modified_at: grant.modifiedAt?.toISOString() ?? null,
      granted_at: grant.grantedAt!.toISOString(),
      benefit_id: grant.benefitId,
      benefit_type: grant.benefit.type,
      properties: grant.properties,
    })),
    active_meters: meters.map(customerStateMeterView),
  });
}
