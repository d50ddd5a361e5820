// Which suite runs, and how: the suite's settings as a layer of the configuration (over the file and
// the environment, under the flags), its defaults from the schema, flags over its own settings.
import path from 'node:path'
import {expect} from 'chai'
import {openProject, type ProjectOptions} from '../../src/app/project.js'
import {selectSuite} from '../../src/runner/select-suite.js'
import {makeProject, PROJECT_ROOT} from '../support/cli.js'

const CONFIG = [
  `suites_dir: ${path.join(PROJECT_ROOT, 'suites')}`,
  'model: from-file',
  'provider: {name: opencode, options: {binary: /opt/from-file/opencode}}',
  'fixtures: {repo: file/repo, seed_id: from-file, sandbox_repos: [file/repo]}',
  'gate: {candidate: mcp}',
].join('\n')

describe('selecting a suite', () => {
  const open = async (options: Pick<ProjectOptions, 'env' | 'overrides'> = {}) =>
    openProject({
      cwd: await makeProject({'.ghxbenchrc.yml': CONFIG + '\n'}),
      env: options.env ?? {},
      overrides: options.overrides,
    })

  it('a suite’s settings override the file and the environment; a flag overrides the suite', async () => {
    const inMemory = {
      name: 'mine',
      scenarios: {ids: ['repo-view-001']},
      modes: ['agent_direct'],
      model: 'from-suite',
      provider: 'agent-loop',
      // The repositories fixtures may write to are the project's to decide, never a suite's.
      fixtures: {seed_id: 'from-suite', sandbox_repos: ['someone/else']},
      gate: {profile: 'verify_release'},
    }
    const project = await open({env: {GHX_BENCH_MODEL: 'from-env'}})
    const {config} = selectSuite(project, {suite: {value: inMemory, origin: '(test)'}})
    expect(config.values).to.deep.include({model: 'from-suite', provider: 'agent-loop'})
    expect(config.values.fixtures).to.deep.include({
      repo: 'file/repo',
      seed_id: 'from-suite',
      sandbox_repos: ['file/repo'],
    })
    expect(config.values.gate).to.deep.equal({profile: 'verify_release', baseline: 'agent_direct', candidate: 'mcp'})
    // The project's configuration is not changed by the suite's.
    expect(project.config.values.model).to.equal('from-env')

    const flagged = await open({env: {GHX_BENCH_MODEL: 'from-env'}, overrides: {model: 'from-flag'}})
    expect(selectSuite(flagged, {suite: {value: inMemory, origin: '(test)'}}).config.values.model).to.equal('from-flag')
  })

  it('a plugin reference of the suite replaces the project’s whole: no options of another provider', async () => {
    const project = await open()
    expect(project.config.values.provider).to.deep.equal({
      name: 'opencode',
      options: {binary: '/opt/from-file/opencode'},
    })
    const {config} = selectSuite(project, {
      suite: {
        value: {
          name: 'mine',
          scenarios: {ids: ['repo-view-001']},
          modes: ['agent_direct'],
          provider: {name: 'agent-loop'},
        },
        origin: '(test)',
      },
    })
    expect(config.values.provider).to.deep.equal({name: 'agent-loop'})
  })

  it('a suite built in memory gets the schema’s defaults; --repetitions, --concurrency and --seed go over its own', async () => {
    const project = await open()
    const value = {name: 'mine', scenarios: {ids: ['repo-view-001']}, modes: ['agent_direct', 'mcp'], concurrency: 2}
    const {suite, scenarios, scenarioSet} = selectSuite(project, {suite: {value, origin: '(test)'}})
    expect(suite).to.deep.include({
      repetitions: 1,
      concurrency: 2,
      infra_retries: 2,
      seed: 1,
      warmup: false,
      read_only: false,
      timeouts: {run_ms: 60000, stall_ms: 60000},
    })
    expect(scenarios.map((s) => s.id)).to.deep.equal(['repo-view-001'])
    expect(scenarioSet).to.equal(null)
    const flagged = selectSuite(project, {
      suite: {value, origin: '(test)'},
      repetitions: 3,
      concurrency: 4,
      seed: 9,
      modes: ['mcp'],
    })
    expect(flagged.suite).to.deep.include({repetitions: 3, concurrency: 4, seed: 9, modes: ['mcp']})
  })

  it('a suite file of the catalogue is read with its defaults; --set and --scenario replace its selection, each checked', async () => {
    const project = await openProject({cwd: PROJECT_ROOT, env: {}})
    const smoke = selectSuite(project, {suitePath: path.join('suites', 'smoke.yml')})
    expect(smoke.origin).to.equal(path.join('suites', 'smoke.yml'))
    expect(smoke.suite).to.deep.include({infra_retries: 2, timeouts: {run_ms: 60000, stall_ms: 60000}})
    expect(smoke.scenarioSet).to.equal('smoke')
    expect(selectSuite(project, {suitePath: 'suites/smoke.yml', scenarios: ['repo-view-001']}).scenarioSet).to.equal(
      null,
    )
    expect(() => selectSuite(project, {suitePath: 'suites/smoke.yml', set: 'nope'})).to.throw(
      /--set: unknown set "nope"/,
    )
    expect(() => selectSuite(project, {suitePath: 'suites/smoke.yml', modes: ['ghx']})).to.throw(
      /--mode: ghx is not one of the suite's modes \(agent_direct, mcp\)/,
    )
    expect(() => selectSuite(project, {suitePath: 'suites/scenarios/repo-view-001.yml'})).to.throw(/not a suite/)
  })
})
