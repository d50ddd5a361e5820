import {expect} from 'chai'
import {runCli} from '../support/cli.js'

describe('ghx-bench --help (CLI)', () => {
  it('--help lists the commands', async () => {
    const result = await runCli(['--help'])
    expect(result.code).to.equal(0)
    expect(result.stdout).to.include('validate')
    expect(result.stdout).to.include('init')
  })

  it('an unknown command exits 2 without a stack trace', async () => {
    const result = await runCli(['nope'])
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include('command nope not found')
    expect(result.stderr).not.to.match(/\n\s+at /)
  })
  // init itself: test/e2e/init.test.ts
})
