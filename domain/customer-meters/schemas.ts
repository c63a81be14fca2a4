import { z } from 'zod';
import { customerSchema } from '../customers/schemas.js';
import { customerStateMeterSchema } from '../customer-state/schemas.js';
import { meterSchema } from '../meters/schemas.js';
import {
  oneOrManyUuids,
  pageQuerySchema,
  queryListSchema,
  sortingSchema,
  textSchema,
} from '../platform/schemas.js';

// Customer meters as @polar-sh/sdk@0.33.2 reads them (CustomerMeter; the state's own is with the customer).

export const customerMeterSchema = customerStateMeterSchema.extend({
  customer_id: z.uuid(),
  customer: customerSchema,
  meter: meterSchema,
});

export type CustomerMeter = z.infer<typeof customerMeterSchema>;

export const CUSTOMER_METER_SORT_FIELDS = [
  'created_at',
  '-created_at',
  'modified_at',
  '-modified_at',
  'customer_id',
  '-customer_id',
  'customer_name',
  '-customer_name',
  'meter_id',
  '-meter_id',
  'meter_name',
  '-meter_name',
  'consumed_units',
  '-consumed_units',
  'credited_units',
  '-credited_units',
  'balance',
  '-balance',
] as const;

export const customerMeterListQuerySchema = pageQuerySchema.extend({
  organization_id: oneOrManyUuids.optional(),
  customer_id: oneOrManyUuids.optional(),
  external_customer_id: queryListSchema(textSchema({ min: 1, max: 256 })).optional(),
  meter_id: oneOrManyUuids.optional(),
  sorting: sortingSchema(CUSTOMER_METER_SORT_FIELDS),
});

export type CustomerMeterListQuery = z.infer<typeof customerMeterListQuerySchema>;
