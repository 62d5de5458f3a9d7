/**
 * Seeded random numbers: sfc32 (a small fast counter generator that passes PractRand), seeded per
 * episode by mixing (seed, episode) with splitmix32 steps, so episode i plays the same whatever
 * worker runs it.
 */
function splitmix32(x: number): number {
  x = (x + 0x9e3779b9) | 0;
  let z = x;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d = 1;


  constructor(seed: number, stream = 0) {
    // Every word of the seed and the stream goes through the mixer, so neighbouring streams differ in all state words.
    let x = splitmix32(seed >>> 0);
    x = splitmix32(x ^ (Math.floor(seed / 2 ** 32) >>> 0));
    x = splitmix32(x ^ (stream >>> 0));
    x = splitmix32(x ^ (Math.floor(stream / 2 ** 32) >>> 0));
    this.a = x;
    this.b = splitmix32(x ^ 0x6a09e667);
    this.c = splitmix32(this.b ^ 0xbb67ae85);
    for (let i = 0; i < 15; i++) this.next();
  }

  /** Uniform 32-bit unsigned integer. */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform integer in 0..n-1 (n <= 2^32), without modulo bias. */
  below(n: number): number {
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      const r = this.next();
      if (r < limit) return r % n;
    }
  }
}
