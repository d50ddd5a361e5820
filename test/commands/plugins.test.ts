// Plugins from the command line: every refusal names the plugin and exits 2, and one broken plugin
// never hides another's problem. How a fresh process resolves the built-ins: test/e2e/plugins.test.ts.
import {expect} from 'chai'
import {makeProject} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'

const plainPlugin = (name: string, extra = '') =>
  `export default {apiVersion: 1, name: '${name}', version: '2.0.0', conditions: [{name: '${name}_cond', paramsSchema: {type: 'object'}, evaluate: () => ({passed: true, expected: 1, actual: 1, message: 'ok'})}]${extra}}\n`

describe('ghx-bench plugins (CLI)', () => {
  it('lists the built-ins and a path plugin with version, source and what it registers', async () => {
    const dir = await makeProject({
      '.ghxbenchrc.yml': 'plugins: [./local/mine.js]\n',
      'local/mine.js': plainPlugin('mine'),
    })
    const result = await runCliInProcess(['plugins', '--json'], {cwd: dir})
    expect(result.code, result.stderr).to.equal(0)
    const {plugins} = JSON.parse(result.stdout) as {
      plugins: Array<{
        name: string
        version: string
        source: string
        conditions: string[]
        readTasks: string[]
        resolved: string
      }>
    }
    expect(plugins.map((p) => p.name)).to.deep.equal([
      'conditions-core',
      'read-tasks-core',
      'mode-agent-direct',
      'mode-ghx',
      'mode-mcp',
      'provider-agent-loop',
      'provider-opencode',
      'provider-claude-code',
      'provider-codex',
      'mine',
    ])
    expect(plugins.at(-1)).to.deep.include({
      version: '2.0.0',
      source: 'path',
      conditions: ['mine_cond'],
      readTasks: [],
      resolved: 'local/mine.js',
    })
    expect(plugins[1]!.readTasks).to.include.members(['issue.view', 'pr.threads.list'])
    const text = await runCliInProcess(['plugins'], {cwd: dir})
    expect(text.stdout).to.include('mine@2.0.0 (path: local/mine.js)\n  conditions: mine_cond')
    expect(text.stdout).to.match(/read-tasks-core@1\.0\.0 \(built-in: read-tasks-core\)\n {2}read tasks: repo\.view, /)
  })
  it('loads a named export of an installed package (package:export) and a factory export with options', async () => {
    const dir = await makeProject({
      '.ghxbenchrc.yml': 'plugins:\n  - my-scorers:scorers\n  - {name: ./factory.js, options: {suffix: x}}\n',
      'node_modules/my-scorers/package.json':
        '{"name": "my-scorers", "version": "3.1.0", "type": "module", "exports": "./index.js"}',
      'node_modules/my-scorers/index.js': plainPlugin('named').replace('export default', 'export const scorers ='),
      'factory.js': `export default (options) => (${plainPlugin('made').replace('export default ', '').trim().replace("name: 'made'", 'name: `made-${options.suffix}`')})\n`,
    })
    const result = await runCliInProcess(['plugins', '--json'], {cwd: dir})
    expect(result.code, result.stderr).to.equal(0)
    const {plugins} = JSON.parse(result.stdout) as {plugins: Array<{name: string; source: string; specifier: string}>}
    expect(plugins.slice(1)).to.deep.include.members([
      {...plugins.find((p) => p.name === 'named')!, source: 'npm', specifier: 'my-scorers:scorers'},
      {...plugins.find((p) => p.name === 'made-x')!, source: 'path'},
    ])
  })
  it('reports every refusal at once, each naming its plugin', async () => {
    const dir = await makeProject({
      '.ghxbenchrc.yml': [
        'plugins:',
        '  - nonexistent-thing',
        '  - ./p/not-a-plugin.js',
        '  - ./p/old-api.js',
        '  - ./p/throws.js',
        '  - ./p/dup-a.js',
        '  - ./p/dup-b.js',
        '  - ./p/missing.js',
        '  - ./p/bad-shape.js',
        '',
      ].join('\n'),
      'p/not-a-plugin.js': 'export default 42\n',
      'p/old-api.js': "export default {apiVersion: 2, name: 'future', version: '1.0.0'}\n",
      'p/throws.js': "throw new Error('boom at import')\n",
      'p/dup-a.js': plainPlugin('dup'),
      'p/dup-b.js': plainPlugin('other').replace("name: 'other_cond'", "name: 'dup_cond'"),
      'p/bad-shape.js': "export default {apiVersion: 1, name: 'shapeless', version: '1', modes: [{name: 'm'}]}\n",
    })
    const result = await runCliInProcess(['plugins'], {cwd: dir})
    expect(result.code).to.equal(2)
    const lines = result.stderr.trim().split('\n')
    expect(lines).to.include.members([
      `.ghxbenchrc.yml error: plugin "nonexistent-thing": not found: tried "nonexistent-thing" and "ghx-bench-plugin-nonexistent-thing" from ${dir} (node_modules resolution); install it with npm install --save-dev ghx-bench-plugin-nonexistent-thing`,
      '.ghxbenchrc.yml error: plugin "./p/not-a-plugin.js": is not a plugin: its default export is number, expected an object from definePlugin({...})',
      '.ghxbenchrc.yml error: plugin "./p/old-api.js": has apiVersion 2, this ghx-bench supports apiVersion 1',
      '.ghxbenchrc.yml error: plugin "./p/throws.js": threw while loading: boom at import',
      '.ghxbenchrc.yml error: plugin "./p/dup-b.js": condition "dup_cond" is already registered by plugin "dup"',
      `.ghxbenchrc.yml error: plugin "./p/missing.js": not found: no file at ${dir}/p/missing.js`,
      '.ghxbenchrc.yml error: plugin "./p/bad-shape.js": modes[0] "m" needs optionsSchema (a JSON Schema object)',
      '.ghxbenchrc.yml error: plugin "./p/bad-shape.js": modes[0] "m" needs a function "available"',
      '.ghxbenchrc.yml error: plugin "./p/bad-shape.js": modes[0] "m" needs a function "open"',
    ])
    expect(result.stderr).not.to.match(/\n\s+at /)
  })
  it('validate reports a plugin condition’s bad params and a custom scorer at their file:line:col', async () => {
    const dir = await makeProject({
      '.ghxbenchrc.yml': 'plugins: [./scorers.js]\n',
      'scorers.js':
        "export default {apiVersion: 1, name: 'scorers', version: '1.0.0', conditions: [{name: 'has_prefix', paramsSchema: {type: 'object', additionalProperties: false, required: ['prefix'], properties: {prefix: {type: 'string'}}}, evaluate: () => ({passed: true, expected: 1, actual: 1, message: 'ok'})}]}\n",
      'suites/scenarios/one-001.yml': [
        'type: workflow',
        'id: one-001',
        'name: x',
        'prompt: do it',
        'assertions:',
        '  expected_outcome: success',
        '  checkpoints:',
        '    - {name: a, task: repo.view, condition: {type: has_prefix, prefix: 3}}',
        '    - {name: b, task: repo.view, condition: {type: custom, scorer: has_prefix, params: {prefx: x}}}',
        '    - {name: c, task: repo.view, condition: {type: custom, scorer: nope}}',
        '',
      ].join('\n'),
    })
    const result = await runCliInProcess(['validate'], {cwd: dir})
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include(
      'suites/scenarios/one-001.yml:8:72 error: condition has_prefix: assertions.checkpoints[0].condition.prefix must be a string, not integer',
    )
    expect(result.stderr).to.include(
      'suites/scenarios/one-001.yml:9:89 error: scorer has_prefix: unknown key "prefx" in assertions.checkpoints[1].condition.params (did you mean "prefix"?)',
    )
    expect(result.stderr).to.include(
      'suites/scenarios/one-001.yml:10:68 error: unknown scorer "nope": no plugin registers a condition by that name',
    )
  })
})
