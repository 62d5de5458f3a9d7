import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadGame } from '../suite/loader.js';
import { DEFAULT_BUDGET } from './budget.js';
import { contentHash } from './hashes.js';
import { planSweep, type JobSettings, type PlanGame } from './plan.js';

const fixture = (name: string): string => join(__dirname, '../../test/fixtures', `${name}.ts`);
const SETTINGS: JobSettings = { budget: { ...DEFAULT_BUDGET }, policy: 'available', threshold: 1e-4, seed: 1, graphLimit: 50_000, version: '0.1.0' };

async function games(chained = false): Promise<PlanGame[]> {
  return Promise.all(['ruin', 'maze'].map(async (name) => {
    const loaded = await loadGame(fixture(name));
    return { ref: fixture(name), loaded, contentHash: contentHash(loaded), chained };
  }));
}

describe('planSweep', () => {
  it('plans each level explore then Monte Carlo, then qualification, each Monte Carlo after its exploration', async () => {
    const plan = planSweep(await games(), SETTINGS);
    const [ruin, maze] = plan.games;
    expect(ruin.jobs.map((j) => `${j.stage}:${j.level}`)).toEqual([1, 2, 3, 4, 5, 6].flatMap((l) => [`explore:${l}`, `monte-carlo:${l}`]).concat('qualify:null'));
    expect(maze.jobs).toHaveLength(5);
    for (const job of ruin.jobs) {
      if (job.stage === 'monte-carlo') {
        const explore = ruin.jobs.find((j) => j.stage === 'explore' && j.level === job.level)!;
        expect([job.after, job.reads]).toEqual([explore.id, [explore.id]]);
      } else expect([job.after, job.reads]).toEqual([null, []]);
      expect(job.id).not.toContain(':');
      expect(job.source).toMatch(/dist\/test\/fixtures\/ruin\.js$/);
    }
    // the game is collected after every level's last job and its qualification
    expect(ruin.last).toEqual(ruin.jobs.filter((j) => j.stage !== 'explore').map((j) => j.id));
    expect(new Set(plan.games.flatMap((g) => g.jobs.map((j) => j.id))).size).toBe(18);
  });

  it('gives the same ids when planned again, and other ids when what decides a result changes', async () => {
    const ids = (plan: ReturnType<typeof planSweep>): string[] => plan.games.flatMap((g) => g.jobs.map((j) => j.id));
    const base = planSweep(await games(), SETTINGS);
    const again = planSweep(await games(), SETTINGS);
    expect(ids(again)).toEqual(ids(base));
    expect(again.key).toBe(base.key);
    // exploration depends on the node budget; qualification does not
    const nodes = planSweep(await games(), { ...SETTINGS, budget: { ...SETTINGS.budget, nodes: 10 } });
    const differs = (a: ReturnType<typeof planSweep>, b: ReturnType<typeof planSweep>): string[] =>
      a.games.flatMap((g, i) => g.jobs.filter((j, k) => j.id !== b.games[i].jobs[k].id).map((j) => j.stage));
    expect(new Set(differs(nodes, base))).toEqual(new Set(['explore', 'monte-carlo']));
    const scale = planSweep(await games(), { ...SETTINGS, budget: { ...SETTINGS.budget, stepsScale: 0.5 } });
    expect(new Set(differs(scale, base))).toEqual(new Set(['qualify']));
    const random = planSweep(await games(), { ...SETTINGS, budget: { ...SETTINGS.budget, randomSteps: 5 } });
    expect(new Set(differs(random, base))).toEqual(new Set(['monte-carlo']));
    const version = planSweep(await games(), { ...SETTINGS, version: '0.2.0' });
    expect(differs(version, base)).toHaveLength(18);
    expect(version.key).not.toBe(base.key);
    // another version of a game: its jobs change, the other game's do not
    const [ruin, maze] = await games();
    const edited = planSweep([{ ...ruin, contentHash: 'feedfacefeedface' }, maze], SETTINGS);
    expect(edited.games[0].jobs.every((j, k) => j.id !== base.games[0].jobs[k].id)).toBe(true);
    expect(edited.games[1].jobs.map((j) => j.id)).toEqual(base.games[1].jobs.map((j) => j.id));
    // a game whose code cannot be hashed never shares a job with another night
    const unhashed = (): string => planSweep([{ ...ruin, contentHash: null }], SETTINGS).games[0].jobs[0].id;
    expect(unhashed()).not.toBe(unhashed());
    // how real ARC games run (GRAPH_BUILDER and the like) changes every stage's result
    const graphBuilder = planSweep(await games(), { ...SETTINGS, python: { graphBuilder: true } });
    expect(differs(graphBuilder, base)).toHaveLength(18);
  });

  it('chains levels on request: each exploration waits on the previous level and reads its exploration', async () => {
    const plan = planSweep(await games(true), SETTINGS);
    const [ruin] = plan.games;
    const explore = (level: number) => ruin.jobs.find((j) => j.stage === 'explore' && j.level === level)!;
    const mc = (level: number) => ruin.jobs.find((j) => j.stage === 'monte-carlo' && j.level === level)!;
    expect(explore(1).after).toBeNull();
    for (let level = 2; level <= 6; level++) {
      expect(explore(level).after).toBe(mc(level - 1).id);
      expect(explore(level).reads).toEqual([explore(level - 1).id]);
    }
    // qualification plays each level from where its exploration started: after the last level, reading every exploration
    const qualify = ruin.jobs.at(-1)!;
    expect(qualify.stage).toBe('qualify');
    expect([qualify.after, qualify.reads]).toEqual([mc(6).id, [1, 2, 3, 4, 5, 6].map((l) => explore(l).id)]);
    expect(ruin.last).toEqual([qualify.id]);
    // a chained level's exploration starts elsewhere than an unchained one's: another id
    const unchained = planSweep(await games(false), SETTINGS).games[0];
    expect(explore(1).id).toBe(unchained.jobs[0].id);
    expect(explore(2).id).not.toBe(unchained.jobs[2].id);
  });
});
