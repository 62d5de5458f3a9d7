/**
 * The fault table: small broken games (test/fixtures/faults/ and a few older fixtures), each run
 * through explore, random, qualify and a sweep by the built CLI, with the exit code, the finding
 * named, no partial file, and every case bounded in time. The sweeps put each fault game between
 * two good ones, whose results must be complete.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GameReport, LevelReport } from '../../src/report/schema.js';
import { parseReport } from '../../src/report/schema.js';
import { PACKAGE_ROOT } from '../../src/suite/loader.js';
import { CLI, run, start, type Finished } from '../support/cli.js';
import { tempFolders } from '../support/temp.js';

const fixture = (name: string): string => join(PACKAGE_ROOT, 'dist/test/fixtures', `${name}.js`);
const tempDir = tempFolders('arcgraph-faults-');
/** Short limits keep the table quick: a step stands still 2 s at most, a worker's heap is a share of 1 GB. */
const LIMITS = ['--step-timeout', '3', '--max-memory', '1'];

type Json = Record<string, any>;
interface Expect {
  code: number;
  /** What stderr says (a fault's one line). */
  stderr?: RegExp;
  /** Checks on the JSON printed (exit 0, or qualify's findings). */
  json?: (r: Json) => void;
}

interface Case {
  fixture: string;
  fault: string;
  /** Extra arguments (a level, a budget). */
  args?: string[];
  /** Limits other than LIMITS. */
  limits?: string[];
  explore: Expect;
  random: Expect;
  /** Qualify's findings: check names that must be there, with the actions of the first one. */
  qualify: { code: number; checks: string[]; actions?: number };
  /** The fault game's level in the sweep report. */
  sweep: (level: LevelReport, game: GameReport) => void;
}

const CASES: Case[] = [
  {
    fixture: 'hang',
    fault: 'a step that never returns',
    explore: { code: 1, stderr: /^arcgraph explore: hang level 1 hung after 3 actions from reset \[ACTION4, ACTION4, ACTION4\]: .*did not return within 3 s/ },
    // The episode's moves with their cycles cut (played again on a thread of their own).
    random: { code: 1, stderr: /^arcgraph random: hang level 1 hung after 3 actions from reset \[ACTION4, ACTION4, ACTION4\]: .*did not return within 3 s.*random episode \d+/ },
    qualify: { code: 1, checks: ['slow-step'], actions: 3 },
    sweep: (level) => {
      expect(level.outcome).toBe('hang');
      expect(level.crash).toMatchObject({ kind: 'hang', actions: ['ACTION4', 'ACTION4', 'ACTION4'] });
    },
  },
  {
    fixture: 'faults/slow',
    fault: 'a slow step under the limit',
    explore: { code: 0, json: (r) => expect(r).toMatchObject({ fullyExplored: true, nodes: 7, identityWarning: null }) },
    random: { code: 0, json: (r) => expect(r.episodes).toBeGreaterThan(0) },
    qualify: { code: 0, checks: [] },
    sweep: (level) => {
      expect(level.crash).toBeNull();
      expect(level.outcome).toBe('pass');
    },
  },
  {
    fixture: 'boom',
    fault: 'a step that throws',
    explore: { code: 1, stderr: /^arcgraph explore: boom level 1 crashed after 4 actions from reset \[ACTION1, ACTION1, ACTION2, ACTION2\]: boom: counter overflow/ },
    random: { code: 1, stderr: /^arcgraph random: boom level 1 crashed after 4 actions from reset .*boom: counter overflow/ },
    qualify: { code: 1, checks: ['exception'], actions: 4 },
    sweep: (level) => {
      expect(level.outcome).toBe('fail');
      expect(level.crash).toMatchObject({ kind: 'crash', actions: ['ACTION1', 'ACTION1', 'ACTION2', 'ACTION2'] });
    },
  },
  {
    fixture: 'faults/badrender',
    fault: 'a render that throws',
    // Random play never draws a frame; exploring draws checked states only to compare them with their copies, and leaves a render that throws to qualify.
    explore: { code: 0, json: (r) => expect(r.fullyExplored).toBe(true) },
    random: { code: 0 },
    qualify: { code: 1, checks: ['exception'], actions: 2 },
    sweep: (level) => {
      expect(level.outcome).toBe('fail');
      expect(level.reasons.join(' ')).toMatch(/qualification failed: fuzz exception/);
    },
  },
  {
    fixture: 'badframe',
    fault: 'an invalid frame',
    args: ['--level', '2'],
    explore: { code: 0, json: (r) => expect(r.fullyExplored).toBe(true) },
    random: { code: 0 },
    qualify: { code: 1, checks: ['invalid-frame'], actions: 5 },
    sweep: (_level, game) => {
      const two = game.levels.find((l) => l.level === 2)!;
      expect(two.outcome).toBe('fail');
      expect(two.reasons.join(' ')).toMatch(/invalid-frame/);
    },
  },
  {
    fixture: 'faults/hog',
    fault: 'unbounded allocation',
    // The smallest heap (the 256 MB floor) and a long step limit: the heap runs out first, soon.
    limits: ['--step-timeout', '30', '--max-memory', '0.25'],
    explore: { code: 1, stderr: /^arcgraph explore: hogg level 1 ran out of memory after 3 actions from reset \[ACTION4, ACTION4, ACTION4\]: .*ERR_WORKER_OUT_OF_MEMORY/ },
    random: { code: 1, stderr: /^arcgraph random: hogg level 1 ran out of memory after 3 actions from reset \[ACTION4, ACTION4, ACTION4\]/ },
    qualify: { code: 1, checks: ['out-of-memory'], actions: 3 },
    sweep: (level) => {
      expect(level.outcome).toBe('fail');
      expect(level.crash).toMatchObject({ kind: 'out-of-memory', actions: ['ACTION4', 'ACTION4', 'ACTION4'] });
    },
  },
  {
    fixture: 'faults/noncanon',
    fault: 'a non-canonical encode',
    explore: { code: 0, json: (r) => expect(r.identityWarning).toEqual({ message: expect.stringMatching(/not canonical/), actions: ['ACTION3'] }) },
    random: { code: 0 },
    // Also at the reset state: two resets encode differently (no actions).
    qualify: { code: 1, checks: ['non-canonical-identity', 'nondeterminism'] },
    sweep: (level) => {
      expect(level.outcome).toBe('fail');
      expect(level.explore?.identityWarning?.actions).toEqual(['ACTION3']);
      expect(level.reasons.join(' ')).toMatch(/identity is unstable/);
    },
  },
  {
    fixture: 'faults/grow',
    fault: 'a state that grows every step',
    args: ['--max-nodes', '20000'],
    explore: { code: 0, json: (r) => expect(r).toMatchObject({ fullyExplored: false, stopReason: 'max-nodes', identityWarning: null }) },
    random: { code: 0 },
    qualify: { code: 0, checks: [] },
    sweep: (level) => {
      expect(level.explore).toMatchObject({ fullyExplored: false, stopReason: 'max-nodes' });
      expect(level.outcome).toBe('pass');
    },
  },
  {
    fixture: 'faults/badinit',
    fault: 'an init that throws',
    explore: { code: 1, stderr: /^arcgraph explore: bdin level 1 crashed after 0 actions from reset \[\]: the reset state cannot be built: init: level data missing/ },
    random: { code: 1, stderr: /^arcgraph random: bdin level 1 crashed after 0 actions from reset \[\]: init\(1\) threw/ },
    qualify: { code: 1, checks: ['exception'], actions: 0 },
    sweep: (level) => {
      expect(level.outcome).toBe('fail');
      expect(level.crash).toMatchObject({ kind: 'crash', actions: [] });
    },
  },
  {
    fixture: 'faults/inithang',
    fault: 'an init that never returns',
    // Built on a pool's thread under the watchdog (it used to freeze the coordinator, past SIGTERM).
    explore: { code: 1, stderr: /^arcgraph explore: ihng level 1 hung after 0 actions from reset \[\]: the reset state cannot be built: init\(1\) did not return within 3 s/ },
    random: { code: 1, stderr: /^arcgraph random: ihng level 1 hung after 0 actions from reset \[\]/ },
    qualify: { code: 1, checks: ['slow-step'], actions: 0 },
    sweep: (level) => {
      expect(level.outcome).toBe('hang');
      expect(level.crash).toMatchObject({ kind: 'hang', actions: [] });
    },
  },
  {
    fixture: 'faults/badstatus',
    fault: 'a status outside the contract',
    // Read as playing, the level would pass as unwinnable (explore); read as an end, as a loss (random).
    explore: { code: 1, stderr: /^arcgraph explore: bsta level 1 crashed after 3 actions from reset \[ACTION4, ACTION4, ACTION4\]: status returned "WIN", not "playing", "won" or "lost"$/ },
    random: { code: 1, stderr: /^arcgraph random: bsta level 1 crashed after \d+ actions from reset \[.*ACTION4\]: status returned "WIN"/ },
    qualify: { code: 1, checks: ['malformed-transition', 'exception'], actions: 3 },
    sweep: (level) => {
      expect(level.outcome).toBe('fail');
      expect(level.crash).toMatchObject({ kind: 'crash', actions: ['ACTION4', 'ACTION4', 'ACTION4'] });
    },
  },
  {
    fixture: 'faults/badencode',
    fault: 'an encode that gives no bytes',
    explore: { code: 1, stderr: /^arcgraph explore: benc level 1 crashed after 2 actions from reset \[ACTION4, ACTION4\]: encode returned "cell 5", not a Uint8Array$/ },
    // Random play never encodes.
    random: { code: 0 },
    qualify: { code: 1, checks: ['exception'], actions: 2 },
    sweep: (level) => {
      expect(level.outcome).toBe('fail');
      expect(level.crash).toMatchObject({ kind: 'crash', actions: ['ACTION4', 'ACTION4'] });
    },
  },
  {
    fixture: 'faults/hiddenstatus',
    fault: 'a status that reads state the bytes do not hold',
    // Merged by their bytes, states that end differently: the explorer checks every transition of its first states.
    explore: { code: 0, json: (r) => expect(r.identityWarning).toEqual({ message: expect.stringMatching(/copy has status "playing" where the state has "lost"/), actions: ['ACTION3'] }) },
    random: { code: 0 },
    qualify: { code: 1, checks: ['non-canonical-identity'], actions: 1 },
    sweep: (level) => {
      expect(level.outcome).toBe('fail');
      expect(level.reasons.join(' ')).toMatch(/identity is unstable .*status reads state the bytes do not hold/);
    },
  },
  {
    fixture: 'faults/flipstatus',
    fault: 'a status that is not a function of the state',
    explore: { code: 0, json: (r) => expect(r.identityWarning).toEqual({ message: expect.stringMatching(/status of one state twice gave/), actions: ['ACTION4', 'ACTION4'] }) },
    random: { code: 0 },
    qualify: { code: 1, checks: ['nondeterminism'], actions: 2 },
    sweep: (level) => {
      expect(level.outcome).toBe('fail');
      expect(level.reasons.join(' ')).toMatch(/identity is unstable .*status of one state twice/);
    },
  },
  {
    fixture: 'faults/liar',
    fault: 'click targets that lie',
    // The explorer trusts the partition (one class: 4 states); qualification checks it.
    explore: { code: 0, json: (r) => expect(r.nodes).toBe(4) },
    random: { code: 0 },
    qualify: { code: 1, checks: ['click-targets'], actions: 1 },
    sweep: (level) => {
      expect(level.outcome).toBe('fail');
      expect(level.reasons.join(' ')).toMatch(/click-targets/);
    },
  },
];

const ONE_LINE = (r: Finished): string[] => r.stderr.trimEnd().split('\n');

/** Checks a command's outcome, bounded in time. */
function check(e: Expect, r: Finished, seconds: number): Json | undefined {
  expect(r.code, `${r.stderr}\n${r.stdout.slice(0, 500)}`).toBe(e.code);
  expect(seconds).toBeLessThan(60);
  if (e.stderr) {
    expect(ONE_LINE(r)).toHaveLength(1);
    expect(ONE_LINE(r)[0]).toMatch(e.stderr);
  }
  if (e.code !== 0) return undefined;
  const json = JSON.parse(r.stdout) as Json;
  e.json?.(json);
  return json;
}

async function timed(args: string[]): Promise<{ r: Finished; seconds: number }> {
  const started = performance.now();
  const r = await run(args);
  return { r, seconds: (performance.now() - started) / 1000 };
}

describe('the fault table: every fault through explore, random and qualify', () => {
  for (const c of CASES) {
    it.concurrent(`${c.fault} (${c.fixture}): explore`, async () => {
      const dir = tempDir();
      const file = join(dir, 'graph.json');
      const { r, seconds } = await timed(['explore', fixture(c.fixture), '--workers', '1', '--json', '--export', file, ...(c.limits ?? LIMITS), ...(c.args ?? [])]);
      check(c.explore, r, seconds);
      // No partial file: the export exists only when the exploration finished, and nothing else is left.
      expect(readdirSync(dir)).toEqual(c.explore.code === 0 ? ['graph.json'] : []);
      if (c.explore.code === 0) expect(JSON.parse(readFileSync(file, 'utf8')).nodes.length).toBeGreaterThan(0);
    }, 120_000);

    it.concurrent(`${c.fault} (${c.fixture}): random`, async () => {
      const { r, seconds } = await timed(['random', fixture(c.fixture), '--workers', '1', '--steps', '20000', '--json', ...(c.limits ?? LIMITS), ...(c.args?.includes('--level') ? ['--level', '2'] : [])]);
      check(c.random, r, seconds);
    }, 120_000);

    it.concurrent(`${c.fault} (${c.fixture}): qualify`, async () => {
      const out = tempDir();
      const { r, seconds } = await timed(['qualify', fixture(c.fixture), '--workers', '1', '--steps-scale', '0.002', '--out', out, '--json', ...(c.limits ?? LIMITS)]);
      expect(r.code, r.stderr).toBe(c.qualify.code);
      expect(seconds).toBeLessThan(90);
      const q = JSON.parse(r.stdout) as Json;
      const failed = (q.findings as Json[]).filter((f) => f.severity === 'fail');
      expect(failed.map((f) => f.check).sort()).toEqual(expect.arrayContaining(c.qualify.checks));
      if (c.qualify.checks.length === 0) expect(failed).toEqual([]);
      const first = failed.find((f) => f.check === c.qualify.checks[0]);
      if (c.qualify.actions !== undefined) expect(first?.actions).toHaveLength(c.qualify.actions);
      // Every failure has its reproduction on disk.
      for (const f of failed) expect(existsSync(f.reproduction), f.reproduction).toBe(true);
    }, 120_000);
  }
});

/** The fault games whose level a sweep calls a hang. */
const HANGS = ['hang', 'faults/inithang'];

/** Good games around the faults: their results must be complete whatever the game before them did. */
const GOOD = ['easy', 'maze', 'strip', 'lights', 'spread', 'ruin'];

describe('the fault table: sweeps with each fault game between two good ones', () => {
  // At most as many fault games a sweep as there are good games to put them between.
  const sweeps = Math.ceil(CASES.length / GOOD.length);
  const parts = Array.from({ length: sweeps }, (_, i) => CASES.filter((_c, k) => k % sweeps === i));
  it('puts every fault game in a sweep', () => expect(parts.flat()).toHaveLength(CASES.length));
  for (const [i, faults] of parts.entries()) {
    it.concurrent(`sweep ${i + 1}: ${faults.map((c) => c.fixture).join(', ')}`, async () => {
      const order = GOOD.flatMap((g, k) => (k < faults.length ? [g, faults[k].fixture] : [g]));
      const out = join(tempDir(), 'night');
      // With the memory hog, a longer step limit: its thread's heap runs out first.
      const limits = faults.some((c) => c.limits) ? ['--step-timeout', '15', '--max-memory', '1'] : LIMITS;
      const { r, seconds } = await timed(['sweep', '--games', order.map(fixture).join(','), '--budget', 'nodes=2000,seconds=3,steps-scale=0.002,random-steps=2000', '--out', out, '--no-history', ...limits]);
      // Every fault game fails or hangs, or the good games fail their random-win verdicts: exit 1, a finished report.
      expect(r.code, r.stderr).toBe(1);
      expect(seconds).toBeLessThan(150);
      const report = parseReport(readFileSync(join(out, 'report.json'), 'utf8'));
      expect(report.status).toBe('complete');
      expect(report.games.map((g) => g.source)).toEqual(order.map(fixture));
      for (const game of report.games) {
        const c = faults.find((f) => fixture(f.fixture) === game.source);
        if (c) {
          c.sweep(game.levels[0], game);
          continue;
        }
        // A good game: explored, analysed and qualified, nothing crashed.
        expect(game.error).toBeNull();
        expect(game.qualification).not.toBeNull();
        for (const level of game.levels) {
          expect(level.crash).toBeNull();
          expect(level.explore).not.toBeNull();
          expect(level.analysis).not.toBeNull();
        }
      }
      const hung = faults.some((c) => c.fixture === 'hang');
      expect(report.summary.hangs).toBe(faults.filter((c) => HANGS.includes(c.fixture)).length);
      const md = readFileSync(join(out, 'report.md'), 'utf8');
      if (hung) {
        // report.md and the level's page show the hang with its reproduction.
        expect(md).toMatch(/Level 1 hang: .*did not return within 3 s.*Reproduce from the reset state: `ACTION4 ACTION4 ACTION4`/);
        const page = readFileSync(join(out, 'games', 'hang', 'level-1.html'), 'utf8');
        expect(page).toMatch(/<span class="badge crash">HANG<\/span>/);
        expect(page).toMatch(/<h2 id="crash">Hang<\/h2>.*<code>ACTION4 ACTION4 ACTION4<\/code>/s);
      }
      if (faults.some((c) => c.fixture === 'faults/noncanon')) expect(md).toMatch(/Level 1 identity warning: .*not canonical.*`ACTION3`/);
    }, 240_000);
  }
});

describe('a stuck step: time limits and Ctrl-C still work; replay and play stop it', () => {
  it.concurrent('explore --max-seconds 2 returns the partial graph while a step is stuck (step limit 10 s)', async () => {
    const { r, seconds } = await timed(['explore', fixture('hang'), '--workers', '1', '--max-seconds', '2', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ stopReason: 'max-seconds', fullyExplored: false });
    expect(seconds).toBeLessThan(9);
  }, 60_000);

  it.concurrent('random stops on SIGINT while a step is stuck: the partial result, exit 130', async () => {
    const running = start(['random', fixture('hang'), '--workers', '1', '--steps', '1000000', '--json']);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const sent = performance.now();
    running.child.kill('SIGINT');
    const r = await running.finished;
    expect(r.code, r.stderr).toBe(130);
    expect(JSON.parse(r.stdout)).toMatchObject({ interrupted: true });
    expect((performance.now() - sent) / 1000).toBeLessThan(5);
  }, 60_000);

  it.concurrent('replay of a hang reproduction diverges at the step that hung; play ends there with the actions', async () => {
    const out = tempDir();
    const q = await run(['qualify', fixture('hang'), '--workers', '1', '--steps-scale', '0.001', '--step-timeout', '3', '--out', out, '--json']);
    const finding = (JSON.parse(q.stdout).findings as Json[]).find((f) => f.check === 'slow-step')!;
    const replayed = await timed(['replay', finding.reproduction, '--game', fixture('hang'), '--step-timeout', '3', '--json']);
    expect(replayed.r.code, replayed.r.stderr).toBe(1);
    expect(JSON.parse(replayed.r.stdout).divergence.message).toMatch(/did not return within 3 s/);
    expect(replayed.seconds).toBeLessThan(10);
    const played = spawnSync(process.execPath, [CLI, 'play', fixture('hang'), '--step-timeout', '3', '--record', join(out, 'session.jsonl')], { input: 'ACTION4\nACTION4\nACTION4\nquit\n', encoding: 'utf8', timeout: 30_000 });
    expect(played.status, played.stderr).toBe(1);
    const [recorded, error] = played.stderr.trimEnd().split('\n');
    expect(error).toMatch(/^arcgraph play: hang level 1 hung after 3 actions of this session \[ACTION4, ACTION4, ACTION4\]: a step did not return within 3 s/);
    // The steps before the one that hung are kept (a partial recording: RESET and two ACTION4), and replay.
    expect(recorded).toBe(`recorded 3 steps (up to the step that failed) to ${join(out, 'session.jsonl')}`);
    const session = await run(['replay', join(out, 'session.jsonl'), '--game', fixture('hang'), '--json']);
    expect(JSON.parse(session.stdout)).toMatchObject({ steps: 3, reproduced: true });
  }, 60_000);
});
