/** Test helpers shared by the suite games' tests. */
import { GRID, GameAction } from '../../src/engine/index.js';
import { clickClasses, type Game } from '../../src/engine/index.js';

/**
 * Cells whose click leads elsewhere than their class's representative: every cell of every click
 * target, and every `stride`-th cell outside them (compared with the rest class). Empty when the
 * game's click targets are a true partition of equivalent clicks in `state`.
 */
export function clickClassViolations(game: Game, state: unknown, stride = 1): string[] {
  const hex = (x: number, y: number): string => Buffer.from(game.encode(game.step(state, { id: GameAction.ACTION6, x, y }))).toString('hex');
  const bad: string[] = [];
  const inTarget = new Set<number>();
  for (const r of game.clickTargets!(state)) {
    const want = hex(r.x, r.y);
    for (let y = r.y; y < r.y + r.h; y++) {
      for (let x = r.x; x < r.x + r.w; x++) {
        inTarget.add(y * GRID + x);
        if (hex(x, y) !== want) bad.push(`(${x},${y}) unlike its target's (${r.x},${r.y})`);
      }
    }
  }
  const classes = clickClasses(game, state);
  const rest = classes[classes.length - 1];
  if (inTarget.size < GRID * GRID) {
    const want = hex(rest.x, rest.y);
    for (let c = 0; c < GRID * GRID; c += stride) {
      if (!inTarget.has(c) && hex(c % GRID, Math.floor(c / GRID)) !== want) bad.push(`(${c % GRID},${Math.floor(c / GRID)}) unlike the background`);
    }
  }
  return bad;
}
