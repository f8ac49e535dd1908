/** One line of a plot: points in data units (both axes logarithmic, so every value > 0). */
export interface PlotSeries {
  label: string;
  color: string;
  points: { x: number; y: number }[];
}

export interface PlotOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  series: PlotSeries[];
  width?: number;
  height?: number;
}

const MARGIN = { left: 70, right: 20, top: 40, bottom: 50 };
/** Height of one legend line below the plot. */
const LEGEND_LINE = 16;

/**
 * A small self-contained SVG line plot with logarithmic axes (decade ticks), one polyline and
 * dots per series, and a legend. Points that are not finite and positive are left out.
 *
 * @example
 * const svg = logLogPlotSvg({ title: 'Write cost', xLabel: 'users', yLabel: 'ms', series: [{ label: 'apikit', color: '#1f77b4', points: [{ x: 1000, y: 2 }] }] });
 */
export function logLogPlotSvg(options: PlotOptions): string {
  const width = options.width ?? 640;
  // The legend takes one line per series under the x axis label.
  const height = (options.height ?? 400) + options.series.length * LEGEND_LINE;
  const legendTop = height - options.series.length * LEGEND_LINE;
  const series = options.series.map((s) => ({
    ...s,
    points: s.points.filter(
      (p) => p.x > 0 && p.y > 0 && Number.isFinite(p.x) && Number.isFinite(p.y),
    ),
  }));
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  const ys = series.flatMap((s) => s.points.map((p) => p.y));
  const [x0, x1] = decades(xs);
  const [y0, y1] = decades(ys);
  const plotW = width - MARGIN.left - MARGIN.right;
  const plotH = legendTop - MARGIN.top - MARGIN.bottom;
  const px = (x: number) => MARGIN.left + ((Math.log10(x) - x0) / (x1 - x0)) * plotW;
  const py = (y: number) => MARGIN.top + plotH - ((Math.log10(y) - y0) / (y1 - y0)) * plotH;
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">${escape(options.title)}</text>`,
  );
  for (let d = x0; d <= x1; d++) {
    const x = px(10 ** d);
    parts.push(
      `<line x1="${r(x)}" y1="${MARGIN.top}" x2="${r(x)}" y2="${MARGIN.top + plotH}" stroke="#ddd"/>`,
      `<text x="${r(x)}" y="${MARGIN.top + plotH + 16}" text-anchor="middle">${tickLabel(10 ** d)}</text>`,
    );
  }
  for (let d = y0; d <= y1; d++) {
    const y = py(10 ** d);
    parts.push(
      `<line x1="${MARGIN.left}" y1="${r(y)}" x2="${MARGIN.left + plotW}" y2="${r(y)}" stroke="#ddd"/>`,
      `<text x="${MARGIN.left - 6}" y="${r(y + 4)}" text-anchor="end">${tickLabel(10 ** d)}</text>`,
    );
  }
  parts.push(
    `<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#333"/>`,
    `<text x="${MARGIN.left + plotW / 2}" y="${MARGIN.top + plotH + 36}" text-anchor="middle">${escape(options.xLabel)}</text>`,
    `<text transform="translate(16 ${MARGIN.top + plotH / 2}) rotate(-90)" text-anchor="middle">${escape(options.yLabel)}</text>`,
  );
  series.forEach((s, i) => {
    if (s.points.length > 0) {
      const coords = s.points.map((p) => `${r(px(p.x))},${r(py(p.y))}`).join(' ');
      parts.push(
        `<polyline points="${coords}" fill="none" stroke="${escape(s.color)}" stroke-width="2"/>`,
      );
      for (const p of s.points)
        parts.push(
          `<circle cx="${r(px(p.x))}" cy="${r(py(p.y))}" r="3.5" fill="${escape(s.color)}"/>`,
        );
    }
    const lx = MARGIN.left;
    const ly = legendTop + i * LEGEND_LINE + 4;
    parts.push(
      `<line x1="${lx}" y1="${ly - 4}" x2="${lx + 18}" y2="${ly - 4}" stroke="${escape(s.color)}" stroke-width="2"/>`,
      `<text x="${lx + 24}" y="${ly}">${escape(s.label)}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}

/** Whole decades around the values ([0, 1] when there are none). */
function decades(values: number[]): [number, number] {
  if (values.length === 0) return [0, 1];
  const lo = Math.floor(Math.log10(Math.min(...values)));
  const hi = Math.ceil(Math.log10(Math.max(...values)));
  return [lo, hi > lo ? hi : lo + 1];
}

function tickLabel(value: number): string {
  if (value >= 1000) return `${value / 1000}k`;
  return String(Number(value.toPrecision(3)));
}

function r(n: number): string {
  return n.toFixed(1);
}

function escape(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
