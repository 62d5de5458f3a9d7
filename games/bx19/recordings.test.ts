import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readRecording } from '../../src/recording/read.js';
import game, { BOARDS } from './index.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'recordings');
const files = readdirSync(dir).filter((f) => f.endsWith('.recording.jsonl'));

// games/recordings.test.ts replays every file to its outcome; here, what bx19's rules add: the
// exact search (budget and undo history in the state) covers levels 1-2 whole and finds the
// shortest wins of 3-4 under its cap; wins of 5-6 come from the board-only solver (solver.ts),
// losses of 3-6 from random attempts.
describe('bx19 recordings against the budget', () => {
  it.each(files)('%s fits the level budget', (file) => {
    const [, kind, text] = file.split('.');
    const level = Number(text);
    const recording = readRecording(join(dir, file));
    // The steps played on this level: from the step that reached it (RESET for level 1) on.
    const onLevel = recording.steps.filter((s) => s.levelsCompleted === level - 1).length;
    const budget = BOARDS[level - 1].spec.budget;
    if (kind.endsWith('-win')) expect(onLevel).toBeLessThanOrEqual(budget);
    // bx19 is lost only by spending the whole budget.
    else expect(onLevel - 1).toBe(budget);
    expect(game.levels).toBe(BOARDS.length);
  });
});
