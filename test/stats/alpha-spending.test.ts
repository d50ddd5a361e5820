// Group-sequential boundaries from α-spending functions, checked against a Monte Carlo of the looks'
// canonical joint distribution: a boundary set that spent the error wrongly would cross too often.
import {expect} from 'chai'
import {groupSequentialBoundaries, spentAlpha} from '../../src/stats/alpha-spending.js'
import {mulberry32, normalDraw} from '../../src/stats/random.js'
import {zOfConfidence} from '../../src/stats/special.js'

/** The share of null paths (a Brownian score) that cross ±c_k at some look, and first at each look. */
function crossings(
  fractions: number[],
  boundaries: number[],
  paths: number,
  seed: number,
): {total: number; byLook: number[]} {
  const random = mulberry32(seed)
  const byLook = fractions.map(() => 0)
  for (let p = 0; p < paths; p++) {
    let score = 0
    let previous = 0
    for (let k = 0; k < fractions.length; k++) {
      score += Math.sqrt(fractions[k]! - previous) * normalDraw(random)
      previous = fractions[k]!
      if (Math.abs(score / Math.sqrt(fractions[k]!)) >= boundaries[k]!) {
        byLook[k]!++
        break
      }
    }
  }
  return {total: byLook.reduce((a, b) => a + b, 0) / paths, byLook: byLook.map((n) => n / paths)}
}

describe('alpha spending', () => {
  it('spends α in all, and nothing before the first look', () => {
    for (const spending of ['power', 'pocock', 'obrien-fleming'] as const) {
      expect(spentAlpha(1, 0.05, spending), spending).to.be.closeTo(0.05, 1e-12)
      expect(spentAlpha(0, 0.05, spending), spending).to.equal(0)
      expect(spentAlpha(0.5, 0.05, spending), spending).to.be.below(0.05)
    }
    expect(spentAlpha(0.25, 0.05, 'power')).to.be.closeTo(0.05 * 0.125, 1e-12)
  })

  it('one look is the fixed design: 1.96', () => {
    expect(groupSequentialBoundaries([1], 0.05, 'power')[0]).to.be.closeTo(zOfConfidence(0.95), 1e-9)
  })

  it('each look crosses as often as the spending allots it, and the looks in all at α', () => {
    for (const [fractions, spending] of [
      [[0.25, 0.5, 0.75, 1], 'power'],
      [[0.25, 0.4, 0.6, 0.8, 1], 'power'],
      [[0.25, 0.5, 1], 'pocock'],
      [[1 / 3, 2 / 3, 1], 'obrien-fleming'],
    ] as const) {
      const boundaries = groupSequentialBoundaries(fractions, 0.05, spending)
      const {total, byLook} = crossings([...fractions], boundaries, 200_000, 11)
      expect(total, spending).to.be.closeTo(0.05, 0.003)
      fractions.forEach((t, k) => {
        const allotted = spentAlpha(t, 0.05, spending) - (k === 0 ? 0 : spentAlpha(fractions[k - 1]!, 0.05, spending))
        expect(byLook[k], `${spending} look ${k + 1}`).to.be.closeTo(allotted, 0.002)
      })
      // Later looks share earlier looks' runs: a look's boundary is below the union bound's.
      const last = boundaries.at(-1)!
      expect(last, spending).to.be.below(zOfConfidence(1 - (0.05 - spentAlpha(fractions.at(-2)!, 0.05, spending))))
    }
  })
})
