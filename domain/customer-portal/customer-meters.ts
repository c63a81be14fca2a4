// The signed-in customer's meters (Polar's portal `customer_meter`): their usage and credits, read
// through customer-meters/service.ts and shaped as the portal's schema.

import { getMeterOfCustomer, listMetersOfCustomer } from '../customer-meters/service.js';
import type { CustomerCaller } from '../customer-sessions/rules.js';
import { paginated } from '../platform/rules.js';
import type { PortalContext } from './context.js';
import {
  customerCustomerMeterSchema,
  type CustomerCustomerMeter,
  type CustomerCustomerMeterListQuery,
} from './schemas.js';

export async function listPortalMeters(
  ctx: PortalContext,
  customer: CustomerCaller,
  query: CustomerCustomerMeterListQuery,
) {
  const { items, total } = await listMetersOfCustomer(ctx.db, customer, query);
  return paginated(
    items.map((item): CustomerCustomerMeter => customerCustomerMeterSchema.parse(item)),
    total,
    query,
  );
}

export async function getPortalMeter(ctx: PortalContext, customer: CustomerCaller, id: string) {
  return customerCustomerMeterSchema.parse(await getMeterOfCustomer(ctx.db, customer, id));
}
