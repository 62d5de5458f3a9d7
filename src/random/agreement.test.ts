import { describe, expect, it } from 'vitest';
import { loadGame } from '../suite/loader.js';
import { explore } from '../level.js';
import { clopperPearson } from './clopper-pearson.js';
import { randomPlay } from './monte-carlo.js';

/**
 * Two independent routes to the same number: the exact random-win probability of a complete graph
 * (absorbing Markov chain) and Monte Carlo attempts over the worker pool, on the suite's small
 * levels, under both policies.
 */
describe('Monte Carlo agrees with the exact probability', () => {
  const cases: [string, number, 'available' | 'reference', number][] = [
    ['bx19', 1, 'available', 200_000],
    ['rt42', 1, 'available', 200_000],
    ['rt42', 1, 'reference', 200_000],
    ['cm16', 1, 'available', 400_000],
    ['gv08', 1, 'available', 800_000],
  ];
  it.each(cases)('%s level %i, %s policy', async (id, level, policy, steps) => {
    const loaded = await loadGame(id);
    const exact = await explore(loaded, { level, workers: 2, policy });
    expect(exact.pWin.method).toBe('exact');
    const p = Number(exact.pWin.exact!.p) / Number(exact.pWin.exact!.q);
    const mc = await randomPlay(loaded, { level, steps, workers: 2, seed: 5, policy });
    expect(mc.cutOff).toBeLessThanOrEqual(1);
    // 99.9% two-sided Clopper-Pearson interval around the estimate (the seed is fixed: no flakiness).
    expect(clopperPearson(mc.wins, mc.episodes, 0.0005).lower).toBeLessThanOrEqual(p);
    expect(clopperPearson(mc.wins + mc.cutOff, mc.episodes, 0.0005).upper).toBeGreaterThanOrEqual(p);
    expect(mc.wins).toBeGreaterThan(10);
  });
});
