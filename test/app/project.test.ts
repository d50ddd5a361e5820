// Opening the project: configuration, plugins, catalogue, once, with the same file names in every finding.
import path from 'node:path'
import {expect} from 'chai'
import {inspectProject, openProject} from '../../src/app/project.js'
import {BadInputError} from '../../src/shared/diagnostics.js'
import {makeProject} from '../support/cli.js'

const suite = (profile: string) =>
  `name: mine\nscenarios: {ids: [none-001]}\nmodes: [agent_direct]\ngate: {profile: ${profile}}\n`

describe('opening the project', () => {
  it('loads the built-in profiles into every catalogue: a suite may name verify_pr without a profiles folder', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': 'suites_dir: catalogue\n', 'catalogue/scenarios/keep': ''})
    const project = await openProject({cwd: dir, env: {}})
    expect([...project.catalogue.profiles.keys()].sort()).to.deep.equal(['verify_pr', 'verify_release'])
    expect(project.cwd).to.equal(dir)
    expect(project.registry.modeNames()).to.include('agent_direct')
  })

  it('names the config file from the working folder in every finding, the plugins’ included', async () => {
    const dir = await makeProject({
      'conf/bench.yml': 'suites_dir: ../catalogue\nplugins: [./missing-plugin.js]\n',
      'catalogue/mine.yml': suite('verify_pr'),
    })
    const error = await openProject({cwd: dir, env: {}, configPath: 'conf/bench.yml'}).then(
      () => expect.fail('the project must not open'),
      (e: unknown) => e as BadInputError,
    )
    expect(error).to.be.instanceOf(BadInputError)
    const files = error.diagnostics.map((d) => d.file)
    // Every finding at once: the plugin's, and the suite's (its scenario is unknown).
    expect(files).to.include.members([path.join('conf', 'bench.yml'), path.join('catalogue', 'mine.yml')])
    expect(error.diagnostics.find((d) => d.code === 'plugin')!.message).to.match(/^plugin "\.\/missing-plugin\.js"/)
  })

  it('for validate, goes on with the defaults when the config cannot be read, and keeps the catalogue’s findings per file', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': 'target: cloud\n', 'suites/mine.yml': suite('nope')})
    const {findings, catalogue, config} = await inspectProject({cwd: dir, env: {}})
    expect(findings.map((d) => d.file)).to.deep.equal(['.ghxbenchrc.yml'])
    expect(config.values.target).to.equal('sandbox')
    expect(catalogue.diagnostics.get(path.join(dir, 'suites', 'mine.yml'))!.map((d) => d.message)).to.include(
      'unknown profile "nope" (known: verify_pr, verify_release)',
    )
  })

  it('takes flags as the configuration’s top layer; a path flag is relative to the working folder', async () => {
    const dir = await makeProject({
      'conf/.ghxbenchrc.yml': 'model: from-file\nresults_dir: out\nsuites_dir: ../suites\n',
      'suites/keep': '',
    })
    const {config} = await openProject({
      cwd: path.join(dir, 'conf'),
      env: {GHX_BENCH_MODEL: 'from-env'},
      overrides: {model: 'from-flag', fixtures: {manifest: 'here/manifest.json'}},
    })
    expect(config.values.model).to.equal('from-flag')
    expect(config.values.results_dir).to.equal('out')
    expect(config.values.fixtures.manifest).to.equal(path.join(dir, 'conf', 'here', 'manifest.json'))
  })
})
