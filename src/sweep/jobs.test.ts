import { afterAll, describe, expect, it } from 'vitest';
import { openPythonGame, type PythonGame } from '../python/index.js';
import { FIXTURE_ENGINE, fixtureGame } from '../../test/support/python.js';
import { stubQualifier } from '../../test/support/sweep.js';
import { tempFolders } from '../../test/support/temp.js';
import { DEFAULT_BUDGET } from './budget.js';
import { contentHash } from './hashes.js';
import { runJob, type ExploreJobResult, type RunContext } from './jobs.js';
import { planSweep } from './plan.js';

const tempDir = tempFolders('arcgraph-jobs-');
const opened: PythonGame[] = [];
const hid1 = (): PythonGame => {
  const game = openPythonGame(fixtureGame('hid1'), { engine: FIXTURE_ENGINE });
  opened.push(game);
  return game;
};
afterAll(() => opened.forEach((g) => g.close()));

describe('a real ARC game’s chained levels, job by job', () => {
  it('starts a level where the exploration it reads says, in a process that never played the level before', async () => {
    const first = hid1();
    const loaded = { game: first, module: first.file };
    const plan = planSweep([{ ref: first.file, loaded, contentHash: contentHash(loaded), chained: true }], {
      budget: { ...DEFAULT_BUDGET, nodes: 1000, randomSteps: 0 },
      policy: 'available',
      threshold: 1e-4,
      seed: 1,
      graphLimit: 50_000,
      version: 'test',
      python: {},
    });
    const job = (level: number) => plan.games[0].jobs.find((j) => j.stage === 'explore' && j.level === level)!;
    const ctx: RunContext = { workers: 1, dir: tempDir(), qualifier: stubQualifier(), worker: 'test:1' };

    const level1 = (await runJob(job(1), loaded, new Map(), ctx)) as ExploreJobResult;
    expect(level1.startActions).toEqual([]);
    const win = level1.analysis!.shortestWin!.actions;
    expect(win.length).toBeGreaterThan(0);

    // another machine's process: it knows nothing of level 1 (alone it would start level 2 at set_level)
    const second = hid1();
    expect(second.startPath(2)).toBeUndefined();
    const level2 = (await runJob(job(2), { game: second, module: second.file }, new Map([[job(1).id, level1]]), ctx)) as ExploreJobResult;
    expect(level2.startActions).toEqual(win);
    expect(level2.explore!.python!.levelStart).toBe('played');

    // the same level explored in the process that played level 1 (as a local sweep does) gives the same graph
    const here = (await runJob(job(2), loaded, new Map([[job(1).id, level1]]), ctx)) as ExploreJobResult;
    expect({ ...level2.explore, seconds: 0, transitionsPerSecond: 0, storeBytes: 0, bytesPerState: 0 }).toEqual({ ...here.explore, seconds: 0, transitionsPerSecond: 0, storeBytes: 0, bytesPerState: 0 });
    expect(level2.analysis).toEqual(here.analysis);
    expect(level2.startHash).toBe(here.startHash);
  });
});
