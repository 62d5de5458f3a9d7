import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GameAction, parseAction } from '../engine/actions.js';
import { loadGame } from '../suite/loader.js';
import { RUIN_LEVELS } from '../../test/fixtures/ruin.js';
import { parseReport, type SweepReport } from '../report/schema.js';
import { DEFAULT_ARC_BUDGET, DEFAULT_BUDGET, parseBudget } from './budget.js';
import { prepareSweep, sweep, type SweepOptions } from './sweep.js';
import { isBroken } from './plan.js';
import { PythonGame } from '../python/index.js';
import { FIXTURE_ENGINE } from '../../test/support/python.js';
import { stubQualifier } from '../../test/support/sweep.js';
import { clopperPearson } from '../random/clopper-pearson.js';
import { tempFolders } from '../../test/support/temp.js';

const fixture = (name: string): string => join(__dirname, '../../test/fixtures', `${name}.ts`);
const tempDir = tempFolders('arcgraph-sweep-');
const readReport = (dir: string): SweepReport => parseReport(readFileSync(join(dir, 'report.json'), 'utf8'));

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

async function run(games: string[], opts: Partial<SweepOptions> = {}): Promise<{ report: SweepReport; out: string }> {
  const out = tempDir();
  const report = await sweep({ games: games.map(fixture), out, workers: 1, qualifier: stubQualifier(), ...opts });
  for (const g of report.games) if (g.error && !opts.qualifier) throw new Error(`unexpected error in ${g.game}: ${g.error}`);
  return { report, out };
}

describe('sweep outcomes', () => {
  it('gives each ruin level its exact random-win fraction start/N and fails exactly the levels above the threshold (one at it passes)', async () => {
    const { report, out } = await run(['ruin'], { threshold: 0.5 });
    const [game] = report.games;
    expect(game.levels).toHaveLength(RUIN_LEVELS.length);
    RUIN_LEVELS.forEach(({ n, start }, i) => {
      const level = game.levels[i];
      const d = gcd(start, n);
      expect(level.explore!.nodes).toBe(n + 1);
      expect(level.explore!.fullyExplored).toBe(true);
      expect(level.analysis!.pWin.exact).toMatchObject({ p: String(start / d), q: String(n / d) });
      expect(level.analysis!.shortestWin!.length).toBe(n - start);
      expect(level.outcome).toBe(start / n > 0.5 ? 'fail' : 'pass');
    });
    expect(report.passed).toBe(false);
    expect(report.status).toBe('complete');
    expect(report.summary).toMatchObject({ games: 1, levels: 6, fail: 1, pass: 5, crashes: 0 });
    expect(readdirSync(out).sort()).toEqual(['assets', 'games', 'index.html', 'report.json', 'report.md']);
    expect(readReport(out)).toEqual(JSON.parse(JSON.stringify(report)));
    // a local sweep runs every job here, and says so
    expect(report.settings).toMatchObject({ workers: 1, queue: null });
    for (const level of game.levels) {
      expect(level.ranOn.map((r) => [r.stage, r.machine, r.worker])).toEqual(['explore', 'monte-carlo'].map((stage) => [stage, hostname(), `${hostname()}:${process.pid}`]));
      expect(level.seconds).toBeCloseTo(level.ranOn[0].seconds + level.ranOn[1].seconds, 9);
    }
    expect(game.qualification!.ranOn).toMatchObject({ stage: 'qualify', worker: `${hostname()}:${process.pid}` });
  });

  it('passes when every level is below the threshold and qualification passes', async () => {
    const { report } = await run(['ruin', 'maze'], { threshold: 0.9 });
    expect(report.games.map((g) => g.outcome)).toEqual(['pass', 'pass']);
    expect(report.passed).toBe(true);
  });

  it('fails a level that qualification fails, and only that one', async () => {
    const { report } = await run(['ruin'], { threshold: 0.9, qualifier: stubQualifier({ fail: { ruin: [2] } }) });
    const outcomes = report.games[0].levels.map((l) => l.outcome);
    expect(outcomes).toEqual(['pass', 'fail', 'pass', 'pass', 'pass', 'pass']);
    expect(report.games[0].levels[1].reasons).toEqual(['qualification failed: random1 random-win: random play won level 2']);
    expect(report.games[0].qualification!.findings).toHaveLength(1);
    expect(report.passed).toBe(false);
  });

  it('bounds the probability of a level explored partially and calls it inconclusive when the bounds straddle the threshold', async () => {
    const { report } = await run(['ruin'], { threshold: 0.3, budget: { nodes: 8, randomSteps: 0 } });
    for (const [i, { n, start }] of RUIN_LEVELS.entries()) {
      const level = report.games[0].levels[i];
      const p = start / n;
      expect(level.analysis!.pWin.lower).toBeLessThanOrEqual(p);
      expect(level.analysis!.pWin.upper).toBeGreaterThanOrEqual(p);
      if (n + 1 <= 8) continue;
      expect(level.explore!.fullyExplored).toBe(false);
      expect(level.explore!.stopReason).toBe('max-nodes');
      expect(level.analysis!.pWin.method).toBe('bounds');
      const { lower, upper } = level.analysis!.pWin;
      expect(level.outcome).toBe(lower >= 0.3 ? 'fail' : upper < 0.3 ? 'pass' : 'inconclusive');
    }
    expect(report.games[0].levels.some((l) => l.outcome === 'inconclusive')).toBe(true);
  });

  it('settles levels the graph leaves inconclusive with random play, whose bounds hold the exact value', async () => {
    const { report, out } = await run(['ruin'], { threshold: 0.3, budget: { nodes: 8, randomSteps: 200_000 } });
    let settled = 0;
    for (const [i, { n, start }] of RUIN_LEVELS.entries()) {
      const level = report.games[0].levels[i];
      const mc = level.monteCarlo;
      if (level.analysis!.verdict !== 'inconclusive') {
        expect(mc).toBeNull();
        continue;
      }
      expect(mc).not.toBeNull();
      expect(mc!.steps).toBe(200_000);
      const p = start / n;
      expect(clopperPearson(mc!.wins, mc!.episodes, 0.0005).lower).toBeLessThanOrEqual(p);
      expect(clopperPearson(mc!.wins + mc!.cutOff, mc!.episodes, 0.0005).upper).toBeGreaterThanOrEqual(p);
      expect(level.outcome).toBe(mc!.verdict);
      if (mc!.verdict !== 'inconclusive') settled++;
    }
    expect(settled).toBeGreaterThan(0);
    expect(parseReport(readFileSync(join(out, 'report.json'), 'utf8')).games[0].levels.map((l) => l.outcome)).toEqual(report.games[0].levels.map((l) => l.outcome));
  });

  it('counts a hang as a hang, not as a crash too', async () => {
    const { report } = await run(['boom', 'hang'], { threshold: 0.9, stepSeconds: 1 });
    expect(report.games.map((g) => g.levels[0].crash?.kind)).toEqual(['crash', 'hang']);
    expect(report.summary).toMatchObject({ hangs: 1, crashes: 1 });
  });

  it('records a crash with an action sequence that reproduces it, and goes on with the next game', async () => {
    const { report } = await run(['boom', 'ruin'], { threshold: 0.9 });
    const [boom, ruin] = report.games;
    const crash = boom.levels[0].crash!;
    expect(crash.actions).toHaveLength(4);
    const { game } = await loadGame(fixture('boom'));
    const actions = crash.actions.map(parseAction);
    let state = game.init(1);
    for (const a of actions.slice(0, -1)) state = game.step(state, a);
    expect(() => game.step(state, actions[actions.length - 1])).toThrow(/boom/);
    expect(actions.every((a) => a.id === GameAction.ACTION1 || a.id === GameAction.ACTION2)).toBe(true);
    expect(boom.outcome).toBe('fail');
    expect(report.summary.crashes).toBe(1);
    expect(ruin.outcome, JSON.stringify(ruin.levels.map((l) => l.reasons).concat([ruin.error as never]))).toBe('pass');
    expect(report.passed).toBe(false);
  });

  it('keeps going after an error in one game, recording it against that game', async () => {
    const qualifier = stubQualifier({ throwFor: ['maze'] });
    const { report, out } = await run(['maze', 'ruin'], { threshold: 0.9, qualifier });
    expect(qualifier.calls).toEqual(['maze', 'ruin']);
    expect(report.games[0].error).toMatch(/stub qualification of maze broke/);
    expect(report.games[0].outcome).toBe('fail');
    expect(report.games[0].levels).toHaveLength(2);
    expect(report.games[1].outcome).toBe('pass');
    expect(report.status).toBe('complete');
    expect(readReport(out).games.map((g) => g.game)).toEqual(['maze', 'ruin']);
  });
});

describe('sweep interruption', () => {
  it('stopped after the first game: the reports exist, parse and hold that game only', async () => {
    const abort = new AbortController();
    const qualifier = stubQualifier();
    const { report, out } = await run(['maze', 'ruin', 'lights'], {
      qualifier,
      signal: abort.signal,
      onEvent: (e) => e.kind === 'game' && abort.abort(),
    });
    expect(qualifier.calls).toEqual(['maze']);
    expect(report.status).toBe('interrupted');
    const onDisk = readReport(out);
    expect(onDisk.status).toBe('interrupted');
    expect(onDisk.games.map((g) => g.game)).toEqual(['maze']);
    expect(onDisk.games[0].levels).toHaveLength(2);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('## maze');
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toMatch(/<\/html>\n$/);
    expect(readdirSync(out).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('stopped in the middle of a game: that game is left out, the finished one stays', async () => {
    const abort = new AbortController();
    const { report, out } = await run(['maze', 'ruin'], {
      signal: abort.signal,
      onEvent: (e) => e.kind === 'level' && e.game === 'ruin' && e.level.level === 2 && abort.abort(),
    });
    expect(report.games.map((g) => g.game)).toEqual(['maze']);
    const onDisk = readReport(out);
    expect(onDisk.status).toBe('interrupted');
    expect(onDisk.games.map((g) => g.game)).toEqual(['maze']);
    expect(onDisk.summary.levels).toBe(2);
  });
});

describe('a sweep into a folder that holds an earlier report', () => {
  const files = (dir: string): string[] => (readdirSync(dir, { recursive: true }) as string[]).map((f) => f.split('\\').join('/')).sort();
  const real = { budget: { stepsScale: 0.001, randomSteps: 100 } };

  it("replaces it: the earlier night's pages and reproductions go, the user's own files stay", async () => {
    const out = tempDir();
    const first = await sweep({ games: ['boom', 'ruin'].map(fixture), out, workers: 1, ...real });
    // the real qualifier wrote reproductions for both games (boom throws, ruin is winnable by luck)
    expect(first.games.map((g) => g.qualification!.findings.filter((f) => f.reproduction).length).every((n) => n > 0)).toBe(true);
    const earlier = files(out).filter((f) => f.startsWith('reproductions/') && f.endsWith('.jsonl'));
    expect(earlier.some((f) => f.startsWith('reproductions/boom/'))).toBe(true);
    writeFileSync(join(out, 'notes.txt'), 'mine');
    mkdirSync(join(out, 'games', 'mine'));
    writeFileSync(join(out, 'games', 'mine', 'keep.txt'), 'mine');

    const second = await sweep({ games: [fixture('ruin')], out, workers: 1, ...real });
    const after = files(out);
    // boom's pages and reproductions are gone; ruin's are this night's alone
    expect(after.filter((f) => f.includes('boom'))).toEqual([]);
    const ruinNow = second.games[0].qualification!.findings.flatMap((f) => (f.reproduction ? [f.reproduction] : []));
    expect(after.filter((f) => f.startsWith('reproductions/')).filter((f) => f.endsWith('.jsonl')).map((f) => join(out, f)).sort()).toEqual([...ruinNow].sort());
    for (const f of earlier) expect(after).not.toContain(f);
    expect(readReport(out).games.map((g) => g.game)).toEqual(['ruin']);
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('mine');
    expect(existsSync(join(out, 'games', 'mine', 'keep.txt'))).toBe(true);
  });

  it('keeps the earlier report when the new night fails to load its games', async () => {
    const out = tempDir();
    await sweep({ games: [fixture('ruin')], out, workers: 1, qualifier: stubQualifier() });
    const before = files(out);
    await expect(sweep({ games: [fixture('ruin'), join(out, 'no-such-game.ts')], out, workers: 1, qualifier: stubQualifier() })).rejects.toThrow();
    expect(files(out)).toEqual(before);
  });

  it("leaves a folder alone whose report.json is not arcgraph's", async () => {
    const out = tempDir();
    mkdirSync(join(out, 'games', 'ruin'), { recursive: true });
    writeFileSync(join(out, 'games', 'ruin', 'level-1.html'), 'theirs');
    writeFileSync(join(out, 'report.json'), JSON.stringify({ games: [{ game: 'ruin', levelCount: 1, levels: [{ level: 1 }] }] }));
    await sweep({ games: [fixture('maze')], out, workers: 1, qualifier: stubQualifier() });
    expect(readFileSync(join(out, 'games', 'ruin', 'level-1.html'), 'utf8')).toBe('theirs');
  });
});

describe('parseBudget', () => {
  it('reads any subset of the keys over the defaults', () => {
    const base = { nodes: 10, seconds: 5, stepsScale: 1 };
    expect(parseBudget('nodes=200,steps-scale=0.25', base)).toEqual({ nodes: 200, seconds: 5, stepsScale: 0.25 });
    expect(parseBudget('seconds=1.5', base)).toEqual({ nodes: 10, seconds: 1.5, stepsScale: 1 });
  });

  it('rejects unknown keys, missing values and bad numbers', () => {
    for (const bad of ['node=5', 'nodes', 'nodes=1.5', 'seconds=-1', 'steps-scale=x', 'nodes=5=6', '', 'nodes=1e99', 'random-steps=1e16', 'seconds=1e300', 'nodes=10,nodes=20']) {
      expect(() => parseBudget(bad), bad).toThrow(/--budget/);
    }
  });
});

describe('the budget a sweep starts from', () => {
  const budgetOf = async (options: Parameters<typeof prepareSweep>[0]) => {
    const { loaded, plan } = await prepareSweep(options);
    for (const l of loaded) if (!isBroken(l) && l.game instanceof PythonGame) l.game.close();
    return plan.settings.budget;
  };
  const arc = { arcGames: join(FIXTURE_ENGINE, 'games'), python: { engine: FIXTURE_ENGINE } };

  it("is the ARC default for the games of --arc-games, all of them or those --games names (it was the suite's 2,000,000 random steps a level for a named one)", async () => {
    expect(await budgetOf({ ...arc, games: ['hid1'] })).toEqual(DEFAULT_ARC_BUDGET);
    expect(await budgetOf({ ...arc, games: ['hid1'], budget: { seconds: 2 } })).toEqual({ ...DEFAULT_ARC_BUDGET, seconds: 2 });
    expect(await budgetOf({ games: [fixture('ruin')] })).toEqual(DEFAULT_BUDGET);
  });
});
