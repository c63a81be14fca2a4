import { customerView } from '../customers/views.js';
import { meterView } from '../meters/views.js';
import type { CustomerMeterRow } from './repository.js';
import { customerStateMeterView } from '../customer-state/views.js';
import { customerMeterSchema, type CustomerMeter } from './schemas.js';

export function customerMeterView(row: CustomerMeterRow): CustomerMeter {
  return customerMeterSchema.parse({
    ...customerStateMeterView(row),
    customer_id: row.customerId,
    customer: customerView(row.customer),
    meter: meterView(row.meter),
  });
}
