import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readRecording } from '../../src/recording/read.js';
import { replayRecording } from '../../src/recording/replay.js';
import game, { BOARDS } from './index.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'recordings');
const files = readdirSync(dir).filter((f) => f.endsWith('.recording.jsonl'));

describe('bx19 recordings', () => {
  // games/record.js: the exact search (budget and undo history in the state) covers levels 1-2
  // whole and finds the shortest wins of 3-4 under its cap; the wins of 5-6 come from the game's
  // board-only solver (solver.ts) and the losses of 3-6 from random attempts.
  it('has one winning and one losing recording per level', () => {
    for (let level = 1; level <= game.levels; level++) {
      const of = (kinds: string[]) => files.filter((f) => kinds.some((k) => f.startsWith(`bx19.${k}.${level}.`)));
      expect(of(['shortest-win', 'solver-win']), `win ${level}`).toHaveLength(1);
      expect(of(['shortest-loss', 'random-loss']), `loss ${level}`).toHaveLength(1);
    }
  });

  it.each(files)('%s replays to its recorded outcome', (file) => {
    const [, kind, text] = file.split('.');
    const level = Number(text);
    const recording = readRecording(join(dir, file));
    const result = replayRecording(game, recording, { stepLimitMs: 60_000 });
    expect(result.divergence).toBeUndefined();
    expect(result.reproduced).toBe(true);
    // The steps played on this level: from the step that reached it (RESET for level 1) on.
    const onLevel = recording.steps.filter((s) => s.levelsCompleted === level - 1).length;
    const budget = BOARDS[level - 1].spec.budget;
    if (kind.endsWith('-win')) {
      expect(result.outcome.levels_completed).toBe(level);
      expect(result.outcome.state).toBe(level === game.levels ? 'WIN' : 'NOT_FINISHED');
      expect(onLevel).toBeLessThanOrEqual(budget);
    } else {
      expect(result.outcome.levels_completed).toBe(level - 1);
      expect(result.outcome.state).toBe('GAME_OVER');
      // bx19 is lost only by spending the whole budget.
      expect(onLevel - 1).toBe(budget);
    }
  });
});
