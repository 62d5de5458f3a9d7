/** Repeats a flaky step's sequence in its reproduction until replay is all but sure to catch it. */
import { GameAction, type Action, type Game } from '../engine/index.js';

export const RESET: Action = { id: GameAction.RESET };

/**
 * A flaky step differs only sometimes: the recording repeats the sequence (two RESETs between,
 * the second a full reset back to the level) often enough that replay, which steps every
 * transition twice and compares repeats, misses it with probability under 1e-9. No actions: the
 * level's reset state itself differs from one reset to the next.
 */
export function repeatFlaky(game: Game, level: number, actions: Action[]): Action[] {
  let state = game.init(level);
  for (const a of actions.slice(0, -1)) state = game.step(state, a);
  const last = actions.at(-1);
  const counts = new Map<string, number>();
  const samples = 64;
  for (let i = 0; i < samples; i++) {
    const key = Buffer.from(game.encode(last ? game.step(state, last) : game.init(level))).toString('latin1');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  let same = 0;
  for (const c of counts.values()) same += (c / samples) ** 2;
  const differ = Math.max(1 - same, 1 / samples);
  const repeats = Math.min(64, Math.max(1, Math.ceil(Math.log(1e-9) / Math.log(1 - differ) / 2)));
  const recorded: Action[] = [...actions];
  for (let r = 1; r < repeats; r++) recorded.push(RESET, RESET, ...actions);
  return recorded;
}
