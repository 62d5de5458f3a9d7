import { describe, expect, it } from 'vitest';
import { formatApart, formatProbability, formatPythonRun } from './summary.js';
import { markdownText } from './markdown.js';
import type { PythonLevelReport } from './schema.js';

describe('probabilities in reports', () => {
  it('tells two different probabilities apart with the digits it takes, three when those do', () => {
    expect(formatApart(0.2, 0.4)).toEqual(['0.200', '0.400']);
    // 2047/20480000 and 2049/20480000 both read 1.00e-4 at three digits
    expect(formatProbability(2047 / 20_480_000)).toBe(formatProbability(2049 / 20_480_000));
    expect(formatApart(2047 / 20_480_000, 2049 / 20_480_000)).toEqual(['9.995e-5', '1.000e-4']);
  });
});

describe("a real ARC game's level start and title in reports", () => {
  const py: PythonLevelReport = { levelStart: 'played', startNote: null, identity: 'state', graphBuilder: false, snapshots: 'pickle', clicks: null, unoffered: 'stay', unofferedActs: [] };

  it("says level 1 starts at the game's RESET (it said 'where the shortest wins of the earlier levels lead', of which it has none)", () => {
    expect(formatPythonRun(py, 1)).toBe("started at the game's RESET; identity state");
    expect(formatPythonRun(py, 2)).toBe('started where the shortest wins of the earlier levels lead; identity state');
    expect(formatPythonRun({ ...py, levelStart: 'set-level' }, 1)).toBe("started at the engine's set_level; identity state");
  });

  it('escapes a title in a Markdown heading: its HTML and Markdown marks show as written', () => {
    expect(markdownText('Ünïcødé 🎮 <b>&amp; "quote"</b> | pipe *x* [l](u) #1')).toBe('Ünïcødé 🎮 &lt;b&gt;&amp;amp; "quote"&lt;/b&gt; \\| pipe \\*x\\* \\[l\\](u) \\#1');
  });
});
