// A small seeded PRNG (mulberry32) for the seeded catalog. The sandbox must produce the same
// catalog for the same seed on every machine and run, so nothing here touches Math.random; and a
// 100,000-product catalog draws a few million numbers, so the generator is a handful of integer
// operations with no allocation.

/** Folds any JS number into a 32-bit state, mixing so that nearby seeds (1, 2, 3) diverge at once. */
function seedState(seed: number): number {
  if (!Number.isFinite(seed)) return 0;
  const whole = Math.trunc(seed);
  // Keep the bits above 2^32 too, so that large seeds (e.g. timestamps in ms) still differ.
  let h = (whole ^ Math.imul(Math.floor(whole / 0x100000000) | 0, 0x9e3779b1)) >>> 0;
  // murmur3 fmix32
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seedState(seed);
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A float in [low, high). */
  between(low: number, high: number): number {
    return low + this.next() * (high - low);
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new RangeError('cannot pick from an empty list');
    return item;
  }

  /** Fisher–Yates, in place; returns the same array for chaining. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      // Both indices are in range, so the reads are never undefined.
      const a = items[i] as T;
      items[i] = items[j] as T;
      items[j] = a;
    }
    return items;
  }
}
