import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {defaultConfig, loadConfig, withLayer} from '../../src/config/load-config.js'
import {configSchema} from '../../src/config/schema.js'
import {BadInputError} from '../../src/shared/diagnostics.js'
import {makeProject} from '../support/cli.js'

async function expectBadInput(promise: Promise<unknown>): Promise<BadInputError> {
  try {
    await promise
  } catch (error) {
    expect(error).to.be.instanceOf(BadInputError)
    return error as BadInputError
  }
  throw new Error('expected a BadInputError')
}

describe('config', () => {
  it('uses the defaults when there is no config file: the embedded sandbox and oracle', async () => {
    const dir = await makeProject({})
    const config = await loadConfig({cwd: dir, env: {}})
    expect(config.file).to.equal(undefined)
    expect(config.values).to.include({
      target: 'sandbox',
      model: 'oracle',
      provider: 'agent-loop',
      results_dir: 'results',
    })
    expect(config.values.gate).to.deep.equal({profile: 'verify_pr', baseline: 'agent_direct', candidate: 'ghx'})
  })

  it('finds .ghxbenchrc.yml from a subfolder up to the project root', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': 'model: openai/gpt-5.3-codex\n', 'a/b/keep': ''})
    const config = await loadConfig({cwd: path.join(dir, 'a', 'b'), env: {}})
    expect(config.file).to.equal(path.join(dir, '.ghxbenchrc.yml'))
    expect(config.dir).to.equal(dir)
    expect(config.values.model).to.equal('openai/gpt-5.3-codex')
  })

  it('does not search above the project root (the folder with package.json)', async () => {
    const outer = await makeProject({'.ghxbenchrc.yml': 'model: outer/model\n'})
    const inner = path.join(outer, 'inner')
    await mkdir(inner)
    await writeFile(path.join(inner, 'package.json'), '{}')
    const config = await loadConfig({cwd: inner, env: {}})
    expect(config.file).to.equal(undefined)
  })

  it('reads .ghxbenchrc.json and ghxbench.config.js', async () => {
    const json = await makeProject({
      '.ghxbenchrc.json': '{"target": "live", "github": {"api_url": "https://ghe.example.com/api/v3"}}',
    })
    expect((await loadConfig({cwd: json, env: {}})).values.github).to.deep.include({
      api_url: 'https://ghe.example.com/api/v3',
    })
    const js = await makeProject({
      'ghxbench.config.js': 'export default {model: "openai/from-js", plugins: ["./p.js"]}\n',
    })
    const config = await loadConfig({cwd: js, env: {}})
    expect(config.values.model).to.equal('openai/from-js')
    expect(config.values.plugins).to.deep.equal(['./p.js'])
  })

  it('applies flags over environment over file over defaults', async () => {
    const dir = await makeProject({
      '.ghxbenchrc.yml': 'model: from-file\nprovider: from-file\ntarget: live\nfixtures: {repo: file/repo}\n',
    })
    const env = {
      GHX_BENCH_MODEL: 'from-env',
      GHX_BENCH_PROVIDER: 'from-env',
      GHX_BENCH_FIXTURES_SANDBOX_REPOS: 'a/b, c/d',
    }
    const config = await loadConfig({cwd: dir, env, overrides: {model: 'from-flag'}})
    expect(config.values.model).to.equal('from-flag')
    expect(config.values.provider).to.equal('from-env')
    expect(config.values.target).to.equal('live')
    // on_interrupt: its default comes from the schema now, like the others'.
    expect(config.values.fixtures).to.deep.equal({
      manifest: 'fixtures/latest.json',
      seed_id: 'default',
      sandbox_repos: ['a/b', 'c/d'],
      repo: 'file/repo',
      on_interrupt: 'reset',
      shard_repos: [],
    })
    expect(config.values.results_dir).to.equal('results')
  })

  it('reports a bad file at file:line:col, every problem at once', async () => {
    const dir = await makeProject({
      '.ghxbenchrc.yml': 'target: cloud\npricing:\n  gpt: {input: -1, output: 1}\nextra: 1\n',
    })
    const error = await expectBadInput(loadConfig({cwd: dir, env: {}}))
    const found = error.diagnostics.map((d) => `${d.line}:${d.col} ${d.code}`)
    expect(found).to.deep.equal(['1:9 schema', '3:16 schema', '4:1 unknown_key'])
  })

  it('names the environment variable or flag that holds a bad value', async () => {
    const dir = await makeProject({})
    const env = await expectBadInput(loadConfig({cwd: dir, env: {GHX_BENCH_TARGET: 'cloud'}}))
    expect(env.diagnostics[0]).to.include({file: '$GHX_BENCH_TARGET'})
    expect(env.diagnostics[0]!.message).to.match(/target is "cloud", expected one of: sandbox, live/)
    const flag = await expectBadInput(loadConfig({cwd: dir, env: {}, overrides: {github: {api_url: 'not a url'}}}))
    expect(flag.diagnostics[0]!.file).to.equal('flag for github.api_url')
  })

  it('names ghxbench.config.js and the key path when a script config is wrong', async () => {
    const dir = await makeProject({'ghxbench.config.js': 'export default {target: 3}\n'})
    const error = await expectBadInput(loadConfig({cwd: dir, env: {}}))
    expect(error.diagnostics[0]).to.include({file: 'ghxbench.config.js'})
    expect(error.diagnostics[0]!.message).to.equal('target must be a string, not integer')
  })

  it('takes every default from the schema: nothing set is the schema’s defaults, key by key', () => {
    const values = defaultConfig().values as Record<string, unknown>
    type Node = {default?: unknown; properties?: Record<string, Node>}
    const leaves = (node: Node, value: unknown, at: string) => {
      if ('default' in node && !node.properties) expect(value, at).to.deep.equal(node.default)
      // An object with no default (endpoint) is left out when nothing sets it.
      if (value === undefined) return
      for (const [inner, leaf] of Object.entries(node.properties ?? {}))
        leaves(leaf, (value as Record<string, unknown>)[inner], `${at}.${inner}`)
    }
    for (const [key, node] of Object.entries(configSchema.properties) as Array<[string, Node]>)
      leaves(node, values[key], key)
    expect(values).to.deep.include({
      target: 'sandbox',
      provider: 'agent-loop',
      model: 'oracle',
      suites_dir: 'suites',
      github: {
        api_url: 'https://api.github.com',
        rate_budget: {reserve_core: 250, reserve_graphql: 250, max_wait_s: 1200},
      },
    })
  })

  it('puts a suite’s or a manifest’s layer over the environment and under the flags; the config file is named as the user sees it', async () => {
    const dir = await makeProject({
      'conf/.ghxbenchrc.yml': 'model: from-file\nfixtures: {repo: file/repo, seed_id: file}\n',
    })
    const config = await loadConfig({
      cwd: dir,
      configPath: 'conf/.ghxbenchrc.yml',
      env: {GHX_BENCH_MODEL: 'from-env'},
      overrides: {fixtures: {seed_id: 'from-flag'}},
    })
    expect(config.origin).to.equal(path.join('conf', '.ghxbenchrc.yml'))
    const layered = withLayer(withLayer(config, 'suite', {model: 'from-suite'}), 'manifest', {
      fixtures: {repo: 'manifest/repo', seed_id: 'from-manifest'},
    })
    expect(layered.values.model).to.equal('from-suite')
    expect(layered.values.fixtures).to.deep.include({
      repo: 'manifest/repo',
      seed_id: 'from-flag',
      manifest: 'fixtures/latest.json',
    })
    expect(config.values.model, 'the layers below are left as they were').to.equal('from-env')
  })

  it('loads an explicit --config path without searching', async () => {
    const dir = await makeProject({'conf/bench.yml': 'model: explicit\n'})
    const config = await loadConfig({cwd: dir, env: {}, configPath: 'conf/bench.yml'})
    expect(config.values.model).to.equal('explicit')
    expect(config.dir).to.equal(path.join(dir, 'conf'))
  })
})
