import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Line,
  Tooltip,
  XAxis,
  YAxis,
  type TooltipContentProps,
} from 'recharts';

// A card's chart (Recharts, docs/web.md): a bar per period of the range against axes, the same
// periods of the stretch before as a dashed line over them (its first period over the range's
// first bar, and so on), and both values of a period in the tooltip on hover or with the arrow keys.

export type TrendPoint = {
  /** The period as people name it in the tooltip ("Tue, Nov 24"). */
  label: string;
  /** Shorter, under the axis ("Nov 24"). */
  tick: string;
  value: number;
  /** The same period of the stretch before, and its name; null when there is none to compare. */
  previous: number | null;
  previousLabel: string | null;
};

const CHART_HEIGHT = 150;
const BAR_COLOR = '#3451d1';
const PREVIOUS_COLOR = '#9a6700';

function TrendTooltip(
  props: TooltipContentProps<number, string> & {
    points: TrendPoint[];
    formatValue: (value: number) => string;
    seriesNames: { current: string; previous: string };
  },
) {
  const index = typeof props.activeIndex === 'string' ? Number(props.activeIndex) : props.activeIndex;
  const point = props.active && typeof index === 'number' ? props.points[index] : undefined;
  if (!point) return null;
  return (
    <div className="trend-tooltip" data-testid="trend-tooltip">
      <p className="trend-tooltip-current">
        <span className="trend-swatch trend-swatch-current" aria-hidden="true" />
        {point.label}: <strong>{props.formatValue(point.value)}</strong>
      </p>
      {point.previous !== null ? (
        <p className="trend-tooltip-previous">
          <span className="trend-swatch trend-swatch-previous" aria-hidden="true" />
          {point.previousLabel ?? props.seriesNames.previous}: {props.formatValue(point.previous)}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The figures are in the tooltip and, for screen readers, summed up in the figure's caption: how
 * many periods, the highest, and the previous stretch's highest.
 */
export function TrendChart(props: {
  points: TrendPoint[];
  formatValue: (value: number) => string;
  /** Axis labels: shorter than `formatValue` ("$1.2K"). */
  formatTick: (value: number) => string;
  /** Ratios (0 to 1) have ticks between the whole numbers; counts and minor units do not. */
  isFractional?: boolean;
  /** What the chart shows, e.g. "Revenue by day, last 30 days". */
  title: string;
  seriesNames: { current: string; previous: string };
}) {
  const { points, formatValue, seriesNames } = props;
  if (points.length === 0) return null;
  const previous = points.flatMap((point) => (point.previous === null ? [] : [point.previous]));
  const highest = points.reduce((best, point) => (point.value > best.value ? point : best));
  const summary =
    `${props.title}: ${points.length} bars from ${points[0]!.label} to ${points.at(-1)!.label}, ` +
    (highest.value > 0 ? `the highest ${formatValue(highest.value)} (${highest.label}).` : 'all at zero.') +
    (previous.length > 0
      ? ` The dashed line is ${seriesNames.previous.toLowerCase()}, at most ${formatValue(Math.max(...previous))}.`
      : '');

  return (
    <figure className="trend-chart" data-testid="trend-chart" aria-label={summary}>
      <ComposedChart
        responsive
        data={points}
        width="100%"
        height={CHART_HEIGHT}
        margin={{ top: 8, right: 4, bottom: 0, left: 0 }}
        title={props.title}
        desc={summary}
      >
        <CartesianGrid vertical={false} stroke="#ececf0" />
        <XAxis
          dataKey="tick"
          tickLine={false}
          interval="preserveStartEnd"
          minTickGap={12}
          tick={{ fontSize: 11, fill: '#57606a' }}
        />
        <YAxis
          width={48}
          tickLine={false}
          axisLine={false}
          allowDecimals={props.isFractional ?? false}
          tickCount={3}
          tickFormatter={(value: number) => props.formatTick(value)}
          tick={{ fontSize: 11, fill: '#57606a' }}
        />
        <Tooltip
          cursor={{ fill: '#f0f0f2' }}
          isAnimationActive={false}
          content={(tooltip) => (
            <TrendTooltip
              {...(tooltip as TooltipContentProps<number, string>)}
              points={points}
              formatValue={formatValue}
              seriesNames={seriesNames}
            />
          )}
        />
        <Bar
          dataKey="value"
          name={seriesNames.current}
          className="trend-current"
          fill={BAR_COLOR}
          isAnimationActive={false}
        />
        {previous.length > 0 ? (
          <Line
            dataKey="previous"
            name={seriesNames.previous}
            className="trend-previous"
            type="monotone"
            stroke={PREVIOUS_COLOR}
            strokeWidth={1.5}
            strokeDasharray="4 3"
            dot={false}
            activeDot={{ r: 3 }}
            connectNulls
            isAnimationActive={false}
          />
        ) : null}
      </ComposedChart>
      <figcaption className="trend-legend">
        <span>
          <span className="trend-swatch trend-swatch-current" aria-hidden="true" />
          {seriesNames.current}
        </span>
        {previous.length > 0 ? (
          <span>
            <span className="trend-swatch trend-swatch-previous" aria-hidden="true" />
            {seriesNames.previous}
          </span>
        ) : null}
      </figcaption>
    </figure>
  );
}
