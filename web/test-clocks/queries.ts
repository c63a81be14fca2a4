import { queryOptions } from '@tanstack/react-query';
import { listResourceSchema } from '../../domain/platform/schemas';
import { testClockSchema, type TestClock } from '../../domain/test-clocks/schemas';
import { getJson, sendJson } from '../api';

export const TEST_CLOCKS_PAGE_SIZE = 20;
/** While a clock advances, its page reads it (and its customers' plans and orders) this often. */
export const TEST_CLOCK_POLL_MS = 1_000;
/** The API's limit, mirrored so the page stops offering to attach more. */
export const MAX_CUSTOMERS_PER_TEST_CLOCK = 10;

export const testClocksQuery = (organizationId: string, page: number) =>
  queryOptions({
    queryKey: ['test-clocks', organizationId, page],
    queryFn: () =>
      getJson(
        `/v1/test-clocks/?organization_id=${organizationId}&page=${page}&limit=${TEST_CLOCKS_PAGE_SIZE}`,
        listResourceSchema(testClockSchema),
      ),
  });

export const testClockQuery = (testClockId: string) =>
  queryOptions({
    queryKey: ['test-clock', testClockId],
    queryFn: () => getJson(`/v1/test-clocks/${testClockId}`, testClockSchema),
  });

export function advanceTestClock(testClockId: string, frozenTime: Date): Promise<TestClock> {
  return sendJson(
    'POST',
    `/v1/test-clocks/${testClockId}/advance`,
    { frozen_time: frozenTime.toISOString() },
    testClockSchema,
  );
}

export function attachTestClockCustomer(testClockId: string, customerId: string): Promise<TestClock> {
  return sendJson(
    'POST',
    `/v1/test-clocks/${testClockId}/customers`,
    { customer_id: customerId },
    testClockSchema,
  );
}

/** `months` later on the same day and time (UTC), or the month's last day when it has fewer days. */
export function addMonths(from: Date, months: number): Date {
  const next = new Date(from);
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(from.getUTCDate(), lastDay));
  return next;
}

export const addDays = (from: Date, days: number) => new Date(from.getTime() + days * 86_400_000);

/** A time as a `datetime-local` input holds it: the reader's local time, to the minute. */
export function toLocalInput(value: Date): string {
  const local = new Date(value.getTime() - value.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}
