import { describe, expect, it } from 'vitest';
import { logLogPlotSvg } from './plot-svg.js';

describe('logLogPlotSvg', () => {
  const svg = logLogPlotSvg({
    title: 'Writes <&> cost',
    xLabel: 'users',
    yLabel: 'ms',
    series: [
      {
        label: 'apikit',
        color: '#1f77b4',
        points: [
          { x: 1000, y: 2 },
          { x: 100_000, y: 80 },
        ],
      },
      {
        label: 'peer',
        color: '#d62728',
        points: [
          { x: 1000, y: 0 },
          { x: 10_000, y: 5 },
        ],
      },
    ],
  });

  it('draws one line per series, leaving out points a log axis cannot show', () => {
    expect(svg.match(/<polyline /g)).toHaveLength(2);
    expect(svg.match(/<circle /g)).toHaveLength(3);
  });

  it('labels whole decades and escapes text', () => {
    expect(svg).toContain('>1k</text>');
    expect(svg).toContain('>100k</text>');
    expect(svg).toContain('Writes &lt;&amp;&gt; cost');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  });
});
