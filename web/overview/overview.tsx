import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { MetricDashboard, MetricSlug, MetricsResponse, MetricType } from '../../domain/metrics/schemas';
import { formatMoney } from '../money/format';
import { ErrorNote } from '../components';
import { dayIn } from '../../domain/dates/rules';
import {
  axisFormat,
  formatRate,
  OVERVIEW_RANGE_IDS,
  OVERVIEW_RANGES,
  overviewWindows,
  percentChange,
  periodLabel,
  periodTick,
  pointChange,
  windowDates,
  type Change,
  type OverviewRange,
} from './format';
import { hasOrdersQuery, metricsQuery } from './queries';
import { TrendChart } from './trend-chart';
import './overview.css';

type Figure = 'money' | 'count' | 'rate';

type CardSpec = {
  id: string;
  title: string;
  /** The figure of the range: a sum, or a state at its end (MRR, active subscriptions). */
  metric: MetricSlug;
  figure: Figure;
  /** A line under the figure, from the range's answer. */
  note?: (metrics: MetricsResponse) => string;
  /** Refunds: a rise is bad news. */
  isLowerBetter?: boolean;
};

const plural = (count: number, one: string, many: string) =>
  `${count.toLocaleString()} ${count === 1 ? one : many}`;

const CARDS: CardSpec[] = [
  {
    id: 'revenue',
    title: 'Revenue',
    metric: 'revenue',
    figure: 'money',
    note: () => 'After discounts, before tax and refunds',
  },
  { id: 'orders', title: 'Orders', metric: 'orders', figure: 'count' },
  { id: 'new-customers', title: 'New customers', metric: 'new_customers', figure: 'count' },
  {
    id: 'mrr',
    title: 'Monthly recurring revenue',
    metric: 'monthly_recurring_revenue',
    figure: 'money',
    note: () => 'At the end of the range; yearly plans count a twelfth',
  },
  {
    id: 'active-subscriptions',
    title: 'Active subscriptions',
    metric: 'active_subscriptions',
    figure: 'count',
    note: () => 'At the end of the range',
  },
  {
    id: 'refunds',
    title: 'Refunds',
    metric: 'refunded_amount',
    figure: 'money',
    note: (metrics) => plural(metrics.totals.refunds, 'refund', 'refunds'),
    isLowerBetter: true,
  },
  {
    id: 'checkout-conversion',
    title: 'Checkout conversion',
    metric: 'checkouts_conversion',
    figure: 'rate',
    note: (metrics) =>
      `${metrics.totals.succeeded_checkouts.toLocaleString()} paid of ${plural(metrics.totals.checkouts, 'checkout', 'checkouts')}`,
  },
];

const FIGURE_OF_TYPE: Record<MetricType, Figure> = {
  scalar: 'count',
  currency: 'money',
  currency_sub_cent: 'money',
  percentage: 'rate',
};

/** A saved dashboard's cards: one per metric it pins, in its order, named as the answer names them. */
function dashboardCards(dashboard: MetricDashboard, metrics: MetricsResponse): CardSpec[] {
  return dashboard.metrics.flatMap((slug) => {
    const metric = metrics.metrics[slug as MetricSlug] as MetricsResponse['metrics'][MetricSlug] | undefined;
    if (!metric) return [];
    return [
      {
        id: slug,
        title: metric.display_name,
        metric: slug as MetricSlug,
        figure: FIGURE_OF_TYPE[metric.type],
      },
    ];
  });
}

function formatFigure(value: number, figure: Figure, currency: string): string {
  if (figure === 'money') return formatMoney(value, currency);
  if (figure === 'rate') return formatRate(value);
  return value.toLocaleString();
}

const capitalized = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);

/** Whether a change is good news for the seller, for its colour; the words say the direction. */
function toneClass(change: Change, isLowerBetter: boolean): string {
  if (change.tone === 'flat') return 'overview-change-flat';
  return (change.tone === 'up') !== isLowerBetter ? 'overview-change-good' : 'overview-change-bad';
}

function OverviewCard(props: {
  spec: CardSpec;
  current: MetricsResponse;
  previous: MetricsResponse;
  range: OverviewRange;
  timeZone: string;
}) {
  const { spec, current, previous, range, timeZone } = props;
  const { interval, label, previous: previousWords } = OVERVIEW_RANGES[range];
  const value = current.totals[spec.metric];
  const before = previous.totals[spec.metric];
  // The two answers share a currency unless the organization's main currency changed in between.
  const comparable = spec.figure !== 'money' || current.currency === previous.currency;
  const change = spec.figure === 'rate' ? pointChange(value, before) : percentChange(value, before);
  const format = (amount: number) => formatFigure(amount, spec.figure, current.currency);
  return (
    <section className="overview-card" aria-label={spec.title} data-testid={`overview-${spec.id}`}>
      <h3>{spec.title}</h3>
      <p className="overview-figure" data-testid="overview-figure">
        {format(value)}
      </p>
      {comparable ? (
        <p className={`overview-change ${toneClass(change, spec.isLowerBetter ?? false)}`}>
          <span className="overview-change-value" data-testid="overview-change">
            {change.text}
          </span>{' '}
          <span className="muted">
            vs {previousWords} ({formatFigure(before, spec.figure, previous.currency)})
          </span>
        </p>
      ) : (
        <p className="overview-change muted">
          The stretch before was counted in {previous.currency.toUpperCase()}: no comparison.
        </p>
      )}
      {spec.note ? <p className="overview-note muted">{spec.note(current)}</p> : null}
      <TrendChart
        title={`${spec.title} by ${interval}, ${label.toLowerCase()}`}
        formatValue={format}
        formatTick={axisFormat(spec.figure, current.currency)}
        isFractional={spec.figure === 'rate'}
        seriesNames={{ current: label, previous: capitalized(previousWords) }}
        points={current.periods.map((period, index) => {
          const earlier = comparable ? previous.periods[index] : undefined;
          return {
            label: periodLabel(period.timestamp, interval, timeZone),
            tick: periodTick(period.timestamp, interval, timeZone),
            value: period[spec.metric],
            previous: earlier ? earlier[spec.metric] : null,
            previousLabel: earlier ? periodLabel(earlier.timestamp, interval, timeZone) : null,
          };
        })}
      />
    </section>
  );
}

/**
 * The dashboard's landing figures: revenue, orders, new customers, MRR, active subscriptions,
 * refunds and checkout conversion over a range, each against the stretch before it.
 */
export function Overview(props: {
  organizationId: string;
  range: OverviewRange;
  /** The organization's: its days are the ranges' and the periods'. */
  timeZone: string;
  onRange: (range: OverviewRange) => void;
  /** A saved dashboard the viewer pinned: its metrics instead of the standard cards. */
  dashboard?: MetricDashboard | null;
  /** Above the cards: the dashboard picker, and for managers the saving and deleting. */
  controls?: ReactNode;
}) {
  const { organizationId, range, timeZone, dashboard } = props;
  const windows = overviewWindows(range, dayIn(new Date(), timeZone));
  const current = useQuery(metricsQuery(organizationId, windows.current, timeZone));
  const previous = useQuery(metricsQuery(organizationId, windows.previous, timeZone));
  const hasOrders = useQuery(hasOrdersQuery(organizationId));
  const error = current.error ?? previous.error ?? hasOrders.error;
  return (
    <section className="card overview" aria-label="Figures">
      <div className="overview-heading">
        <h2>{OVERVIEW_RANGES[range].label}</h2>
        {hasOrders.data ? (
          <label className="field overview-range">
            <span>Range</span>
            <select value={range} onChange={(event) => props.onRange(event.target.value as OverviewRange)}>
              {OVERVIEW_RANGE_IDS.map((id) => (
                <option key={id} value={id}>
                  {OVERVIEW_RANGES[id].label}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </div>
      {props.controls}
      <ErrorNote message={error?.message ?? null} />
      {error ? null : hasOrders.data === false ? (
        <p className="notice" data-testid="overview-empty">
          No sales yet — <Link to="/dashboard/checkout-links">share a checkout link</Link> to get your first
          order.
        </p>
      ) : !current.data || !previous.data || hasOrders.data === undefined ? (
        <p>Loading…</p>
      ) : (
        <>
          <p className="muted overview-dates" data-testid="overview-dates">
            {windowDates(windows.current)}, against {windowDates(windows.previous)}; days in{' '}
            {timeZone.replaceAll('_', ' ')}.
          </p>
          {dashboard ? (
            <h3 className="overview-dashboard-name" data-testid="overview-dashboard">
              {dashboard.name}
            </h3>
          ) : null}
          {dashboard && dashboard.metrics.length === 0 ? (
            <p className="muted">This dashboard pins no metrics.</p>
          ) : null}
          <div className="overview-cards">
            {(dashboard ? dashboardCards(dashboard, current.data) : CARDS).map((spec) => (
              <OverviewCard
                key={spec.id}
                spec={spec}
                current={current.data}
                previous={previous.data}
                range={range}
                timeZone={timeZone}
              />
            ))}
          </div>
        </>
      )}
    </section>
  );
}
