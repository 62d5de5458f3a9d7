/** src/recording/record-suite.ts, run as built (`npm test` builds first). */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import lights from '../fixtures/lights.js';
import ruin, { RUIN_LEVELS } from '../fixtures/ruin.js';
import type { Game } from '../../src/engine/game.js';
import { PACKAGE_ROOT } from '../../src/suite/loader.js';
import { readRecording } from '../../src/recording/read.js';
import { replayRecording } from '../../src/recording/replay.js';

const out = mkdtempSync(join(tmpdir(), 'arcgraph-record-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

function record(fixture: string, dir: string, ...args: string[]) {
  return spawnSync(process.execPath, [join(PACKAGE_ROOT, 'dist/src/recording/record-suite.js'), join(PACKAGE_ROOT, 'dist/test/fixtures', `${fixture}.js`), '--out', dir, ...args], { encoding: 'utf8' });
}

/** The recordings of one kind, by level. */
function recordings(dir: string, game: Game, kind: string): Map<number, string> {
  const files = new Map<number, string>();
  for (const f of readdirSync(dir)) {
    const m = new RegExp(`^${game.id}\\.${kind}\\.(\\d+)\\.[0-9a-f-]{36}\\.recording\\.jsonl$`).exec(f);
    if (m) files.set(Number(m[1]), join(dir, f));
  }
  return files;
}

describe('games/record.js', () => {
  it('writes, for each corridor level, the shortest win and loss after the earlier wins (analytic lengths)', () => {
    const dir = join(out, 'ruin');
    const run = record('ruin', dir);
    expect(run.status).toBe(0);
    const wins = recordings(dir, ruin, 'shortest-win');
    const losses = recordings(dir, ruin, 'shortest-loss');
    expect([...wins.keys()].sort()).toEqual([1, 2, 3, 4, 5, 6]);
    expect([...losses.keys()].sort()).toEqual([1, 2, 3, 4, 5, 6]);
    let before = 0; // the wins of the earlier levels
    RUIN_LEVELS.forEach(({ n, start }, i) => {
      const level = i + 1;
      const win = readRecording(wins.get(level)!);
      const loss = readRecording(losses.get(level)!);
      expect(win.steps).toHaveLength(1 + before + (n - start));
      expect(loss.steps).toHaveLength(1 + before + start);
      expect(replayRecording(ruin, win)).toMatchObject({ reproduced: true, outcome: { state: level === 6 ? 'WIN' : 'NOT_FINISHED', levels_completed: level } });
      expect(replayRecording(ruin, loss)).toMatchObject({ reproduced: true, outcome: { state: 'GAME_OVER', levels_completed: level - 1 } });
      expect(readFileSync(wins.get(level)!, 'utf8')).not.toMatch(/": |, /);
      before += n - start;
    });
  });

  it('finds the one-click and two-click wins of the click game, and reruns overwrite the same files', () => {
    const dir = join(out, 'lights');
    expect(record('lights', dir).status).toBe(0);
    const first = readdirSync(dir).sort();
    expect(record('lights', dir).status).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(first);
    const wins = recordings(dir, lights, 'shortest-win');
    expect(readRecording(wins.get(1)!).steps).toHaveLength(2);
    expect(readRecording(wins.get(2)!).steps).toHaveLength(1 + 1 + 2);
    expect(replayRecording(lights, readRecording(wins.get(2)!)).outcome).toEqual({ state: 'WIN', levels_completed: 2 });
    // the budget of level 1 is 4 moves: the shortest loss spends them all
    expect(readRecording(recordings(dir, lights, 'shortest-loss').get(1)!).steps).toHaveLength(1 + 4);
  });

  it('stops with exit code 1 when the node cap hides the win', () => {
    const run = record('ruin', join(out, 'capped'), '--max-nodes', '3');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('stopped at the cap of 3');
  });
});
