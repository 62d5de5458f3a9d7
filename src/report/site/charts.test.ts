import { describe, expect, it } from 'vitest';
import { histogramChart } from './charts.js';

/** The bars of a histogram chart: the depths each covers, its states, its height. */
function bars(svg: string): { first: number; last: number; states: number; height: number }[] {
  return [...svg.matchAll(/<rect [^>]*height="([\d.]+)"><title>depths? (\d+)(?:-(\d+))?: ([\d,]+) states<\/title><\/rect>/g)].map((m) => ({
    first: Number(m[2]),
    last: Number(m[3] ?? m[2]),
    states: Number(m[4].replace(/,/g, '')),
    height: Number(m[1]),
  }));
}

describe('histogramChart', () => {
  it('draws a bar per depth, as tall as its states', () => {
    const svg = histogramChart([1, 4, 2], 'states per depth');
    const b = bars(svg);
    expect(b.map((x) => [x.first, x.last, x.states])).toEqual([[0, 0, 1], [1, 1, 4], [2, 2, 2]]);
    expect(b[1].height / b[0].height).toBeCloseTo(4, 5);
    expect(svg).toContain('>states</text>');
  });

  it('sums consecutive depths in a bar where the level is deeper than the chart is wide, every state counted once', () => {
    const depths = 100_000;
    const histogram = Array.from({ length: depths }, (_, d) => 1 + (d % 3));
    const svg = histogramChart(histogram, 'states per depth');
    const b = bars(svg);
    // 484 pixels of plot, a bar every 2 at least: 242 bars of 414 depths (the last 226).
    expect(b).toHaveLength(242);
    expect(b[0]).toMatchObject({ first: 0, last: 413 });
    for (let i = 1; i < b.length; i++) expect(b[i].first).toBe(b[i - 1].last + 1);
    expect(b[b.length - 1].last).toBe(depths - 1);
    for (const x of b) {
      let sum = 0;
      for (let d = x.first; d <= x.last; d++) sum += histogram[d];
      expect(x.states).toBe(sum);
    }
    expect(svg).toContain('>states per 414 depths</text>');
    expect(svg.length).toBeLessThan(100_000);
  });
});
