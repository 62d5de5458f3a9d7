import { describe, expect, it } from 'vitest';
import noncanon from '../../test/fixtures/faults/noncanon.js';
import { repeatFlaky, RESET } from './flaky.js';

describe('repeatFlaky', () => {
  it('repeats a reset state that differs from one reset to the next (no actions: the fault is at reset)', () => {
    // Every reset encodes differently (p = 63/64 that two differ): 3 repeats make replay's miss
    // chance (1/64)^(2*3) < 1e-9, so the empty sequence is followed by two more RESET pairs.
    expect(repeatFlaky(noncanon, 1, [])).toEqual([RESET, RESET, RESET, RESET]);
  });
});
