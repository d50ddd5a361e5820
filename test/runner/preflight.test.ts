import {expect} from 'chai'
import {unmetRequirement} from '../../src/runner/preflight.js'

describe('scenario tool requirements (requires.<mode>.tools)', () => {
  const requirement = {tools: {gh: '2.50.0'}, reason: 'pr.checks.list runs `gh pr checks --json`'}

  it('is met by the same or a newer version, compared number by number', () => {
    expect(unmetRequirement(requirement, {gh: '2.50.0'})).to.equal(null)
    expect(unmetRequirement(requirement, {gh: '2.100.1', ghx: '0.8.0'})).to.equal(null)
    expect(unmetRequirement(undefined, {})).to.equal(null)
  })

  it('says which tool falls short, the version found and why, when older or unknown', () => {
    expect(unmetRequirement(requirement, {gh: '2.23.0'})).to.equal(
      'needs gh >= 2.50.0 (here: 2.23.0): pr.checks.list runs `gh pr checks --json`',
    )
    expect(unmetRequirement(requirement, {gh: '2.9.9'})).to.match(/^needs gh >= 2\.50\.0 \(here: 2\.9\.9\)/)
    expect(unmetRequirement(requirement, undefined)).to.match(/here: unknown/)
  })
})
