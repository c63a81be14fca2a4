// The statement every metrics family builds on (repository.ts): its periods from
// `generate_series`, the range, the organization and the filters, each a parameter once used.
import type { SqlClient } from '../../infra/db.js';
import { QueryParameters } from '../usage/repository.js';
import type { MetricsRange } from './rules.js';
import type { BILLING_TYPES } from './schemas.js';

const FIXED_PERIOD_HOURS: Partial<Record<MetricsRange['interval'], number>> = { hour: 1, day: 24, week: 168 };
/** A Monday at midnight UTC: UTC's days and hours are counted from a midnight, weeks from a Monday (ISO 8601). */
const WEEK_ORIGIN = new Date('2000-01-03T00:00:00Z');

export type MetricsScope = {
  /** None (the caller asked about an organization that is not theirs) counts nothing. */
  organizationIds: string[];
  /** Orders, subscriptions and refunds in another currency are left out of every figure. */
  currency: string;
  range: MetricsRange;
  productIds?: string[];
  customerIds?: string[];
  billingTypes?: (typeof BILLING_TYPES)[number][];
};

/** ` AND …` for each condition given, to follow a WHERE clause. */
export const and = (conditions: (string | null | false | undefined)[]) =>
  conditions
    .filter((condition) => typeof condition === 'string')
    .map((condition) => ` AND ${condition}`)
    .join('');

/**
 * The parts every family's statement shares: its periods, the range and the organization. Each
 * value becomes a parameter when the text first uses it (PostgreSQL refuses unused parameters).
 */
export class Statement {
  readonly params = new QueryParameters();
  private readonly added = new Map<string, string>();

  constructor(readonly scope: MetricsScope) {}

  private once(name: string, value: unknown, cast: string): string {
    let placeholder = this.added.get(name);
    if (!placeholder) {
      placeholder = this.params.add(value, cast);
      this.added.set(name, placeholder);
    }
    return placeholder;
  }

  private get unit() {
    return this.once('unit', this.scope.range.interval, '::text');
  }
  get from() {
    return this.once('from', this.scope.range.from, '::timestamptz');
  }
  get to() {
    return this.once('to', this.scope.range.to, '::timestamptz');
  }
  get organizations() {
    return this.once('organizations', this.scope.organizationIds, '::uuid[]');
  }
  get currency() {
    return this.once('currency', this.scope.currency, '::text');
  }
  get products() {
    return this.once('products', this.scope.productIds, '::uuid[]');
  }
  get customers() {
    return this.once('customers', this.scope.customerIds, '::uuid[]');
  }

  /** The calendar's time zone, as a parameter; UTC is written into the text (its fast paths below). */
  private get zone(): string {
    return this.isUtc ? `'UTC'` : this.once('zone', this.scope.range.timeZone, '::text');
  }

  private get isUtc(): boolean {
    return this.scope.range.timeZone === 'UTC';
  }

  /**
   * Hours, days and weeks of UTC have a fixed length; months and years follow the calendar, and so
   * do days and weeks of a zone with daylight saving time (a day of 23 or 25 hours). An hour is an
   * hour everywhere.
   */
  private get stride(): string | null {
    const { interval } = this.scope.range;
    const hours = FIXED_PERIOD_HOURS[interval];
    if (hours === undefined || (!this.isUtc && interval !== 'hour')) return null;
    return this.once('stride', `${hours} hours`, '::interval');
  }

  /**
   * Periods of the range's time zone, from the one holding the start date (a week starts on
   * Monday, a month on its 1st) to the one holding the end date's last instant, as instants
   * (`timestamptz`). Fixed strides are counted in hours, which no session time zone's daylight
   * saving time stretches; calendar periods step through the zone's wall clock.
   */
  periods(): string {
    const last = `${this.to} - interval '1 millisecond'`;
    const series = this.stride
      ? `generate_series(${this.periodOf(this.from)}, ${last}, ${this.stride})`
      : `generate_series(date_trunc(${this.unit}, ${this.from} AT TIME ZONE ${this.zone}), (${last}) AT TIME ZONE ${this.zone},
           ${this.once('step', `1 ${this.scope.range.interval}`, '::interval')}) AT TIME ZONE ${this.zone}`;
    return `periods AS (SELECT ${series} AS period)`;
  }

  /**
   * The start of the period holding an instant. `date_bin` is arithmetic on the instant, a third
   * cheaper per row than converting it to a calendar, which months and years (and the days of a
   * zone other than UTC) need.
   */
  periodOf(column: string): string {
    if (this.stride) {
      const origin = this.isUtc
        ? this.once('origin', WEEK_ORIGIN, '::timestamptz')
        : `date_trunc('hour', ${this.from}, ${this.zone})`;
      return `date_bin(${this.stride}, ${column}, ${origin})`;
    }
    return `(date_trunc(${this.unit}, ${column} AT TIME ZONE ${this.zone}) AT TIME ZONE ${this.zone})`;
  }

  /** The column is inside the range: a plain comparison, so the `created_at` index bounds the scan. */
  within(column: string): string {
    return `${column} >= ${this.from} AND ${column} < ${this.to}`;
  }

  /** ` AND …` for the products, customers and billing types asked about, on an orders row `alias`. */
  orderFilters(alias: string): string {
    const { productIds, customerIds, billingTypes } = this.scope;
    return and([
      productIds && `${alias}.product_id = ANY(${this.products})`,
      customerIds && `${alias}.customer_id = ANY(${this.customers})`,
      // An order of a one-time product is a purchase; one of a recurring product starts, renews or
      // changes a plan.
      billingTypes?.length === 1 &&
        `${alias}.billing_reason ${billingTypes[0] === 'one_time' ? '=' : '<>'} 'purchase'`,
    ]);
  }

  get hasProductFilters(): boolean {
    return Boolean(this.scope.productIds || this.scope.billingTypes?.length === 1);
  }

  /** The periods with the family's figures (`per_period`, keyed by `period`), 0 where it has none. */
  async rows<Row>(
    sql: SqlClient,
    perPeriod: string,
    columns: string[],
    fractionalColumns: string[] = [],
  ): Promise<Row[]> {
    const figures = [
      ...columns.map((column) => `coalesce(f.${column}, 0)::bigint AS ${column}`),
      ...fractionalColumns.map((column) => `coalesce(f.${column}, 0)::numeric AS ${column}`),
    ].join(', ');
    const { rows } = await sql.query<Record<string, unknown>>(
      `WITH ${this.periods()}, per_period AS (${perPeriod})
       SELECT p.period AS timestamp, ${figures}
       FROM periods p LEFT JOIN per_period f ON f.period = p.period
       ORDER BY p.period`,
      this.params.values,
    );
    // bigint and numeric arrive as text: sums of a year of cents outgrow 32 bits, never 2^53;
    // costs are fractions of a cent, which a double holds to far below a cent.
    return rows.map(
      (row) =>
        Object.fromEntries(
          Object.entries(row).map(([key, value]) => [key, key === 'timestamp' ? value : Number(value)]),
        ) as Row,
    );
  }
}
