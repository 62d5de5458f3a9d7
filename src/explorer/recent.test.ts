import { describe, expect, it } from 'vitest';
import { Rng } from '../player/rng.js';
import { RecentIds } from './recent.js';

describe('RecentIds', () => {
  it('finds every id it holds that is not forgotten, no other, and stays small as ids are forgotten', () => {
    const map = new RecentIds();
    const rng = new Rng(5);
    const fps: [number, number][] = [];
    let oldest = 0;
    for (let id = 0; id < 200_000; id++) {
      // Crowded halves: shared low halves (same filter bit) and shared high halves.
      const fp: [number, number] = [(rng.below(50_000) * 0x10001 + (id & 1)) >>> 0, rng.below(1 << 30) * 4 + 3];
      fps.push(fp);
      map.add(fp[0], fp[1], id);
      if (id % 1000 === 999) {
        oldest = id - 3000;
        map.forgetBelow(oldest);
        // Every live id is found, whatever was dropped before it.
        for (let j = Math.max(0, oldest); j <= id; j += 37) expect(map.get(fps[j][0], fps[j][1])).toBe(j);
      }
    }
    for (let j = oldest; j < fps.length; j++) expect(map.get(fps[j][0], fps[j][1])).toBe(j);
    // A forgotten entry is either gone or still right.
    for (let j = 0; j < oldest; j += 101) expect([-1, j]).toContain(map.get(fps[j][0], fps[j][1]));
    expect(map.get(0x12345678, 0x9abcdef)).toBe(-1);
    // About 3,000 live entries: the map stays near 4 x that, not 200,000.
    expect(map.bytes).toBeLessThanOrEqual(3 * 4 * 16_384);
  });
});
