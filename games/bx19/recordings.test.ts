import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readRecording } from '../../src/recording/read.js';
import { replayRecording } from '../../src/recording/replay.js';
import game from './index.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'recordings');
const files = readdirSync(dir).filter((f) => f.endsWith('.recording.jsonl'));

describe('bx19 recordings', () => {
  // games/record.js searches the full state (budget and undo history included) breadth-first under
  // a node cap: levels 1-2 fit whole, later levels are far larger (see README), so only their wins
  // that lie shallow enough were found.
  it('has a winning and a losing recording for the levels the search covers whole', () => {
    for (const level of [1, 2]) {
      for (const kind of ['shortest-win', 'shortest-loss']) {
        expect(files.filter((f) => f.startsWith(`bx19.${kind}.${level}.`)), `${kind} ${level}`).toHaveLength(1);
      }
    }
  });

  it.each(files)('%s replays to its recorded outcome', (file) => {
    const [, kind, level] = file.split('.');
    const result = replayRecording(game, readRecording(join(dir, file)), { stepLimitMs: 60_000 });
    expect(result.divergence).toBeUndefined();
    expect(result.reproduced).toBe(true);
    if (kind === 'shortest-win') {
      expect(result.outcome.levels_completed).toBe(Number(level));
      expect(result.outcome.state).toBe(Number(level) === game.levels ? 'WIN' : 'NOT_FINISHED');
    } else {
      expect(result.outcome.levels_completed).toBe(Number(level) - 1);
      expect(result.outcome.state).toBe('GAME_OVER');
    }
  });
});
