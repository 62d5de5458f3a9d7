/** Loop erasure of an action sequence: the walk from a level's reset state without the cycles it went round. */
import { rethrowInterruption } from '../errors.js';
import type { Action } from './actions.js';
import type { Game } from './game.js';

/**
 * Removes the loops of the prefix: from a state met again, jump to its last visit. The last
 * action is kept and never played (it may be the step that threw, hung or ran out of memory).
 */
export function cutCycles(game: Game, level: number, actions: readonly Action[]): Action[] {
  if (actions.length < 2) return [...actions];
  const last = actions[actions.length - 1];
  const visits: string[] = [];
  try {
    let state = game.init(level);
    visits.push(Buffer.from(game.encode(state)).toString('latin1'));
    for (const action of actions.slice(0, -1)) {
      state = game.step(state, action);
      visits.push(Buffer.from(game.encode(state)).toString('latin1'));
    }
  } catch (err) {
    rethrowInterruption(err);
    return [...actions];
  }
  const lastVisit = new Map<string, number>();
  visits.forEach((key, i) => lastVisit.set(key, i));
  const kept: Action[] = [];
  for (let i = lastVisit.get(visits[0])!; i < visits.length - 1; ) {
    kept.push(actions[i]);
    i = lastVisit.get(visits[i + 1])!;
  }
  kept.push(last);
  return kept;
}
