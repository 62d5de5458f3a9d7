import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sweep, type SweepOptions } from '../sweep/sweep.js';
import { stubQualifier } from '../../test/support/sweep.js';
import { gameRegressions, readBaseline } from './baseline.js';
import type { SweepReport } from './schema.js';
import { tempFolders } from '../../test/support/temp.js';

const fixture = (name: string): string => join(__dirname, '../../test/fixtures', `${name}.ts`);
const tempDir = tempFolders('arcgraph-baseline-');

async function run(games: string[], opts: Partial<SweepOptions> = {}): Promise<{ report: SweepReport; out: string }> {
  const out = tempDir();
  const report = await sweep({ games: games.map(fixture), out, workers: 1, threshold: 0.5, qualifier: stubQualifier(), ...opts });
  return { report, out };
}

const keys = (r: SweepReport): string[] => r.regressions.map((g) => `${g.game}/${g.level ?? '-'}/${g.kind}`).sort();

describe('baseline comparison', () => {
  let baseline: SweepReport;
  let baselineFile: string;

  beforeAll(async () => {
    const { out } = await run(['ruin', 'maze']);
    baselineFile = join(out, 'report.json');
    baseline = await readBaseline(baselineFile);
  });

  it('finds no regression against an identical sweep, and records what each level was', async () => {
    const { report } = await run(['ruin', 'maze'], { baseline: { path: baselineFile, report: baseline } });
    expect(report.regressions).toEqual([]);
    expect(report.baseline).toEqual({ path: baselineFile, startedAt: baseline.startedAt });
    for (const [g, game] of report.games.entries()) {
      for (const [i, level] of game.levels.entries()) {
        const old = baseline.games[g].levels[i];
        expect(level.previous).toEqual({
          source: 'baseline',
          startedAt: baseline.startedAt,
          outcome: old.outcome,
          states: old.explore!.nodes,
          startHash: old.startHash,
          gameHash: baseline.games[g].contentHash,
          shortestWin: old.analysis!.shortestWin!.length,
          pWin: { lower: old.analysis!.pWin.lower, upper: old.analysis!.pWin.upper },
          crashed: false,
        });
      }
    }
  });

  it('flags exactly the levels that got worse, in all three reports', async () => {
    // doctor the baseline so that the current sweep is worse in known places
    const old: SweepReport = JSON.parse(JSON.stringify(baseline));
    const [ruin, maze] = old.games;
    ruin.levels[3].outcome = 'pass'; // 7/10 fails at 0.5: a new failure
    ruin.levels[1].analysis!.pWin = { ...ruin.levels[1].analysis!.pWin, lower: 0.1, upper: 0.2 }; // now 2/5: rose
    ruin.levels[4].analysis!.shortestWin!.length = 10; // now 15: longer
    maze.levels[0].analysis!.shortestWin!.length = 3; // now 6: longer
    // the baseline saw boom without its crash
    const { report: boomNow } = await run(['boom']);
    const boom = JSON.parse(JSON.stringify(boomNow.games[0]));
    boom.levels[0] = { ...boom.levels[0], crash: null, outcome: 'pass', reasons: [] };
    boom.outcome = 'pass';
    old.games.push(boom);
    const file = join(tempDir(), 'report.json');
    writeFileSync(file, JSON.stringify(old));

    const { report, out } = await run(['ruin', 'maze', 'boom'], {
      baseline: { path: file, report: await readBaseline(file) },
      qualifier: stubQualifier({ fail: { maze: [2] } }),
    });
    expect(keys(report)).toEqual([
      'boom/1/new-crash',
      'maze/-/new-failure',
      'maze/1/solution-longer',
      'maze/2/new-failure',
      'ruin/2/pwin-rose',
      'ruin/4/new-failure',
      'ruin/5/solution-longer',
    ]);
    expect(report.summary.regressions).toBe(7);
    expect(report.regressions.find((r) => r.kind === 'pwin-rose')!.message).toBe('ruin level 2: random-win probability rose from <= 0.200 to >= 0.400');
    const json = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(json.regressions).toEqual(report.regressions);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('## Regressions');
    expect(md.match(/▲ REGRESSION/g)).toHaveLength(6); // the level rows (the game-wide one is in the list)
    expect(md).toContain('15 (baseline 15, +0; was 10)');
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    expect(html.match(/<tr class="level-row regression"/g)).toHaveLength(6);
    expect(html.match(/<li class="regression-text">/g)).toHaveLength(7);
  });

  it('does not flag a solution lost only to the time budget on an unchanged level: a budget note instead; a changed level is still flagged', async () => {
    // night 1: complete (3 steps right, 150 ms a step); night 2: the same game stopped by its time budget after the first layer
    const first = await run(['faults/sluggish'], { budget: { seconds: 30 } });
    const firstFile = join(first.out, 'report.json');
    const before = await readBaseline(firstFile);
    expect(before.games[0].levels[0]).toMatchObject({ explore: { fullyExplored: true }, analysis: { shortestWin: { length: 3 } } });
    const { report } = await run(['faults/sluggish'], { budget: { seconds: 0.5 }, baseline: { path: firstFile, report: before } });
    const level = report.games[0].levels[0];
    expect(level.explore).toMatchObject({ fullyExplored: false, stopReason: 'max-seconds' });
    expect(level.analysis!.shortestWin).toBeNull();
    expect(keys(report)).toEqual([]);
    expect(report.games[0].warnings).toEqual([expect.stringMatching(/^budget: slug level 1: the solution of 3 actions was not found again, the search stopped by its budget \(max-seconds\)/)]);
    // the same partial graph against a night whose level started elsewhere: the level changed, a regression
    expect(gameRegressions(report.games[0], { error: false, qualificationPassed: null }).map((r) => r.kind)).toEqual([]);
    const again = { ...report.games[0], levels: [{ ...level, previous: { ...level.previous!, startHash: '0000000000000000' } }] };
    expect(gameRegressions(again, { error: false, qualificationPassed: null }).map((r) => r.kind)).toEqual(['solution-lost']);
    // and a complete graph without the win is one whatever the budget
    const complete = { ...report.games[0], levels: [{ ...level, explore: { ...level.explore!, fullyExplored: true, stopReason: null } }] };
    expect(gameRegressions(complete, { error: false, qualificationPassed: null }).map((r) => r.kind)).toEqual(['solution-lost']);
  });

  it('flags a solution that was found before and is not any more', async () => {
    const { report } = await run(['ruin'], { budget: { nodes: 12 }, baseline: { path: baselineFile, report: baseline } });
    // with 12 states the corridors of 21 and 41 cells are explored without reaching their goal
    expect(keys(report)).toEqual(['ruin/5/solution-lost', 'ruin/6/solution-lost']);
    expect(gameRegressions(report.games[0], undefined)).toEqual([]);
  });

  it('refuses a baseline that is missing or not a report', async () => {
    await expect(readBaseline(join(tempDir(), 'none.json'))).rejects.toThrow(/cannot read the baseline .*ENOENT/);
    const bad = join(tempDir(), 'bad.json');
    writeFileSync(bad, JSON.stringify({ schemaVersion: 1, games: [] }));
    await expect(readBaseline(bad)).rejects.toThrow(/is not a valid report: \$\.tool: missing/);
  });
});
