import type { MeterQuantities } from '../../domain/usage/schemas';
import { currentTimeZone } from '../components';
import { axisLimit, bucketLabel, type ChartInterval } from './format';

// The drawing's own units; the SVG scales to the card's width and keeps its proportions.
const WIDTH = 640;
const HEIGHT = 220;
const PLOT_LEFT = 64;
const PLOT_TOP = 10;
const PLOT_BOTTOM = 190;
const PLOT_WIDTH = WIDTH - PLOT_LEFT;
const BAR_SHARE = 0.8;

/** One bar per bucket, from zero (a sum of negative values goes down), the axis' limits on the left. */
export function MeterChart(props: {
  /** At least one bucket that is not zero: the page says there was no usage instead of drawing a flat line. */
  quantities: MeterQuantities['quantities'];
  interval: ChartInterval;
  /** Says what the chart shows, for screen readers: its range and meter. */
  title: string;
}) {
  const { quantities, interval } = props;
  const values = quantities.map((bucket) => bucket.quantity);
  const top = axisLimit(Math.max(0, ...values));
  const bottom = -axisLimit(-Math.min(0, ...values));
  const y = (value: number) => PLOT_TOP + ((top - value) / (top - bottom)) * (PLOT_BOTTOM - PLOT_TOP);
  const zero = y(0);
  const slot = PLOT_WIDTH / quantities.length;
  const highest = quantities.reduce((best, bucket) => (bucket.quantity > best.quantity ? bucket : best));
  const first = quantities[0];
  const last = quantities.at(-1);
  const summary =
    `${props.title}: ${quantities.length} bars, the highest ${highest.quantity.toLocaleString()} ` +
    `(${bucketLabel(highest.timestamp, interval, currentTimeZone())}).`;

  return (
    <svg
      className="meter-chart"
      data-testid="meter-chart"
      role="img"
      aria-label={summary}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
    >
      <text
        className="meter-chart-axis"
        x={PLOT_LEFT - 8}
        y={PLOT_TOP}
        dominantBaseline="hanging"
        textAnchor="end"
      >
        {top.toLocaleString()}
      </text>
      <text
        className="meter-chart-axis"
        x={PLOT_LEFT - 8}
        y={zero}
        dominantBaseline="middle"
        textAnchor="end"
      >
        0
      </text>
      {bottom < 0 ? (
        <text className="meter-chart-axis" x={PLOT_LEFT - 8} y={PLOT_BOTTOM} textAnchor="end">
          {bottom.toLocaleString()}
        </text>
      ) : null}
      {quantities.map((bucket, index) => {
        const barTop = Math.min(y(bucket.quantity), zero);
        return (
          <g key={bucket.timestamp} data-testid="meter-chart-bar" data-quantity={bucket.quantity}>
            <title>{`${bucketLabel(bucket.timestamp, interval, currentTimeZone())}: ${bucket.quantity.toLocaleString()}`}</title>
            {/* The whole column answers the pointer, so that a short or empty bar has a tooltip too. */}
            <rect
              className="meter-chart-slot"
              x={PLOT_LEFT + index * slot}
              y={PLOT_TOP}
              width={slot}
              height={PLOT_BOTTOM - PLOT_TOP}
            />
            <rect
              className="meter-chart-bar"
              x={PLOT_LEFT + index * slot + (slot * (1 - BAR_SHARE)) / 2}
              y={barTop}
              width={slot * BAR_SHARE}
              height={Math.abs(y(bucket.quantity) - zero)}
            />
          </g>
        );
      })}
      <line className="meter-chart-baseline" x1={PLOT_LEFT} x2={WIDTH} y1={zero} y2={zero} />
      {first && last ? (
        <>
          <text className="meter-chart-axis" x={PLOT_LEFT} y={HEIGHT - 4}>
            {bucketLabel(first.timestamp, interval, currentTimeZone())}
          </text>
          <text className="meter-chart-axis" x={WIDTH} y={HEIGHT - 4} textAnchor="end">
            {bucketLabel(last.timestamp, interval, currentTimeZone())}
          </text>
        </>
      ) : null}
    </svg>
  );
}
