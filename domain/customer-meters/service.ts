// Customer meters: the refresher's round, and `/v1/customer-meters` (docs/usage.md).
import { transaction, type Db, type SqlClient } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { Caller } from '../access/rules.js';
import { accessibleOrganizationIds, organizationsToList } from '../access/service.js';
import { listCustomersByIds } from '../customers/repository.js';
import { recordCustomerStateChanged } from '../customer-state/service.js';
import { aggregationSchema, filterSchema } from '../meters/schemas.js';
import { AppError } from '../platform/errors.js';
import { pageToSkipTake, paginated, parseSorting } from '../platform/rules.js';
import {
  findCustomerMeterRow,
  findLiveCustomersOf,
  findMetersOfOrganization,
  listCustomerMeterRows,
  lockCustomerMeters,
  meterBalanceOf,
  findMeteredSubscriptionPrices,
  findLiveSubscriptionsOf,
  refreshCustomerMeterRows,
  usageInWindows,
  writeSubscriptionMeterRows,
  type MeteredSubscriptionPrice,
  type SubscriptionMeterValues,
} from './repository.js';
import { meteredLineAmount, shareMeterCredits } from '../usage/rules.js';
import type { CustomerMeter, CustomerMeterListQuery } from './schemas.js';
import type { CustomerCustomerMeterListQuery } from '../customer-portal/schemas.js';
import type { CustomerCaller } from '../customer-sessions/rules.js';
import { customerMeterView } from './views.js';
import { claimStaleCustomers } from '../customers/repository.js';

/** Customers one round recomputes: one transaction, short enough not to hold the marks long. */
export const CUSTOMERS_PER_REFRESH = 200;

/** A round reads each customer's history: long histories take a while, and a retry redoes it all. */
const REFRESH_TRANSACTION = { maxWait: 10_000, timeout: 120_000 } as const;

function byOrganization<T extends { organizationId: string }>(items: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items)
    groups.set(item.organizationId, [...(groups.get(item.organizationId) ?? []), item]);
  return groups;
}

/**
 * One round of the refresher: takes the customers marked stale, recomputes their meters, and
 * records one `customer.state_changed` per customer whose meters moved, however many events
 * arrived for them since the last round. All in one transaction with the marks' deletion: a
 * failure leaves the marks, and the next round does it again.
 */
export async function refreshStaleCustomerMeters(
  db: Db,
  limit = CUSTOMERS_PER_REFRESH,
): Promise<{ customers: number; changed: number }> {
  return transaction(
    db,
    async ({ prisma, sql }) => {
      const customerIds = await claimStaleCustomers(sql, limit);
      if (customerIds.length === 0) return { customers: 0, changed: 0 };
      await lockCustomerMeters(sql, customerIds);
      const changed: string[] = [];
      const customers = byOrganization(await findLiveCustomersOf(sql, customerIds));
      for (const [organizationId, ofOrganization] of customers) {
        const meters = (await findMetersOfOrganization(sql, organizationId)).map((meter) => ({
          id: meter.id,
          filter: filterSchema.parse(meter.filter),
          aggregation: aggregationSchema.parse(meter.aggregation),
        }));
        changed.push(...(await refreshCustomerMeterRows(sql, organizationId, ofOrganization, meters)));
      }
      changed.push(...(await refreshSubscriptionMeters(sql, customerIds)));
      if (changed.length > 0) {
        const rows = await listCustomersByIds(prisma, [...new Set(changed)]);
        for (const row of rows) await recordCustomerStateChanged(prisma, row);
      }
      return { customers: customerIds.length, changed: new Set(changed).size };
    },
    REFRESH_TRANSACTION,
  );
}

/**
 * The current period of these customers' metered subscription prices (subscription.meters): units
 * since the period began (or the price joined the subscription), the period's credits less those
 * a plan change's billed usage took, and what its end would bill so far (the renewal's own rule:
 * subscriptions/renewal-pricing.ts). Answers the customers whose subscriptions' meters changed.
 */
async function refreshSubscriptionMeters(sql: SqlClient, customerIds: string[]): Promise<string[]> {
  const prices = byOrganization(await findMeteredSubscriptionPrices(sql, customerIds));
  const values: SubscriptionMeterValues[] = [];
  for (const [organizationId, ofOrganization] of prices) {
    const keyOf = (price: MeteredSubscriptionPrice) => `${price.subscriptionId}:${price.meter.id}`;
    const usage = await usageInWindows(
      sql,
      organizationId,
      ofOrganization.map((price) => ({
        key: keyOf(price),
        customerId: price.customerId,
        meter: {
          id: price.meter.id,
          filter: filterSchema.parse(price.meter.filter),
          aggregation: aggregationSchema.parse(price.meter.aggregation),
        },
        from: new Date(Math.max(price.periodStart.getTime(), price.attachedAt.getTime())),
        to: null,
        creditsFrom: price.periodStart,
      })),
    );
    const seen = new Set<string>();
    for (const price of ofOrganization) {
      // One row per meter of a subscription: a second price on the same meter is not counted twice.
      if (seen.has(keyOf(price))) continue;
      seen.add(keyOf(price));
      const measured = usage.get(keyOf(price)) ?? { units: '0', credited: '0' };
      // The renewal's rule: credits that usage billed earlier in the period took are not offered again.
      const [credited] = shareMeterCredits({
        credited: measured.credited,
        takenBefore: price.creditsTaken,
        units: [measured.units],
      }).available;
      values.push({
        subscriptionId: price.subscriptionId,
        meterId: price.meter.id,
        consumed: measured.units,
        credited: credited!,
        amount: meteredLineAmount({
          unitAmount: price.unitAmount,
          units: measured.units,
          creditedUnits: credited!,
          capAmount: price.capAmount,
        }),
      });
    }
  }
  const live = await findLiveSubscriptionsOf(sql, customerIds);
  const changed = new Set(
    await writeSubscriptionMeterRows(
      sql,
      live.map((subscription) => subscription.id),
      values,
    ),
  );
  return live
    .filter((subscription) => changed.has(subscription.id))
    .map((subscription) => subscription.customerId);
}

const SORT_COLUMNS = {
  created_at: (direction) => ({ createdAt: direction }),
  modified_at: (direction) => ({ modifiedAt: { sort: direction, nulls: 'last' } }),
  customer_id: (direction) => ({ customerId: direction }),
  customer_name: (direction) => ({ customer: { name: { sort: direction, nulls: 'last' } } }),
  meter_id: (direction) => ({ meterId: direction }),
  meter_name: (direction) => ({ meter: { name: direction } }),
  consumed_units: (direction) => ({ consumedUnits: direction }),
  credited_units: (direction) => ({ creditedUnits: direction }),
  balance: (direction) => ({ balance: direction }),
} satisfies Record<string, (direction: Prisma.SortOrder) => Prisma.CustomerMeterOrderByWithRelationInput>;

export async function listCustomerMeters(db: Db, caller: Caller, query: CustomerMeterListQuery) {
  const organizationIds = await organizationsToList(db, caller, query.organization_id);
  const where: Prisma.CustomerMeterWhereInput & { organizationId: { in: string[] } } = {
    organizationId: { in: organizationIds },
    ...(query.customer_id ? { customerId: { in: query.customer_id } } : {}),
    ...(query.external_customer_id ? { customer: { externalId: { in: query.external_customer_id } } } : {}),
    ...(query.meter_id ? { meterId: { in: query.meter_id } } : {}),
  };
  const orderBy = parseSorting<keyof typeof SORT_COLUMNS>(query.sorting ?? ['-modified_at']).map(
    ({ field, direction }) => SORT_COLUMNS[field](direction),
  );
  const [rows, total] = await listCustomerMeterRows(
    db,
    where,
    [...orderBy, { id: 'asc' }],
    pageToSkipTake(query),
  );
  return paginated(rows.map(customerMeterView), total, query);
}

export async function getCustomerMeter(db: Db, caller: Caller, id: string): Promise<CustomerMeter> {
  const row = await findCustomerMeterRow(db, id, await accessibleOrganizationIds(db, caller));
  if (!row) throw new AppError('ResourceNotFound', 'Customer meter not found');
  return customerMeterView(row);
}

/** The refresher workflow as this domain sees it (temporal/customer-meters.ts). */
export type CustomerMeterWorkflows = {
  /** Starts the deployment's refresher unless it runs; `true` when it was started. */
  ensureRefresher(): Promise<boolean>;
};

export function customerMeterRefresherWorkflowId(taskQueue: string): string {
  return `customer-meter-refresher:${taskQueue}`;
}

/**
 * The customer's balance on the meter as of this moment, recomputed in the caller's transaction
 * rather than read from the refresher's last round: a meter credit's rollover and revoke take
 * units from it, so it must not lag behind the events.
 */
export async function currentMeterBalance(
  sql: SqlClient,
  customer: { id: string; organizationId: string; externalId: string | null },
  meterId: string,
): Promise<number> {
  await lockCustomerMeters(sql, [customer.id]);
  const meter = (await findMetersOfOrganization(sql, customer.organizationId)).find(
    ({ id }) => id === meterId,
  );
  if (!meter) return 0;
  await refreshCustomerMeterRows(
    sql,
    customer.organizationId,
    [customer],
    [
      {
        id: meter.id,
        filter: filterSchema.parse(meter.filter),
        aggregation: aggregationSchema.parse(meter.aggregation),
      },
    ],
  );
  return meterBalanceOf(sql, customer.id, meterId);
}

/** The portal: the customer's own meters. */
export async function listMetersOfCustomer(
  db: Db,
  customer: CustomerCaller,
  query: CustomerCustomerMeterListQuery,
) {
  const where: Prisma.CustomerMeterWhereInput & { organizationId: { in: string[] } } = {
    organizationId: { in: [customer.organizationId] },
    customerId: customer.customerId,
    ...(query.meter_id ? { meterId: { in: query.meter_id } } : {}),
    ...(query.query ? { meter: { name: { contains: query.query, mode: 'insensitive' as const } } } : {}),
  };
  const orderBy = parseSorting<keyof typeof SORT_COLUMNS>(query.sorting ?? ['-modified_at']).map(
    ({ field, direction }) => SORT_COLUMNS[field](direction),
  );
  const [rows, total] = await listCustomerMeterRows(
    db,
    where,
    [...orderBy, { id: 'asc' }],
    pageToSkipTake(query),
  );
  return { items: rows.map(customerMeterView), total };
}

export async function getMeterOfCustomer(
  db: Db,
  customer: CustomerCaller,
  id: string,
): Promise<CustomerMeter> {
  const row = await findCustomerMeterRow(db, id, [customer.organizationId]);
  if (!row || row.customerId !== customer.customerId)
    throw new AppError('ResourceNotFound', 'Customer meter not found');
  return customerMeterView(row);
}
