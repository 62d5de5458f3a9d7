import { describe, expect, it } from 'vitest';
import { formatApart, formatProbability, formatPWin, formatPythonRun, scientific } from './summary.js';
import { markdownText } from './markdown.js';
import type { LevelReport, PythonLevelReport } from './schema.js';

describe('probabilities in reports', () => {
  it('tells two different probabilities apart with the digits it takes, three when those do', () => {
    expect(formatApart(0.2, 0.4)).toEqual(['0.200', '0.400']);
    // 2047/20480000 and 2049/20480000 both read 1.00e-4 at three digits
    expect(formatProbability(2047 / 20_480_000)).toBe(formatProbability(2049 / 20_480_000));
    expect(formatApart(2047 / 20_480_000, 2049 / 20_480_000)).toEqual(['9.995e-5', '1.000e-4']);
    // A level's long exact fraction within 1% of the threshold: six digits and the odds in full (both read "1 in 10.0k")
    const near = (p: string, q: string) => ({ level: 3, explore: null, analysis: { threshold: 1e-4, pWin: { exact: { p, q, oneIn: Number(q) / Number(p) }, lower: Number(p) / Number(q), upper: Number(p) / Number(q) } } }) as unknown as LevelReport;
    expect(formatPWin(near('510000000051', '5100000000000000'))).toBe('1.00000e-4 (1 in 10,000, exact)');
    expect(formatPWin(near('510000000051', '5120000000000000'))).toBe('9.96094e-5 (1 in 10,039, exact)');
    expect(formatPWin(near('510000000051', '2550000000000000'))).toBe('2.00e-4 (1 in 5000, exact)');
  });

  it('writes an exact probability below any double from its integers (a 2,000-step corridor, 2^-2000, read "0 (1 in ∞, exact)")', () => {
    const q = (2n ** 2000n).toString();
    expect(scientific('1', q)).toBe('8.71e-603');
    expect(scientific(q, '1')).toBe('1.15e+602');
    const level = { level: 2, explore: null, analysis: { pWin: { exact: { p: '1', q, oneIn: null }, lower: 0, upper: 0 } } } as unknown as LevelReport;
    expect(formatPWin(level)).toBe('8.71e-603 (1 in 1.15e+602, exact)');
    // Against doubles where they reach: the digits of p/q, rounded (checked on fractions up to 1/99,999).
    for (const [p, n] of [[1, 3], [2, 3], [5, 10_000], [7, 99_999], [22533, 390625], [19, 2]]) {
      expect(Number(scientific(String(p), String(n)))).toBe(Number((p / n).toExponential(2)));
    }
  });
});

describe("a real ARC game's level start and title in reports", () => {
  const py: PythonLevelReport = { levelStart: 'played', startNote: null, identity: 'state', graphBuilder: false, snapshots: 'pickle', clicks: null, unoffered: 'stay', unofferedActs: [] };

  it("says level 1 starts at the game's RESET (it said 'where the shortest wins of the earlier levels lead', of which it has none)", () => {
    expect(formatPythonRun(py, 1)).toBe("started at the game's RESET; identity state");
    expect(formatPythonRun(py, 2)).toBe('started where the shortest wins of the earlier levels lead; identity state');
    expect(formatPythonRun({ ...py, levelStart: 'set-level' }, 1)).toBe("started at the engine's set_level; identity state");
  });

  it('lists the other starts a level was explored from, a long exact probability as its value (it printed 49 digits)', () => {
    const other = { startActions: ['ACTION2'], nodes: 5, fullyExplored: true, winReachable: true, shortestWin: 3, verdict: 'pass' as const, problem: null };
    const short = { ...other, pWin: { lower: 0.5, upper: 0.5, exact: { p: '1', q: '2' } } };
    const long = { ...other, startActions: ['ACTION1', 'ACTION2', 'RESET'], attempt: 2, pWin: { lower: 1.2345678e-5, upper: 1.2345678e-5, exact: { p: '1234567812345678123456781', q: '100000000000000000000000000000' } } };
    expect(formatPythonRun({ ...py, otherStarts: [short, long] }, 2)).toBe(
      'started where the shortest wins of the earlier levels lead; identity state; also explored from the starts other wins of the previous level lead to: (ACTION2): 5 states, shortest 3, p 1/2, pass; also explored from where later attempts start (a loss, then RESET): attempt 2 (ACTION1 ACTION2 RESET): 5 states, shortest 3, p 1.23457e-5, pass',
    );
  });

  it('escapes a title in a Markdown heading: its HTML and Markdown marks show as written', () => {
    expect(markdownText('Ünïcødé 🎮 <b>&amp; "quote"</b> | pipe *x* [l](u) #1')).toBe('Ünïcødé 🎮 &lt;b&gt;&amp;amp; "quote"&lt;/b&gt; \\| pipe \\*x\\* \\[l\\](u) \\#1');
  });
});
