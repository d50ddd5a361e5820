/**
 * Paired pass/fail outcomes of two modes on the same blocks (one scenario × iteration, run side by
 * side): the discordant pairs and the exact McNemar test, and Holm's step-down adjustment of a family
 * of p-values (one per scenario), which holds the family-wise error rate at α under any dependence.
 *
 * Exact McNemar: under "no difference", each discordant pair is pass→fail or fail→pass with
 * probability ½, so with b and c of them the two-sided p-value is min(1, 2·P(X <= min(b, c))) for
 * X ~ Binomial(b + c, ½); with no discordant pair it is 1. Concordant pairs say nothing either way.
 */
import {binomialCdf} from './binomial.js'

/** Two-sided exact McNemar p-value from the discordant counts. */
export function exactMcNemar(passToFail: number, failToPass: number): number {
  const n = passToFail + failToPass
  if (n === 0) return 1
  return Math.min(1, 2 * binomialCdf(Math.min(passToFail, failToPass), n, 0.5))
}

/** Holm's adjusted p-values, in the input's order: the i-th smallest times (m - i), kept monotone, at most 1. */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length
  const order = pValues.map((p, index) => ({p, index})).sort((a, b) => a.p - b.p || a.index - b.index)
  const adjusted = new Array<number>(m)
  let running = 0
  order.forEach(({p, index}, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p))
    adjusted[index] = running
  })
  return adjusted
}
