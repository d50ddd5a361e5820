import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {makeProject, runCli} from '../support/cli.js'

describe('ghx-bench --help and init (CLI)', () => {
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

  it('init scaffolds a live config, a suite and a scenario that validate, then prints the next commands', async () => {
    const dir = await makeProject({})
    const init = await runCli(['init', 'bench'], {cwd: dir})
    expect(init.code).to.equal(0)
    expect(init.stdout).to.include(`created ${path.join('bench', '.ghxbenchrc.yml')}`)
    expect(init.stdout).to.include('npx ghx-bench validate')
    const config = await readFile(path.join(dir, 'bench', '.ghxbenchrc.yml'), 'utf8')
    expect(config).to.match(/^target: live$/m)
    const validate = await runCli(['validate'], {cwd: path.join(dir, 'bench')})
    expect(validate.stderr).to.equal('')
    expect(validate.stdout).to.match(/^ok: \.ghxbenchrc\.yml, 1 suites, 1 scenarios, 0 sets, 2 profiles/)
  })

  it('init refuses to overwrite, naming every file already there, and writes nothing', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': 'model: mine\n'})
    const result = await runCli(['init'], {cwd: dir})
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include('.ghxbenchrc.yml error: already exists; init never overwrites')
    expect(await readFile(path.join(dir, '.ghxbenchrc.yml'), 'utf8')).to.equal('model: mine\n')
    await readFile(path.join(dir, 'suites', 'example.yml')).then(
      () => expect.fail('suites/example.yml must not be written'),
      () => undefined,
    )
  })
})
