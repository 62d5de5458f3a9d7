import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sweep } from '../sweep/sweep.js';
import { stubQualifier } from '../../test/support/sweep.js';
import { arr, check, int, nullable, num, obj, oneOf, str } from './check.js';
import { parseReport, SCHEMA_VERSION, validateReport, type SweepReport } from './schema.js';
import { tempFolders } from '../../test/support/temp.js';

const tempDir = tempFolders('arcgraph-schema-');

const fixture = (name: string): string => join(__dirname, '../../test/fixtures', `${name}.ts`);

describe('check', () => {
  const schema = obj({ a: int({ min: 0 }), b: nullable(str), c: arr(oneOf('x', 'y')), d: num({ max: 1 }) }, { optional: ['d'] });

  it('accepts conforming values, optional fields absent', () => {
    expect(check(schema, { a: 0, b: null, c: ['x', 'y'] })).toEqual([]);
    expect(check(schema, { a: 3, b: 's', c: [], d: -2.5 })).toEqual([]);
  });

  it('names the path of every departure', () => {
    expect(check(schema, { a: 1.5, b: 3, c: ['z'], d: 2, e: true })).toEqual([
      '$.a: expected an integer, got 1.5',
      '$.b: expected a string, got number',
      '$.c[0]: expected one of "x", "y", got "z"',
      '$.d: 2 is above 1',
      '$.e: not in the schema',
    ]);
    expect(check(schema, { b: null, c: [] })).toEqual(['$.a: missing']);
    expect(check(schema, [])).toEqual(['$: expected an object, got an array']);
    expect(check(num(), Infinity)).toEqual(['$: expected a finite number, got number']);
    expect(check(int({ min: 0 }), -1)).toEqual(['$: -1 is below 0']);
  });

  it('lets open objects carry other fields', () => {
    expect(check(obj({ a: str }, { open: true }), { a: 'x', b: 1 })).toEqual([]);
  });
});

describe('report.json schema', () => {
  let report: SweepReport;
  let onDisk: string;

  beforeAll(async () => {
    // a report with every kind of level: exact, partial (bounds and a hint), crashed, a failed qualification, and a baseline
    const qualifier = stubQualifier({ fail: { maze: [1] } });
    const first = await sweep({ games: [fixture('ruin'), fixture('maze')], out: tempDir(), workers: 1, qualifier });
    const out = tempDir();
    report = await sweep({
      games: [fixture('ruin'), fixture('maze'), fixture('boom')],
      out,
      workers: 1,
      qualifier,
      budget: { nodes: 15 },
      baseline: { path: 'first/report.json', report: first },
    });
    onDisk = readFileSync(join(out, 'report.json'), 'utf8');
  });

  it('holds a real report, as written to disk', () => {
    const parsed = JSON.parse(onDisk);
    expect(validateReport(parsed)).toEqual([]);
    expect(parseReport(onDisk)).toEqual(parsed);
    expect(parsed.schemaVersion).toBe(SCHEMA_VERSION);
    const levels = report.games.flatMap((g) => g.levels);
    expect(levels.some((l) => l.analysis?.pWin.method === 'exact')).toBe(true);
    expect(levels.some((l) => l.analysis?.pWin.method === 'bounds')).toBe(true);
    expect(levels.some((l) => l.crash !== null)).toBe(true);
    expect(report.regressions.length).toBeGreaterThan(0);
  });

  /** Every object in the value, with its path. */
  function objects(value: unknown, path = '$'): { path: string; object: Record<string, unknown> }[] {
    if (Array.isArray(value)) return value.flatMap((v, i) => objects(v, `${path}[${i}]`));
    if (value === null || typeof value !== 'object') return [];
    const object = value as Record<string, unknown>;
    return [{ path, object }, ...Object.entries(object).flatMap(([k, v]) => objects(v, `${path}.${k}`))];
  }

  it('is closed everywhere: a field added to any object of the report is caught at its path', () => {
    const parsed = JSON.parse(onDisk);
    const all = objects(parsed);
    expect(all.length).toBeGreaterThan(100);
    for (const { path, object } of all) {
      object.extra = 1;
      expect(validateReport(parsed)).toContain(`${path}.extra: not in the schema`);
      delete object.extra;
    }
  });

  it('requires every field: removing any field of any object is caught at its path', () => {
    const parsed = JSON.parse(onDisk);
    for (const { path, object } of objects(parsed)) {
      for (const key of Object.keys(object)) {
        // optional: a report written before the field existed is still read (as --baseline)
        if (path.endsWith('.previous') && key === 'gameHash') continue;
        const value = object[key];
        delete object[key];
        expect(validateReport(parsed)).toContain(`${path}.${key}: missing`);
        object[key] = value;
      }
    }
    expect(validateReport(parsed)).toEqual([]);
  });

  it('reads a version-2 report written before pWin had its width and the reasons exact and interval gave up', () => {
    const parsed = JSON.parse(onDisk);
    let levels = 0;
    for (const game of parsed.games) {
      for (const level of game.levels) {
        if (!level.analysis) continue;
        delete level.analysis.pWin.width;
        delete level.analysis.pWin.relativeWidth;
        delete level.analysis.pWin.exactGaveUp;
        delete level.analysis.pWin.intervalGaveUp;
        levels++;
      }
    }
    expect(levels).toBeGreaterThan(0);
    const read = parseReport(JSON.stringify(parsed));
    for (const game of read.games) {
      for (const level of game.levels) {
        if (!level.analysis) continue;
        const { pWin } = level.analysis;
        expect(pWin.width).toBe(pWin.upper - pWin.lower);
        expect(pWin.exactGaveUp).toBeNull();
        expect(pWin.intervalGaveUp).toBeNull();
      }
    }
  });

  it('reads a report written before the unoffered-action mode was recorded as one that took them as staying put', () => {
    const parsed = JSON.parse(onDisk);
    delete parsed.settings.unoffered;
    // a real ARC game's level of such a report: its python block without the two fields
    const level = parsed.games[0].levels.find((l: { explore: unknown }) => l.explore);
    level.explore.python = { levelStart: 'played', startNote: null, identity: 'state', graphBuilder: false, snapshots: 'pickle', clicks: null };
    expect(validateReport(parsed).sort()).toEqual([`$.games[0].levels[${parsed.games[0].levels.indexOf(level)}].explore.python.unoffered: missing`, `$.games[0].levels[${parsed.games[0].levels.indexOf(level)}].explore.python.unofferedActs: missing`, '$.settings.unoffered: missing'].sort());
    const read = parseReport(JSON.stringify(parsed));
    expect(read.settings.unoffered).toBe('stay');
    expect(read.games[0].levels.find((l) => l.explore)!.explore!.python).toMatchObject({ unoffered: 'stay', unofferedActs: [] });
  });

  it('reads a version-3 report written before crashes had a kind and the summary counted hangs', () => {
    const parsed = JSON.parse(onDisk);
    const crashed = parsed.games.flatMap((g: { levels: { crash: Record<string, unknown> | null }[] }) => g.levels).filter((l: { crash: unknown }) => l.crash);
    expect(crashed.length).toBeGreaterThan(0);
    for (const level of crashed) {
      expect(level.crash.kind).toBe('crash');
      delete level.crash.kind;
    }
    delete parsed.summary.hangs;
    const read = parseReport(JSON.stringify(parsed));
    expect(read.summary.hangs).toBe(0);
    expect(read.games.flatMap((g) => g.levels).filter((l) => l.crash).map((l) => l.crash!.kind)).toEqual(crashed.map(() => 'crash'));
  });

  it('catches wrong types and values', () => {
    const parsed = JSON.parse(onDisk);
    parsed.games[0].levels[0].analysis.pWin.upper = 1.5;
    parsed.games[0].levels[0].outcome = 'maybe';
    parsed.summary.levels = '11';
    expect(validateReport(parsed)).toEqual([
      '$.games[0].levels[0].analysis.pWin.upper: 1.5 is above 1',
      '$.games[0].levels[0].outcome: expected one of "pass", "fail", "inconclusive", "hang", got "maybe"',
      '$.summary.levels: expected a finite number, got string',
    ]);
  });

  it("takes a declared baseline of 0 (a real ARC game's level won at its RESET): it broke the schema and ended the whole sweep", () => {
    const parsed = JSON.parse(onDisk);
    const level = parsed.games[0].levels.find((l: { analysis: unknown }) => l.analysis);
    level.analysis.baseline = { declared: 0, shortest: 0, difference: 0 };
    expect(validateReport(parsed)).toEqual([]);
    level.analysis.baseline.declared = -1;
    expect(validateReport(parsed)).toEqual([`$.games[0].levels[${parsed.games[0].levels.indexOf(level)}].analysis.baseline.declared: -1 is below 0`]);
  });

  it('parseReport refuses other versions, non-JSON and invalid reports with a reason', () => {
    expect(() => parseReport(onDisk.replace(/"schemaVersion": 3/, '"schemaVersion": 4'))).toThrow(/schemaVersion 4; this arcgraph reads versions 1, 2 and 3/);
    expect(() => parseReport('{"schemaVersion": 3')).toThrow(/not JSON/);
    expect(() => parseReport(onDisk.replace(/"passed": (true|false)\n}/, '"passed": "yes"\n}'))).toThrow(/\$\.passed: expected a boolean/);
  });

  it('reads a version-2 report (as --baseline): where jobs ran reads as nowhere, the queue as none', () => {
    const v2 = JSON.parse(onDisk);
    v2.schemaVersion = 2;
    delete v2.settings.queue;
    for (const game of v2.games) {
      if (game.qualification) delete game.qualification.ranOn;
      for (const level of game.levels) delete level.ranOn;
    }
    const read = parseReport(JSON.stringify(v2));
    expect(read.schemaVersion).toBe(SCHEMA_VERSION);
    expect(read.settings.queue).toBeNull();
    expect(read.games.flatMap((g) => g.levels.map((l) => l.ranOn))).toEqual(read.games.flatMap((g) => g.levels.map(() => [])));
    expect(read.games.flatMap((g) => g.levels.map((l) => l.previous))).toEqual(report.games.flatMap((g) => g.levels.map((l) => JSON.parse(JSON.stringify(l.previous)))));
  });

  it('reads a version-1 report (as --baseline): the fields version 2 added read as null', () => {
    const v1 = JSON.parse(onDisk);
    v1.schemaVersion = 1;
    delete v1.history;
    for (const game of v1.games) {
      delete game.contentHash;
      for (const level of game.levels) {
        delete level.startHash;
        // version 1's shape of previous
        if (level.previous) level.previous = { outcome: level.previous.outcome, shortestWin: level.previous.shortestWin, pWin: level.previous.pWin, crashed: level.previous.crashed };
      }
    }
    const read = parseReport(JSON.stringify(v1));
    expect(read.schemaVersion).toBe(SCHEMA_VERSION);
    expect(read.history).toBeNull();
    expect(read.games.map((g) => g.contentHash)).toEqual(read.games.map(() => null));
    expect(read.games.flatMap((g) => g.levels.map((l) => [l.startHash, l.previous]))).toEqual(read.games.flatMap((g) => g.levels.map(() => [null, null])));
    expect(read.games.map((g) => g.levels.map((l) => l.outcome))).toEqual(report.games.map((g) => g.levels.map((l) => l.outcome)));
  });
});
