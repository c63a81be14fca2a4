import { z } from 'zod';
import { customerSchema } from '../customers/schemas.js';
import { metadataSchema } from '../metadata/schemas.js';
import { orderSubscriptionSchema } from '../products/schemas.js';

// Polar's CustomerState as @polar-sh/sdk@0.33.2 reads it (spec §3 Customer): the customer with
// what they hold.

const datetime = z.iso.datetime({ offset: true });

export const customerStateBenefitGrantSchema = z.object({
  id: z.uuid(),
  created_at: z.iso.datetime({ offset: true }),
  modified_at: z.iso.datetime({ offset: true }).nullable(),
  granted_at: z.iso.datetime({ offset: true }),
  benefit_id: z.uuid(),
  benefit_type: z.string(),
  benefit_metadata: metadataSchema,
  properties: z.record(z.string(), z.json()),
});

/** One customer's use of one meter since its last reset, as customer state lists it. */
export const customerStateMeterSchema = z.object({
  id: z.uuid(),
  created_at: z.iso.datetime({ offset: true }),
  modified_at: z.iso.datetime({ offset: true }).nullable(),
  meter_id: z.uuid(),
  consumed_units: z.number(),
  credited_units: z.number(),
  balance: z.number(),
});

export type CustomerStateMeter = z.infer<typeof customerStateMeterSchema>;

export const customerStateSchema = customerSchema.extend({
  active_subscriptions: z.array(z.record(z.string(), z.json())),
  granted_benefits: z.array(customerStateBenefitGrantSchema),
  active_meters: z.array(customerStateMeterSchema),
});

export type CustomerState = z.infer<typeof customerStateSchema>;

/** An `active_subscriptions` entry of customer state (only the `active` status is listed there). */
export const customerStateSubscriptionSchema = orderSubscriptionSchema
  .pick({
    id: true,
    created_at: true,
    modified_at: true,
    custom_field_data: true,
    metadata: true,
    amount: true,
    currency: true,
    recurring_interval: true,
    current_period_start: true,
    current_period_end: true,
    trial_start: true,
    trial_end: true,
    cancel_at_period_end: true,
    canceled_at: true,
    started_at: true,
    ends_at: true,
    product_id: true,
    discount_id: true,
  })
  .extend({
    status: z.literal('active'),
    meters: z.array(
      z.object({
        created_at: datetime,
        modified_at: datetime.nullable(),
        id: z.uuid(),
        consumed_units: z.number(),
        credited_units: z.number().int(),
        amount: z.number().int(),
        meter_id: z.uuid(),
      }),
    ),
  });
export type CustomerStateSubscription = z.infer<typeof customerStateSubscriptionSchema>;
