/**
 * bx19's own solver: a breadth-first search over boards only (player, blocks, filled holes),
 * ignoring the budget and the undo history. A shortest win never needs undo, so the search space
 * is the puzzle itself (thousands of boards) rather than the full states (tens of millions), and
 * the push sequence it finds is a shortest one in moves. games/record.js uses it when its exact
 * search over full states runs into its cap; the tests check its wins within each level's budget.
 */
import { GameAction, type Action } from '../../src/engine/index.js';
import game, { type Bx19State } from './index.js';

const MOVES: readonly Action[] = [GameAction.ACTION1, GameAction.ACTION2, GameAction.ACTION3, GameAction.ACTION4].map((id) => ({ id }));

/** The puzzle position of a state, without budget and history. */
export const boardKey = (s: Bx19State): string => `${s.player}|${s.blocks.join('.')}|${s.filled}`;

/** A shortest move sequence (no undo) that wins `level` from its reset state, or undefined when none exists. */
export function winningActions(level: number): Action[] | undefined {
  // Every state is stepped with nothing spent and no history, so the budget never ends the search.
  const fresh = (s: Bx19State): Bx19State => ({ ...s, used: 0, history: new Uint8Array(0) });
  const root = game.init(level);
  if (game.status(root) === 'won') return [];
  const parent = new Map<string, [string, Action] | null>([[boardKey(root), null]]);
  let frontier = [root];
  while (frontier.length) {
    const next: Bx19State[] = [];
    for (const s of frontier) {
      for (const a of MOVES) {
        const t = game.step(fresh(s), a);
        const k = boardKey(t);
        if (parent.has(k)) continue;
        parent.set(k, [boardKey(s), a]);
        if (game.status(t) === 'won') {
          const path: Action[] = [];
          for (let p = k; parent.get(p); p = parent.get(p)![0]) path.push(parent.get(p)![1]);
          return path.reverse();
        }
        next.push(t);
      }
    }
    frontier = next;
  }
  return undefined;
}
