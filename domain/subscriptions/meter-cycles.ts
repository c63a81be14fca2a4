// Meter cycles of their own (Polar's product `meter_interval` and `meter_interval_count`): a plan
// billed yearly whose metered usage is billed, and whose meters and meter credits reset, every
// month. The meter cycle divides the billing period evenly, so every renewal is also a meter
// boundary; the boundaries inside a period are counted from the subscription's anchor with the
// cadence functions (never from the previous boundary), so a plan bought on 31 January closes
// its meter cycles on 28 February, 31 March, 30 April, … Pure.
import { storedMeterCycle } from '../products/meter-cycles.js';
import { cadencePeriodAt, type Cadence } from './cadence.js';

export { storedMeterCycle };

/** What places a subscription's current meter cycle. */
export type MeterClock = {
  cycle: Cadence | null;
  billingAnchor: Date;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  /** Where the current meter cycle began once one closed inside the period (null: the period's start). */
  meterPeriodStart: Date | null;
};

export type MeterPeriod = { start: Date; end: Date };

/**
 * The meter cycle of the anchor's grid that holds `at`, within the billing period: its start and
 * end are clamped to the period's, so a period always splits into whole cycles with neither a gap
 * nor an overlap, even after an anchor moved (a resume, a change of interval).
 */
export function meterPeriodAt(clock: Omit<MeterClock, 'meterPeriodStart'>, at: Date): MeterPeriod {
  const periodStart = clock.currentPeriodStart.getTime();
  const periodEnd = clock.currentPeriodEnd.getTime();
  if (!clock.cycle || at.getTime() < clock.billingAnchor.getTime()) {
    return { start: clock.currentPeriodStart, end: clock.currentPeriodEnd };
  }
  const cycle = cadencePeriodAt(clock.billingAnchor, clock.cycle, at);
  return {
    start: new Date(Math.max(periodStart, cycle.start.getTime())),
    end: new Date(Math.min(periodEnd, cycle.end.getTime())),
  };
}

/** Every meter cycle of the current billing period, in order. */
export function meterPeriodsOf(clock: Omit<MeterClock, 'meterPeriodStart'>): MeterPeriod[] {
  const periods: MeterPeriod[] = [];
  let at = clock.currentPeriodStart;
  while (at.getTime() < clock.currentPeriodEnd.getTime()) {
    const period = meterPeriodAt(clock, at);
    periods.push(period);
    at = period.end;
  }
  return periods;
}

/**
 * The subscription's current meter cycle: the one that began at the last meter boundary the
 * workflow closed in this period, or at the period's start. Null without a cycle of its own.
 */
export function currentMeterPeriod(clock: MeterClock): MeterPeriod | null {
  if (!clock.cycle) return null;
  const since = Math.max(clock.currentPeriodStart.getTime(), clock.meterPeriodStart?.getTime() ?? 0);
  return meterPeriodAt(clock, new Date(Math.min(since, clock.currentPeriodEnd.getTime() - 1)));
}

/**
 * Where the usage now being metered started: the current meter cycle's start, or the period's.
 * A cycle closed in this period is never measured again, even by a row without a cycle now.
 */
export function meteringSince(clock: MeterClock): Date {
  const closed = clock.meterPeriodStart?.getTime() ?? 0;
  return closed > clock.currentPeriodStart.getTime()
    ? new Date(Math.min(closed, clock.currentPeriodEnd.getTime()))
    : (currentMeterPeriod(clock)?.start ?? clock.currentPeriodStart);
}

/**
 * When the current meter cycle closes inside the billing period (its usage billed in an order of
 * its own), or null: no cycle of its own, or the cycle closes with the period (the renewal bills it).
 */
export function meterCycleDueMs(clock: MeterClock): number | null {
  const period = currentMeterPeriod(clock);
  if (!period || period.end.getTime() >= clock.currentPeriodEnd.getTime()) return null;
  return period.end.getTime();
}

/** The request key of the order billing the meter cycle that closes at `endMs` in period `index`. */
export const meterCycleKey = (subscriptionId: string, index: number, endMs: number) =>
  `subscription:${subscriptionId}:meter-cycle:${index}:${new Date(endMs).toISOString()}`;

/** The workflow's step closing a meter cycle inside period `index`. */
export type MeterCycleStep = { kind: 'meter_cycle'; index: number; atMs: number };

/** The next meter cycle to close, when one closes before the period's end. */
export function meterCycleStep(state: {
  currentPeriodIndex: number;
  meterCycleEndMs?: number | null;
  currentPeriodEndMs: number;
}): MeterCycleStep | null {
  if (state.meterCycleEndMs == null || state.meterCycleEndMs >= state.currentPeriodEndMs) return null;
  return { kind: 'meter_cycle', index: state.currentPeriodIndex, atMs: state.meterCycleEndMs };
}

/** A subscription's fields that place its meter cycle. */
export type MeterClockRow = {
  meterInterval: string | null;
  meterIntervalCount: number | null;
  billingAnchor: Date;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  meterPeriodStart: Date | null;
};

export const meterClockOf = (row: MeterClockRow): MeterClock => ({
  cycle: storedMeterCycle(row),
  billingAnchor: row.billingAnchor,
  currentPeriodStart: row.currentPeriodStart,
  currentPeriodEnd: row.currentPeriodEnd,
  meterPeriodStart: row.meterPeriodStart,
});

/**
 * `current_meter_period_start/end` of the Subscription: the meter cycle whose usage is being
 * metered, or null without a cycle of its own, or once ended.
 */
export function currentMeterPeriodFields(row: MeterClockRow & { endedAt: Date | null }) {
  const period = row.endedAt ? null : currentMeterPeriod(meterClockOf(row));
  return {
    current_meter_period_start: period?.start.toISOString() ?? null,
    current_meter_period_end: period?.end.toISOString() ?? null,
  };
}
