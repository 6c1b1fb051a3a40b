/** Seeded randomness for generated (differential) tests: the same seed always gives the same cases. */

export type Rand = () => number;

/** mulberry32: a small, fast, well-distributed 32-bit generator. */
export function mulberry32(seed: number): Rand {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
export const chance = (r: Rand, p: number): boolean => r() < p;
