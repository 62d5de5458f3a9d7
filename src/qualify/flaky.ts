/** Repeats a flaky step's sequence in its reproduction until replay is all but sure to catch it. */
import { rethrowInterruption } from '../errors.js';
import { GameAction, unplayable, type Action, type Check, type Game } from '../engine/index.js';
import { reproduces } from './shrink.js';

export const RESET: Action = { id: GameAction.RESET };

/** Plays sampled to tell how often a fault shows. */
const SAMPLES = 64;

/** Repeats of a sequence that gives replay `chance` to catch its fault each time, for replay to miss it with probability under 1e-9 (at most 64). */
const repeatsFor = (chance: number): number => Math.min(64, Math.max(1, Math.ceil(Math.log(1e-9) / Math.log(1 - chance))));

const repeated = (actions: Action[], repeats: number): Action[] => {
  const recorded: Action[] = [...actions];
  for (let r = 1; r < repeats; r++) recorded.push(RESET, RESET, ...actions);
  return recorded;
};

/**
 * A flaky fault shows only sometimes: the recording repeats its sequence (two RESETs between, the
 * second a full reset back to the level) often enough that replay misses it with probability under
 * 1e-9. A nondeterministic step: replay steps every transition twice and compares the repeats, so
 * each repeat gives it two chances to see successors differ; no actions: the level's reset state
 * itself differs from one reset to the next. Any other fault (a render or an exception that comes
 * and goes): how often the last action shows it, replayed from the level's reset, is that chance;
 * a fault that shows every time (or that a replay alone cannot show) is recorded once.
 */
export function repeatFlaky(game: Game, level: number, actions: Action[], check: Check = 'nondeterminism', message?: string): Action[] {
  if (check !== 'nondeterminism') {
    if (unplayable(check) || actions.length === 0) return [...actions];
    let shown = 0;
    for (let i = 0; i < SAMPLES; i++) if (reproduces(game, level, check, actions, message)) shown++;
    return shown === 0 || shown === SAMPLES ? [...actions] : repeated(actions, repeatsFor(shown / SAMPLES));
  }
  const counts = new Map<string, number>();
  try {
    let state = game.init(level);
    for (const a of actions.slice(0, -1)) state = game.step(state, a);
    const last = actions.at(-1);
    for (let i = 0; i < SAMPLES; i++) {
      const key = Buffer.from(game.encode(last ? game.step(state, last) : game.init(level))).toString('latin1');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  } catch (err) {
    rethrowInterruption(err);
    // The sequence itself fails when played again here (a game whose restored states behave unlike
    // it): recorded once, as found.
    return [...actions];
  }
  let same = 0;
  for (const c of counts.values()) same += (c / SAMPLES) ** 2;
  const differ = Math.max(1 - same, 1 / SAMPLES);
  // Two chances a repeat: 1 - (1 - differ)^2.
  return repeated(actions, repeatsFor(1 - (1 - differ) ** 2));
}
