import { describe, expect, it } from 'vitest';
import { corridor, lattice, rectangleWin, walkGraph } from '../../test/fixtures/walks.js';
import { graphOf } from '../../test/support/graphs.js';
import { GameAction } from '../engine/index.js';
import { NodeFlag } from '../graph/index.js';
import { analyze, analyzeAsync } from './analyze.js';

describe('the analysis with the event loop turning', () => {
  it('gives what the synchronous analysis gives', async () => {
    const graph = walkGraph(lattice(12, 12, [3, 4], true));
    const sync = analyze(graph, { withinK: 30 });
    expect(sync.pWin.method).toBe('exact');
    expect(sync.withinK!.exact).toBeDefined();
    expect(await analyzeAsync(graph, { withinK: 30, signal: new AbortController().signal })).toEqual(sync);
  });

  it('lets timers run while the solvers work, and stops them early on an abort during it, with sound bounds', async () => {
    // an 80 x 80 lattice: the exact budget runs out after many seconds, then interval iteration
    const graph = walkGraph(lattice(80, 80, [40, 40], true));
    const abort = new AbortController();
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    setTimeout(() => abort.abort(), 400);
    const started = performance.now();
    const a = await analyzeAsync(graph, { signal: abort.signal });
    clearInterval(ticker);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(ticks).toBeGreaterThan(5);
    expect(a.pWin).toMatchObject({ method: 'interval', interrupted: true, converged: false });
    expect(a.pWin.exactGaveUp).toMatch(/^interrupted/);
    const truth = rectangleWin(80, 80, 40, 40);
    expect(a.pWin.lower).toBeLessThanOrEqual(truth);
    expect(a.pWin.upper).toBeGreaterThanOrEqual(truth);
  });

  it('stops the probability within K actions early on an abort during it, with sound bounds', async () => {
    // P(win) is exact at once (a fair corridor: 1/2); the horizon's values move for millions of steps
    const graph = walkGraph(corridor(2000, 1000));
    const whole = analyze(graph, { withinK: 200 });
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 300);
    const started = performance.now();
    const a = await analyzeAsync(graph, { withinK: 50_000_000, signal: abort.signal });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(a.pWin.method).toBe('exact');
    expect(a.withinK).toMatchObject({ k: 50_000_000, interrupted: true });
    // the steps done give a lower bound (200 steps are done long before 300 ms); P(win) at all, an upper
    expect(a.withinK!.lower).toBeGreaterThanOrEqual(whole.withinK!.lower);
    expect(a.withinK!.lower).toBeLessThanOrEqual(a.pWin.upper);
    expect(a.withinK!.upper).toBe(a.pWin.upper);
  });

  it('ends the horizon at once where a step changes nothing: a graph without cycles, K far past its depth', () => {
    // 0 -ACTION1-> 1 -ACTION1-> win, ACTION2 loses from both: P(win) = 1/4 within any K >= 2
    const [one, two] = [1 << GameAction.ACTION1, 1 << GameAction.ACTION2];
    const graph = graphOf([GameAction.ACTION1, GameAction.ACTION2], [
      { flags: NodeFlag.EXPANDED, edges: [{ to: 1, keys: one }, { to: 3, keys: two }] },
      { flags: NodeFlag.EXPANDED, edges: [{ to: 2, keys: one }, { to: 3, keys: two }] },
      { flags: NodeFlag.WON, edges: [] },
      { flags: NodeFlag.LOST, edges: [] },
    ]);
    const started = performance.now();
    const a = analyze(graph, { withinK: 2_000_000_000 });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(a.withinK!.interrupted).toBeUndefined();
    expect(a.withinK!.lower).toBeLessThanOrEqual(0.25);
    expect(a.withinK!.upper).toBeGreaterThanOrEqual(0.25);
    expect(a.withinK!.upper - a.withinK!.lower).toBeLessThan(1e-12);
  });

  it('runs whole when the signal had aborted before it started (the exploration was stopped, its graph is analysed)', async () => {
    const graph = walkGraph(lattice(12, 12, [3, 4], true));
    const abort = new AbortController();
    abort.abort();
    const a = await analyzeAsync(graph, { signal: abort.signal });
    expect(a.pWin.method).toBe('exact');
    expect(a.pWin.interrupted).toBeUndefined();
  });
});
