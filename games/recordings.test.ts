/**
 * Every suite game keeps, for every level, one known-good winning recording and one losing one
 * (made by games/record.js: shortest by the explorer, or by the game's solver / a seeded random
 * attempt where the search's cap hides them), and each replays to its recorded outcome.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadGame } from '../src/suite/loader.js';
import { readRecording } from '../src/recording/read.js';
import { replayRecording } from '../src/recording/replay.js';
import { SUITE } from './index.js';

const here = dirname(fileURLToPath(import.meta.url));
const WINS = ['shortest-win', 'solver-win'];
const LOSSES = ['shortest-loss', 'random-loss'];

describe.each(Object.keys(SUITE))('%s recordings', (id) => {
  const dir = join(here, id, 'recordings');
  const files = readdirSync(dir).filter((f) => f.endsWith('.recording.jsonl'));

  it('has one winning and one losing recording per level', async () => {
    const { game } = await loadGame(id);
    for (let level = 1; level <= game.levels; level++) {
      const of = (kinds: string[]) => files.filter((f) => kinds.some((k) => f.startsWith(`${id}.${k}.${level}.`)));
      expect(of(WINS), `win ${level}`).toHaveLength(1);
      expect(of(LOSSES), `loss ${level}`).toHaveLength(1);
    }
    expect(files).toHaveLength(2 * game.levels);
  });

  it.each(files)('%s replays to its recorded outcome', async (file) => {
    const { game } = await loadGame(id);
    const [, kind, text] = file.split('.');
    const level = Number(text);
    const result = replayRecording(game, readRecording(join(dir, file)), { stepLimitMs: 60_000 });
    expect(result.divergence).toBeUndefined();
    expect(result.reproduced).toBe(true);
    if (WINS.includes(kind)) {
      expect(result.outcome.levels_completed).toBe(level);
      expect(result.outcome.state).toBe(level === game.levels ? 'WIN' : 'NOT_FINISHED');
    } else {
      expect(result.outcome.levels_completed).toBe(level - 1);
      expect(result.outcome.state).toBe('GAME_OVER');
    }
  });
});
