// The CLI's help and an unknown command, in-process. The bin's own --help: test/e2e/bin.test.ts.
import {expect} from 'chai'
import {runCliInProcess} from '../support/cli-in-process.js'

describe('ghx-bench --help (CLI)', () => {
  it('--help describes each topic', async () => {
    const result = await runCliInProcess(['--help'])
    expect(result.code).to.equal(0)
    expect(result.stdout).to.match(/fixtures {2}Seed, check, reset and clean up/)
    expect(result.stdout).to.not.include('Remove what seeding created')
  })

  it('an unknown command exits 2 without a stack trace', async () => {
    const result = await runCliInProcess(['nope'])
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include('ghx-bench nope error: unknown command; ghx-bench --help lists the commands')
    expect(result.stderr).not.to.match(/\n\s+at /)
  })
})
