import { customerView } from '../customers/views.js';
import { meterView } from '../meters/views.js';
import type { CustomerMeterRecord, CustomerMeterRow } from './repository.js';
import { customerStateMeterSchema, type CustomerStateMeter } from '../customers/schemas.js';
import { customerMeterSchema, type CustomerMeter } from './schemas.js';

const units = (row: CustomerMeterRecord) => ({
  consumed_units: row.consumedUnits.toNumber(),
  credited_units: row.creditedUnits.toNumber(),
  balance: row.balance.toNumber(),
});

export function customerStateMeterView(row: CustomerMeterRecord): CustomerStateMeter {
  return customerStateMeterSchema.parse({
    id: row.id,
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    meter_id: row.meterId,
    ...units(row),
  });
}

export function customerMeterView(row: CustomerMeterRow): CustomerMeter {
  return customerMeterSchema.parse({
    ...customerStateMeterView(row),
    customer_id: row.customerId,
    customer: customerView(row.customer),
    meter: meterView(row.meter),
  });
}
