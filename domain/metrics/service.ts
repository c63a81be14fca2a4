import type { Db } from '../../infra/db.js';
import type { Caller } from '../access/rules.js';
import { organizationsToList } from '../access/service.js';
import { isKnownTimeZone } from '../dates/rules.js';
import { InvalidFieldError, InvalidInputError } from '../platform/errors.js';
import { knownTimeZones } from '../platform/repository.js';
import { metricFamilyRows, organizationCurrency } from './repository.js';
import {
  exportedMetricSlugs,
  METRICS_DEFAULT_CURRENCY,
  metricsAnswer,
  metricsCsvLines,
  metricsRange,
} from './rules.js';
import type { MetricsQuery, MetricsResponse } from './schemas.js';

/**
 * `GET /v1/metrics/`: one organization's figures per period of the range. The organization is
 * found as a list finds its objects: a token's own, a signed-in user's (one of theirs named in
 * `organization_id` when they have several); another organization's id counts nothing, as a list
 * filtered to it shows nothing. Amounts are in one currency (`organizationCurrency`).
 */
export async function getMetrics(db: Db, caller: Caller, query: MetricsQuery): Promise<MetricsResponse> {
  const zone = query.timezone;
  if (zone !== undefined && !(isKnownTimeZone(zone) && (await knownTimeZones(db.sql)).has(zone))) {
    throw new InvalidFieldError(
      ['query', 'timezone'],
      `Unknown time zone: ${zone}. Use an IANA name such as Europe/Berlin.`,
    );
  }
  const checked = metricsRange(query);
  if ('issues' in checked) throw new InvalidInputError(checked.issues);
  const organizationIds = await organizationsToList(db, caller, query.organization_id);
  if (organizationIds.length > 1) {
    // Amounts of several organizations may be in several currencies, and are never added up.
    throw new InvalidFieldError(
      ['query', 'organization_id'],
      'Metrics cover one organization at a time: choose it with organization_id.',
    );
  }
  const [organizationId] = organizationIds;
  const currency = organizationId
    ? await organizationCurrency(db.sql, organizationId)
    : METRICS_DEFAULT_CURRENCY;
  const families = await metricFamilyRows(db.sql, {
    organizationIds,
    currency,
    range: checked.range,
    productIds: query.product_id,
    customerIds: query.customer_id,
    billingTypes: query.billing_type,
  });
  return metricsAnswer(families, currency);
}

/**
 * `GET /v1/metrics/export`: the same query's periods as CSV, one line each, with the metrics asked
 * for (all by default). The figures are computed before the first line, so a refused query is
 * still a JSON error; the lines then go out one by one.
 */
export async function* exportMetrics(db: Db, caller: Caller, query: MetricsQuery): AsyncGenerator<string> {
  const answer = await getMetrics(db, caller, query);
  yield* metricsCsvLines(answer, exportedMetricSlugs(query.metrics));
}
