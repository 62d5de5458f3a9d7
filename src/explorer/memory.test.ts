import { describe, expect, it } from 'vitest';
import { FINGERPRINT_LIMIT } from '../graph/index.js';
import { analysisBytes, finishBytes, peakFromNow } from './memory.js';

const GB = 2 ** 30;

describe('the memory budget of an exploration', () => {
  it("counts the analysis after the search's own memory is gone, and the end of the search before it", () => {
    const [nodes, edges] = [100e6, 450e6];
    const analysis = analysisBytes(nodes, edges);
    // A search holding 2 GB of table and frontier: the analysis will have that 2 GB too.
    expect(peakFromNow(10 * GB, 0, 2 * GB, nodes, edges)).toBe(10 * GB - 2 * GB + analysis);
    // Taking more now than the analysis will need: the peak is now.
    expect(peakFromNow(10 * GB, 8 * GB, 2 * GB, nodes, edges)).toBe(18 * GB);
    // A search's memory larger than the analysis: the end of the search, while it lives, is the peak.
    expect(peakFromNow(10 * GB, 0, 20 * GB, nodes, edges)).toBe(10 * GB + finishBytes(nodes));
  });

  it('sizes the work after the search by the graph: fingerprints kept only for small graphs', () => {
    expect(finishBytes(1000)).toBe(21 * 1000);
    expect(finishBytes(FINGERPRINT_LIMIT + 1)).toBe(13 * (FINGERPRINT_LIMIT + 1));
    // bx19 level 3, measured: 2.60 GB at the analysis' peak for 63.6M states and 208M edges.
    expect(analysisBytes(63_562_700, 207_785_125)).toBeGreaterThan(2.6 * 1e9);
  });
});
