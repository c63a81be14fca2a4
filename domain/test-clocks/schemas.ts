import { z } from 'zod';
import { oneOrManyUuids, pageQuerySchema, TEXT_MAX_LENGTH, textSchema } from '../platform/schemas.js';

// Our extension (sandbox only), not a Polar resource: a frozen time that the subscriptions of the
// customers attached to it follow. Shaped like Polar's resources (snake_case, `{items, pagination}`).

const datetime = z.iso.datetime({ offset: true });
const datetimeInput = z.iso.datetime({
  offset: true,
  message: 'Give a date and time in ISO 8601 with its offset, e.g. 2026-01-31T12:00:00Z.',
});

export const TEST_CLOCK_STATUSES = ['ready', 'advancing'] as const;

export const testClockSchema = z
  .object({
    id: z.uuid(),
    created_at: datetime,
    modified_at: datetime.nullable(),
    organization_id: z.uuid(),
    name: z.string().nullable(),
    /** The time its customers' subscriptions live in. */
    frozen_time: datetime,
    /** `advancing` until every subscription of its customers has caught up with `frozen_time`. */
    status: z.enum(TEST_CLOCK_STATUSES),
    customer_ids: z.array(z.uuid()),
  })
  .meta({ id: 'TestClock' });

export type TestClock = z.infer<typeof testClockSchema>;

export const testClockCreateSchema = z.strictObject({
  name: textSchema({ max: TEXT_MAX_LENGTH.name, trim: true }).nullish(),
  frozen_time: datetimeInput,
  organization_id: z.uuid().nullish(),
});

export const testClockAdvanceSchema = z.strictObject({ frozen_time: datetimeInput });

export const testClockAttachSchema = z.strictObject({ customer_id: z.uuid() });

export const testClockListQuerySchema = pageQuerySchema.extend({
  organization_id: oneOrManyUuids.optional(),
});

export type TestClockCreate = z.infer<typeof testClockCreateSchema>;
export type TestClockListQuery = z.infer<typeof testClockListQuerySchema>;
