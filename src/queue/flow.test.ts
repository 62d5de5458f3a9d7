import { join } from 'node:path';
import type { FlowJob } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { loadGame } from '../suite/index.js';
import { contentHash, DEFAULT_BUDGET, planSweep, type JobSettings } from '../sweep/index.js';
import { collectQueue, WORK_QUEUE } from './connection.js';
import { ATTEMPTS, nightFlow, type WorkData } from './flow.js';

const fixture = (name: string): string => join(__dirname, '../../test/fixtures', `${name}.ts`);
const SETTINGS: JobSettings = { budget: { ...DEFAULT_BUDGET }, policy: 'available', threshold: 1e-4, seed: 1, graphLimit: 50_000, version: '0.1.0' };

async function plan(chained: boolean) {
  const games = await Promise.all(['ruin', 'maze'].map(async (name) => {
    const loaded = await loadGame(fixture(name));
    return { ref: name, loaded, contentHash: contentHash(loaded), chained };
  }));
  return planSweep(games, SETTINGS);
}

/** Every node under `node` with its parent's id. */
function nodes(node: FlowJob, parent: string | null = null): { node: FlowJob; parent: string | null }[] {
  return [{ node, parent }, ...(node.children ?? []).flatMap((c) => nodes(c, node.opts!.jobId!))];
}

describe('nightFlow', () => {
  for (const chained of [false, true]) {
    it(`puts every planned job in the tree once, under the job that waits on it (levels ${chained ? '' : 'not '}chained)`, async () => {
      const p = await plan(chained);
      const root = nightFlow(p, '/shared');
      expect(root.queueName).toBe(collectQueue(p.key));
      expect(root.children!.map((c) => c.data.game)).toEqual(['ruin', 'maze']);
      const all = nodes(root);
      const work = all.filter(({ node }) => node.queueName === WORK_QUEUE);
      const planned = p.games.flatMap((g) => g.jobs);
      expect(work.map(({ node }) => node.opts!.jobId).sort()).toEqual(planned.map((j) => j.id).sort());
      for (const { node, parent } of work) {
        const data = node.data as WorkData;
        expect(data.shared).toBe('/shared');
        expect(node.opts).toMatchObject({ jobId: data.job.id, attempts: ATTEMPTS, ignoreDependencyOnFailure: true });
        // its one child is the job it waits on; its parent is the job waiting on it, or the game's collector
        expect((node.children ?? []).map((c) => c.opts!.jobId)).toEqual(data.job.after ? [data.job.after] : []);
        const waiting = planned.find((j) => j.after === data.job.id);
        expect(parent).toBe(waiting ? waiting.id : `game.${data.job.game}`);
      }
      // chained: the levels hang one under another, and the qualification under the last, so the tree is as deep as the game is long
      const depth = (n: FlowJob): number => 1 + Math.max(0, ...(n.children ?? []).map(depth));
      expect(depth(root.children![0])).toBe(chained ? 1 + 12 + 1 : 1 + 2);
    });
  }
});
