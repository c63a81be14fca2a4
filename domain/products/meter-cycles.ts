// A product's meter cycle of its own (Polar's `meter_interval` and `meter_interval_count`), as a
// create body sets it and the product stores it. The periods it makes are the subscriptions'
// (domain/subscriptions/meter-cycles.ts). Pure.
import { z } from 'zod';
import type { FieldIssue } from '../platform/errors.js';
import { MAX_INTERVAL_COUNT, recurringIntervalSchema, type RecurringInterval } from '../prices/schemas.js';

/** A cycle: an interval and how many of them (the shape of subscriptions' `Cadence`). */
export type MeterCycle = { interval: RecurringInterval; count: number };

/** `meter_interval` and `meter_interval_count` of a product create body (Polar: 1 to 999). */
export const meterCycleInputFields = {
  meter_interval: recurringIntervalSchema.nullable().optional(),
  meter_interval_count: z.number().int().min(1).max(MAX_INTERVAL_COUNT).nullable().optional(),
};

export type MeterCycleInput = {
  meter_interval?: RecurringInterval | null | undefined;
  meter_interval_count?: number | null | undefined;
};

/**
 * Whether a meter cycle divides a billing period evenly, so that the meter boundaries fall on
 * every renewal (Polar's matrix): days and weeks divide days and weeks, months and years divide
 * months and years, and only a daily cycle divides a period of months or years (a week does not
 * fit a month). A cycle longer than the period never divides it.
 */
export function meterCycleDivides(meter: MeterCycle, billing: MeterCycle): boolean {
  const m = meter.count;
  const n = billing.count;
  switch (`${meter.interval}/${billing.interval}`) {
    case 'day/day':
    case 'week/week':
    case 'month/month':
    case 'year/year':
      return n % m === 0;
    case 'day/week':
      return (n * 7) % m === 0;
    case 'month/year':
      return (n * 12) % m === 0;
    case 'day/month':
    case 'day/year':
      return m === 1;
    default:
      return false;
  }
}

/** The stored cycle of a create body: none, or its interval and count (1 unless given). */
export function meterCycleColumns(input: MeterCycleInput): {
  meterInterval: RecurringInterval | null;
  meterIntervalCount: number | null;
} {
  // Polar ignores the count without an interval.
  if (input.meter_interval == null) return { meterInterval: null, meterIntervalCount: null };
  return { meterInterval: input.meter_interval, meterIntervalCount: input.meter_interval_count ?? 1 };
}

/** Why a product's meter cycle is refused: on a one-time product, or not dividing its period. */
export function meterCycleInputIssues(
  input: MeterCycleInput,
  billing: { interval: RecurringInterval | null; count: number | null },
): FieldIssue[] {
  const { meterInterval, meterIntervalCount } = meterCycleColumns(input);
  if (meterInterval === null) return [];
  if (billing.interval === null) {
    return [
      {
        loc: ['body', 'meter_interval'],
        msg: 'One-time products have no meter cycle.',
        type: 'value_error',
      },
    ];
  }
  const meter = { interval: meterInterval, count: meterIntervalCount ?? 1 };
  if (meterCycleDivides(meter, { interval: billing.interval, count: billing.count ?? 1 })) return [];
  return [
    {
      loc: ['body', 'meter_interval'],
      msg: 'The meter interval must evenly divide the billing interval, so the meter cycle re-aligns with the billing cycle at every renewal.',
      type: 'value_error',
    },
  ];
}

/** A product's meter cycle as stored (null: metered usage follows the billing period). */
export function storedMeterCycle(row: {
  meterInterval: string | null;
  meterIntervalCount: number | null;
}): MeterCycle | null {
  if (row.meterInterval === null) return null;
  return { interval: row.meterInterval as RecurringInterval, count: row.meterIntervalCount ?? 1 };
}

/** A product's cycle as a subscription keeps it (Polar snapshots it on the subscription). */
export const meterCycleColumnsOf = (product: {
  meterInterval: string | null;
  meterIntervalCount: number | null;
}) => ({ meterInterval: product.meterInterval, meterIntervalCount: product.meterIntervalCount });
