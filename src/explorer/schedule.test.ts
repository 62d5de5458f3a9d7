import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { initIdentity } from '../engine/identity.js';
import { Watchdog } from '../parallel/index.js';
import { loadGame } from '../suite/loader.js';
import { exploreGraph } from './coordinator.js';
import { inlineExpander, poolExpander, type Expander } from './expander.js';
import { describeSchedule, ScheduleClock, type ScheduleStats } from './schedule.js';

const fixture = (name: string): string => join(__dirname, '../../test/fixtures', `${name}.ts`);

beforeAll(initIdentity);

const sum = (s: ScheduleStats): number => (s.busy ?? 0) + (s.coordinator ?? 0) + Object.values(s.idle).reduce((a, b) => a + b, 0);

describe('ScheduleClock', () => {
  it('weighs each idle interval by the workers idle in it, and leaves the rest to the coordinator', () => {
    let t = 0;
    const clock = new ScheduleClock(4, () => t);
    t = 10;
    clock.mark(3, 'frontier'); // 3 idle for 10 ms
    t = 20;
    clock.mark(0, 'frontier'); // all busy for 40 ms
    t = 60;
    clock.mark(2, 'order'); // 2 idle for 20 ms
    t = 80;
    clock.mark(1, 'window'); // 1 idle for 20 ms
    t = 100;
    for (const [states, ms] of [[10, 100], [8, 80], [5, 50], [1, 20]]) clock.batch(states, ms);
    const s = clock.stats();
    expect(s.idle).toEqual({ frontier: 30 / 400, order: 40 / 400, window: 20 / 400, growth: 0 });
    expect(s.busy).toBeCloseTo(250 / 400);
    expect(s.coordinator).toBeCloseTo(60 / 400);
    expect([s.batches, s.statesPerBatch]).toEqual([4, 6]);
    expect(describeSchedule(s)).toBe('workers 62.5% busy; idle 15.0% coordinator, 10.0% merge order, 7.5% frontier, 5.0% window full; 4 batches of 6 states');
  });

  it('says nothing of busy time when a batch came back without its worker\'s clock', () => {
    let t = 0;
    const clock = new ScheduleClock(2, () => t);
    clock.batch(1, 5);
    clock.batch(1, undefined);
    t = 10;
    const s = clock.stats();
    expect(s.busy).toBeNull();
    expect(s.coordinator).toBeNull();
    expect(describeSchedule(s)).toBe('workers busy: not reported; idle never; 2 batches of 1 state');
  });
});

describe('the coordinator\'s schedule', () => {
  it('counts idle workers behind a late oldest batch as merge order, and behind a lone first state as frontier', async () => {
    const loaded = await loadGame(fixture('spread'));
    const inner = inlineExpander(loaded.game);
    let calls = 0;
    // The reset state's batch takes 100 ms (3 of 4 workers have nothing: frontier), then the first
    // of its successors' batches 200 ms while the other three come back at once (order).
    const expander: Expander = {
      workers: 4,
      ready: true,
      run: (task) => {
        const delay = [100, 200][calls++] ?? 0;
        return new Promise((resolve) => setTimeout(resolve, delay)).then(() => inner.run(task));
      },
    };
    const { result } = await exploreGraph(loaded, { level: 1, expander, batchSteps: 4 });
    const s = result.schedule;
    expect(s.busy).toBeNull();
    expect(s.idle.frontier).toBeGreaterThan((3 * 90) / (4 * 1000 * result.seconds));
    expect(s.idle.order).toBeGreaterThan((3 * 180) / (4 * 1000 * result.seconds));
    expect(sum(s)).toBeLessThanOrEqual(1 + 1e-9);
  });

  it('reads the workers\' own clocks from a pool', async () => {
    const loaded = await loadGame(fixture('spread'));
    const expander = poolExpander(2, loaded.module, 1, new Watchdog());
    while (!expander.ready) await new Promise((resolve) => setTimeout(resolve, 5));
    for (const claimIn of ['workers', 'coordinator'] as const) {
      const { result } = await exploreGraph(loaded, { level: 1, expander, claimIn });
      const s = result.schedule;
      expect(s.busy).toBeGreaterThan(0);
      expect(s.coordinator).not.toBeNull();
      expect(sum(s)).toBeCloseTo(1, 6);
    }
  });
});
