// A free trial as a product, a checkout link or a checkout sets it (Polar's trial configuration):
// an interval unit and a count, set together. Checkout links and checkouts override the product's.
import { z } from 'zod';
import type { FieldIssue } from '../platform/errors.js';

export const TRIAL_INTERVALS = ['day', 'week', 'month', 'year'] as const;
export type TrialInterval = (typeof TRIAL_INTERVALS)[number];
export const trialIntervalSchema = z.enum(TRIAL_INTERVALS);

/** Polar's bounds (1 to 1000 units). */
export const TRIAL_COUNT_MAX = 1000;

/** `trial_interval` and `trial_interval_count` of a create or update body (null: none). */
export const trialInputFields = {
  trial_interval: trialIntervalSchema.nullable().optional(),
  trial_interval_count: z.number().int().min(1).max(TRIAL_COUNT_MAX).nullable().optional(),
};

export type TrialInput = {
  trial_interval?: TrialInterval | null | undefined;
  trial_interval_count?: number | null | undefined;
};

export type Trial = { interval: TrialInterval; count: number };

/**
 * Both or neither, as Polar (`Both trial_interval and trial_interval_count must be set together.`):
 * a lone unit or count would be a trial of no length or of no unit.
 */
export function trialInputIssues(input: TrialInput): FieldIssue[] {
  const interval = input.trial_interval ?? null;
  const count = input.trial_interval_count ?? null;
  if ((interval === null) === (count === null)) return [];
  return [
    {
      loc: ['body', interval === null ? 'trial_interval' : 'trial_interval_count'],
      msg: 'Both trial_interval and trial_interval_count must be set together.',
      type: 'missing',
    },
  ];
}

/** The stored columns of a trial input, when the body names it (undefined: left as it is). */
export function trialColumns(
  input: TrialInput,
): { trialInterval: TrialInterval | null; trialIntervalCount: number | null } | undefined {
  if (input.trial_interval === undefined && input.trial_interval_count === undefined) return undefined;
  return {
    trialInterval: input.trial_interval ?? null,
    trialIntervalCount: input.trial_interval_count ?? null,
  };
}

type TrialColumns = { trialInterval: string | null; trialIntervalCount: number | null };

/** A stored trial, or null when none (or half of one, which the inputs never store). */
export function storedTrial(row: TrialColumns): Trial | null {
  if (row.trialInterval === null || row.trialIntervalCount === null) return null;
  return { interval: row.trialInterval as TrialInterval, count: row.trialIntervalCount };
}

/**
 * The trial a purchase gets: none for a one-time product or when declined (`allowTrial` false);
 * otherwise the override's (a checkout's, a link's) when it sets one, else the product's (Polar's
 * `active_trial_interval`).
 */
export function activeTrial(input: {
  allowTrial: boolean;
  override: TrialColumns | null;
  product: TrialColumns & { recurringInterval: string | null };
}): Trial | null {
  if (!input.allowTrial || input.product.recurringInterval === null) return null;
  return (input.override && storedTrial(input.override)) ?? storedTrial(input.product);
}

/** `trial_interval` and `trial_interval_count` as a product, link or checkout answers them. */
export const trialView = (row: TrialColumns) => ({
  trial_interval: (row.trialInterval as TrialInterval | null) ?? null,
  trial_interval_count: row.trialIntervalCount ?? null,
});
