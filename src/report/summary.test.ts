import { describe, expect, it } from 'vitest';
import { formatApart, formatProbability } from './summary.js';

describe('probabilities in reports', () => {
  it('tells two different probabilities apart with the digits it takes, three when those do', () => {
    expect(formatApart(0.2, 0.4)).toEqual(['0.200', '0.400']);
    // 2047/20480000 and 2049/20480000 both read 1.00e-4 at three digits
    expect(formatProbability(2047 / 20_480_000)).toBe(formatProbability(2049 / 20_480_000));
    expect(formatApart(2047 / 20_480_000, 2049 / 20_480_000)).toEqual(['9.995e-5', '1.000e-4']);
  });
});
