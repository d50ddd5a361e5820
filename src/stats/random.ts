/**
 * A seeded PRNG (Mulberry32): the same seed gives the same bootstrap, so a report can be reproduced.
 * The predecessors' bootstrap used Math.random and gave a different interval on every run.
 */
export type Random = () => number

export function mulberry32(seed: number): Random {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A standard normal draw (Box–Muller, one of the pair), from the seeded source. */
export function normalDraw(random: Random): number {
  const u = 1 - random() // (0, 1]: log(0) is not a number
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random())
}
