// Line charts of training curves, drawn with d3 into an <svg>'s plot group: linear x
// (optimiser step) and y scales, axes with their labels, one path per series (a series
// may be drawn faint, as a line, or as dots), and the lookup behind the hover readout:
// the x nearest the pointer and every series' value at that x. Smoothing is an
// exponential moving average, bias-corrected at the start (as TensorBoard draws it).
import * as d3 from 'd3';

export interface CurvePoint {
  x: number;
  y: number;
}

export interface Series {
  key: string;
  label: string;
  color: string;
  points: CurvePoint[];
  style: 'line' | 'faint' | 'dots';
  /** Mark each point of a line (per-epoch curves have few). */
  markers?: boolean;
}

export interface ChartFrame {
  width: number;
  height: number;
  xLabel: string;
  yLabel: string;
  /** Fixed y domain (rates in [0, 1]); otherwise the data's extent, padded. */
  yDomain?: [number, number];
  /** The x axis runs at least this far (charts of one run share their steps). */
  xMax?: number;
}

export interface Scales {
  x: d3.ScaleLinear<number, number>;
  y: d3.ScaleLinear<number, number>;
}

export const MARGIN = { top: 10, right: 18, bottom: 38, left: 54 };

/** EMA over `points` with a span of about 1/30 of the curve (at least 5 points), debiased. */
export function smooth(points: readonly CurvePoint[]): CurvePoint[] {
  const alpha = 2 / (Math.max(5, points.length / 30) + 1);
  let avg = 0;
  let weight = 0;
  return points.map((p) => {
    avg = (1 - alpha) * avg + alpha * p.y;
    weight = (1 - alpha) * weight + alpha;
    return { x: p.x, y: avg / weight };
  });
}

export function scales(frame: ChartFrame, series: readonly Series[]): Scales {
  const all = series.flatMap((s) => s.points);
  const [x0, x1] = all.length ? (d3.extent(all, (p) => p.x) as [number, number]) : [0, 1];
  const x = d3
    .scaleLinear()
    .domain([Math.min(0, x0), Math.max(x1, frame.xMax ?? 1)])
    .range([MARGIN.left, frame.width - MARGIN.right]);
  const [y0, y1] = frame.yDomain ?? (all.length ? (d3.extent(all, (p) => p.y) as [number, number]) : [0, 1]);
  const pad = frame.yDomain ? 0 : (y1 - y0) * 0.05 || 1;
  const y = d3
    .scaleLinear()
    .domain([y0 - pad, y1 + pad])
    .nice()
    .range([frame.height - MARGIN.bottom, MARGIN.top]);
  return { x, y };
}

/** Redraws axes, labels and series into `g` (everything in it is replaced). */
export function drawCurves(g: SVGGElement, frame: ChartFrame, series: readonly Series[], s: Scales): void {
  const root = d3.select(g);
  root.selectChildren().remove();
  const bottom = frame.height - MARGIN.bottom;
  root
    .append('g')
    .attr('class', 'grid')
    .attr('transform', `translate(${MARGIN.left},0)`)
    .call(
      d3
        .axisLeft(s.y)
        .ticks(5)
        .tickSize(-(frame.width - MARGIN.left - MARGIN.right))
        .tickFormat(() => ''),
    );
  const steps = s.x.ticks(Math.max(2, Math.floor(frame.width / 90))).filter(Number.isInteger);
  root
    .append('g')
    .attr('class', 'axis x')
    .attr('transform', `translate(0,${bottom})`)
    .call(d3.axisBottom(s.x).tickValues(steps).tickFormat(d3.format('~s')));
  root
    .append('g')
    .attr('class', 'axis y')
    .attr('transform', `translate(${MARGIN.left},0)`)
    .call(d3.axisLeft(s.y).ticks(5).tickFormat(d3.format('~g')));
  root
    .append('text')
    .attr('class', 'axis-label')
    .attr('x', (MARGIN.left + frame.width - MARGIN.right) / 2)
    .attr('y', frame.height - 4)
    .attr('text-anchor', 'middle')
    .text(frame.xLabel);
  root
    .append('text')
    .attr('class', 'axis-label')
    .attr('transform', `translate(14,${(MARGIN.top + bottom) / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .text(frame.yLabel);

  const line = d3
    .line<CurvePoint>()
    .x((p) => s.x(p.x))
    .y((p) => s.y(p.y));
  for (const se of series) {
    if (se.style !== 'dots') {
      root
        .append('path')
        .attr('class', `series ${se.style} ${se.key}`)
        .attr('data-series', se.key)
        .attr('data-points', se.points.length)
        .attr('fill', 'none')
        .attr('stroke', se.color)
        .attr('d', line(se.points));
    }
    if (se.style === 'dots' || se.markers) {
      root
        .append('g')
        .attr('class', `series dots ${se.key}`)
        .attr('data-series', se.key)
        .selectAll('circle')
        .data(se.points)
        .join('circle')
        .attr('cx', (p) => s.x(p.x))
        .attr('cy', (p) => s.y(p.y))
        .attr('r', se.markers ? 2.5 : 3.5)
        .attr('fill', se.color);
    }
  }
}

/** Sorted distinct x values over all series. */
export function xsOf(series: readonly Series[]): number[] {
  return [...new Set(series.flatMap((s) => s.points.map((p) => p.x)))].sort((a, b) => a - b);
}

/** Index into `xs` of the x nearest pixel `px`. */
export function nearestX(xs: readonly number[], s: Scales, px: number): number {
  return d3.leastIndex(xs, (x) => Math.abs(s.x(x) - px)) ?? 0;
}

/** Each series' value at exactly `x` (series without a point there are left out). */
export function valuesAt(series: readonly Series[], x: number): { series: Series; y: number }[] {
  const at = d3.bisector((p: CurvePoint) => p.x);
  return series.flatMap((se) => {
    const i = at.left(se.points, x);
    return i < se.points.length && se.points[i].x === x ? [{ series: se, y: se.points[i].y }] : [];
  });
}
