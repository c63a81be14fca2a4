import { axisLimit } from '../usage/format';

// A card's small chart: a bar per period of the range, and the stretch before it as a dashed line
// over the bars (its first period over the range's first bar, and so on). The drawing's own units;
// the SVG scales to the card's width and keeps its proportions.
const WIDTH = 300;
const HEIGHT = 80;
const PLOT_TOP = 4;
const PLOT_BOTTOM = HEIGHT - 2;
const BAR_SHARE = 0.7;

export type TrendPoint = { label: string; value: number; previous: number | null };

/**
 * The figures are in the bars' tooltips and, for screen readers, summed up in the chart's label:
 * how many periods, the highest and the previous stretch's highest.
 */
export function TrendChart(props: {
  points: TrendPoint[];
  formatValue: (value: number) => string;
  /** What the chart shows, e.g. "Revenue by day, last 30 days". */
  title: string;
}) {
  const { points, formatValue } = props;
  if (points.length === 0) return null;
  const previous = points.flatMap((point) => (point.previous === null ? [] : [point.previous]));
  const top = axisLimit(Math.max(0, ...points.map((point) => point.value), ...previous));
  const y = (value: number) =>
    top === 0 ? PLOT_BOTTOM : PLOT_BOTTOM - (value / top) * (PLOT_BOTTOM - PLOT_TOP);
  const slot = WIDTH / points.length;
  const highest = points.reduce((best, point) => (point.value > best.value ? point : best));
  const line = points
    .map((point, index) => (point.previous === null ? null : `${(index + 0.5) * slot},${y(point.previous)}`))
    .filter((position) => position !== null)
    .join(' ');
  const summary =
    `${props.title}: ${points.length} bars from ${points[0]!.label} to ${points.at(-1)!.label}, ` +
    (highest.value > 0 ? `the highest ${formatValue(highest.value)} (${highest.label}).` : 'all at zero.') +
    (previous.length > 0
      ? ` The dashed line is the stretch before, at most ${formatValue(Math.max(...previous))}.`
      : '');

  return (
    <svg
      className="trend-chart"
      data-testid="trend-chart"
      role="img"
      aria-label={summary}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
    >
      {points.map((point, index) => (
        <g key={index} data-testid="trend-bar" data-value={point.value}>
          <title>
            {`${point.label}: ${formatValue(point.value)}` +
              (point.previous === null ? '' : ` (before: ${formatValue(point.previous)})`)}
          </title>
          {/* The whole column answers the pointer, so that a short or empty bar has a tooltip too. */}
          <rect className="trend-chart-slot" x={index * slot} y={0} width={slot} height={HEIGHT} />
          <rect
            className="trend-chart-bar"
            x={index * slot + (slot * (1 - BAR_SHARE)) / 2}
            y={y(point.value)}
            width={slot * BAR_SHARE}
            height={PLOT_BOTTOM - y(point.value)}
          />
        </g>
      ))}
      <line className="trend-chart-baseline" x1={0} x2={WIDTH} y1={PLOT_BOTTOM} y2={PLOT_BOTTOM} />
      {line ? <polyline className="trend-chart-previous" points={line} /> : null}
    </svg>
  );
}
