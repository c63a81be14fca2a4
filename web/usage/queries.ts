import { queryOptions } from '@tanstack/react-query';
import { customerMeterSchema } from '../../domain/customer-meters/schemas';
import { listResourceSchema } from '../../domain/platform/schemas';
import { meterQuantitiesSchema } from '../../domain/usage/schemas';
import { getJson } from '../api';
import { currentTimeZone } from '../components';
import { rangeBounds, USAGE_RANGES, type UsageRange } from './format';

export const CUSTOMER_METERS_PAGE_SIZE = 20;

/** A meter's quantities over one of the chart's ranges, in buckets of the organization's time zone. */
export const meterQuantitiesQuery = (meterId: string, range: UsageRange, now: Date) => {
  const timeZone = currentTimeZone();
  const { start, end } = rangeBounds(range, now, timeZone);
  return queryOptions({
    queryKey: ['meter-quantities', meterId, range, start.toISOString(), timeZone],
    queryFn: () => {
      const query = new URLSearchParams({
        start_timestamp: start.toISOString(),
        end_timestamp: end.toISOString(),
        interval: USAGE_RANGES[range].interval,
        timezone: timeZone,
      });
      return getJson(`/v1/meters/${meterId}/quantities?${query.toString()}`, meterQuantitiesSchema);
    },
  });
};

/** A page of the meter's customer meters, the heaviest users first. */
export const meterCustomersQuery = (organizationId: string, meterId: string, page: number) =>
  queryOptions({
    queryKey: ['customer-meters', organizationId, meterId, page],
    queryFn: () => {
      const query = new URLSearchParams({
        organization_id: organizationId,
        meter_id: meterId,
        sorting: '-consumed_units',
        page: String(page),
        limit: String(CUSTOMER_METERS_PAGE_SIZE),
      });
      return getJson(`/v1/customer-meters/?${query.toString()}`, listResourceSchema(customerMeterSchema));
    },
  });
