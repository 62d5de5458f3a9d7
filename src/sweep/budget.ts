/** The sweep's budget: how far each level is explored and how long qualification plays. */
import { InputError } from '../errors.js';
import type { Budget } from '../report/index.js';

/**
 * Defaults sized so a sweep of the whole suite finishes in a few minutes on a 2-core machine: with
 * 2,500,000 states a level the suite took 84 s (200,000: 37 s), and every level up to that size is
 * explored completely, so its probability is exact (cm16 3-6, bx19 2). Qualification at scale 0.05
 * plays 2,500 random steps per level, 50,000 per non-tutorial level, and fuzzes 50,000 steps across
 * the levels: a few seconds per game. A non-tutorial level the graph leaves inconclusive gets
 * 2,000,000 random steps: about 30,000 attempts of 64 steps, enough to certify p < 1e-4 when none wins.
 */
export const DEFAULT_BUDGET: Readonly<Budget> = { nodes: 2_500_000, seconds: 30, stepsScale: 0.05, randomSteps: 2_000_000 };

/**
 * The default for real ARC games (Python, about a millisecond a step, often several per state): the
 * 14 shared games, 110 levels, in about half an hour on a 2-core machine. A level is explored for 6 s
 * (20,000 states at most): small levels completely (exact probabilities), the rest to bounds;
 * qualification at scale 0.001 plays 50 random steps per level, 1,000 per non-tutorial level and
 * fuzzes 1,000 steps a game; a level left inconclusive gets 1,000 random steps (bounds: 29,956
 * clean attempts would certify 1 in 10,000).
 */
export const DEFAULT_ARC_BUDGET: Readonly<Budget> = { nodes: 20_000, seconds: 6, stepsScale: 0.001, randomSteps: 1_000 };

/**
 * The budget a sweep starts from: the ARC default when it sweeps the real ARC games of --arc-games
 * (all of them, or those --games names: their steps are Python's, about a millisecond each), else
 * the suite's. `--budget` changes it key by key.
 */
export const sweepBudget = (options: { arcGames?: string }): Readonly<Budget> => (options.arcGames !== undefined ? DEFAULT_ARC_BUDGET : DEFAULT_BUDGET);

const KEYS: Record<string, keyof Budget> = { nodes: 'nodes', seconds: 'seconds', 'steps-scale': 'stepsScale', 'random-steps': 'randomSteps' };

/** The largest value of each: beyond any run (a year of seconds, 10^15 states or steps, a scale of a million). */
const MAX: Record<keyof Budget, number> = { nodes: 1e15, seconds: 31_536_000, stepsScale: 1e6, randomSteps: 1e15 };

/** Parses `nodes=N,seconds=S,steps-scale=X` (any subset, any order, each once) over `base`. */
export function parseBudget(text: string, base: Readonly<Budget> = DEFAULT_BUDGET): Budget {
  const budget = { ...base };
  const seen = new Set<keyof Budget>();
  for (const part of text.split(',')) {
    const [key, value, extra] = part.split('=');
    const field = KEYS[key?.trim() ?? ''];
    if (field === undefined || value === undefined || extra !== undefined) {
      throw new InputError(`--budget: expected key=value pairs among ${Object.keys(KEYS).join(', ')} (e.g. nodes=100000,seconds=30,steps-scale=0.1,random-steps=1000000), got '${part}'`);
    }
    if (seen.has(field)) throw new InputError(`--budget: ${key.trim()} is given twice`);
    seen.add(field);
    const n = Number(value);
    const integer = field === 'nodes' || field === 'randomSteps';
    // integers past 2^53 are not counted exactly (and no run gets near them: 1e15 states or steps)
    const ok = value.trim() !== '' && Number.isFinite(n) && (n > 0 || (field === 'randomSteps' && n === 0)) && (!integer || Number.isSafeInteger(n)) && n <= MAX[field];
    if (!ok) throw new InputError(`--budget: ${key} must be ${field === 'randomSteps' ? 'a non-negative integer' : integer ? 'a positive integer' : 'a positive number'} up to ${MAX[field]}, got '${value}'`);
    budget[field] = n;
  }
  return budget;
}

export const formatBudget = (b: Budget): string => `nodes=${b.nodes},seconds=${b.seconds},steps-scale=${b.stepsScale},random-steps=${b.randomSteps}`;
