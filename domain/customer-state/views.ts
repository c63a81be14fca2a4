import type { Prisma } from '../../generated/prisma/client.js';
import type { CustomerMeterRecord } from '../customer-meters/repository.js';
import type { CustomerRow } from '../customers/repository.js';
import { customerView } from '../customers/views.js';
import { readMetadata } from '../metadata/rules.js';
import { subscriptionOwnFields } from '../products/views.js';
import type { SubscriptionRecord } from '../subscriptions/repository.js';
import type { CustomerHoldings } from './repository.js';
import {
  customerStateMeterSchema,
  customerStateSchema,
  customerStateSubscriptionSchema,
  type CustomerState,
  type CustomerStateMeter,
  type CustomerStateSubscription,
} from './schemas.js';

type SubscriptionMeterRecord = Prisma.SubscriptionMeterGetPayload<object>;

/** A metered price's usage in the current period (kept by the customer-meter refresher). */
export function subscriptionMeterFields(row: SubscriptionMeterRecord) {
  return {
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    id: row.id,
    consumed_units: row.consumedUnits.toNumber(),
    credited_units: row.creditedUnits.toNumber(),
    amount: row.amount,
    meter_id: row.meterId,
  };
}

export function customerStateSubscriptionView(
  row: SubscriptionRecord & { meters: SubscriptionMeterRecord[] },
): CustomerStateSubscription {
  const own = subscriptionOwnFields(row);
  return customerStateSubscriptionSchema.parse({
    ...own,
    status: 'active',
    meters: row.meters.map(subscriptionMeterFields),
  });
}

export function customerStateMeterView(row: CustomerMeterRecord): CustomerStateMeter {
  return customerStateMeterSchema.parse({
    id: row.id,
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    meter_id: row.meterId,
    consumed_units: row.consumedUnits.toNumber(),
    credited_units: row.creditedUnits.toNumber(),
    balance: row.balance.toNumber(),
  });
}

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
      benefit_metadata: readMetadata(grant.benefit.metadata),
      properties: grant.properties,
    })),
    active_meters: meters.map(customerStateMeterView),
  });
}
