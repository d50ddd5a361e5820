// What the loader checks of the Plugin API's newer parts (read tasks, a mode's accounting hook) when a
// plugin loads, and a plugin's read task used end to end: registered, named by a scenario's checkpoint,
// validated by the catalogue, run by the checkpoint against GitHub's client. And what a third party's
// import may not do to the process that loads it (the CLI's exit codes: loader-limits.e2e.test.ts).
import {randomBytes} from 'node:crypto'
import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {expect} from 'chai'
import {loadCatalogue} from '../../src/catalogue/catalogue.js'
import {createClient} from '../../src/github/client.js'
import {checkShape, loadPlugins, loadPluginsCollecting} from '../../src/plugins/loader.js'
import {evaluateCheckpoints} from '../../src/verify/checkpoints.js'
import {makeProject} from '../support/cli.js'

const plugin = (extra: Record<string, unknown>) => ({apiVersion: 1, name: 'p', version: '1.0.0', ...extra})
const mode = (accounting: unknown) => ({
  name: 'layered',
  optionsSchema: {type: 'object'},
  available: () => null,
  open: () => null,
  accounting,
})

/** A path plugin registering the read task acme.deployments.list (it reads nothing real: it echoes its params). */
const ACME = `export default {
  apiVersion: 1, name: 'acme-tasks', version: '1.0.0',
  readTasks: [{
    name: 'acme.deployments.list',
    description: 'Deployments of an environment.',
    paramsSchema: {type: 'object', required: ['environment'], properties: {environment: {type: 'string'}}},
    run: async (github, params) => [{environment: params.environment, client: typeof github.request}],
  }],
}
`

const scenario = (task: string) =>
  [
    'type: workflow',
    'id: deploy-001',
    'name: x',
    'prompt: deploy it',
    'assertions:',
    '  expected_outcome: success',
    '  checkpoints:',
    `    - {name: deployed, task: ${task}, input: {environment: prod}, condition: {type: count_eq, value: 1}}`,
    '',
  ].join('\n')

describe('plugin loader: read tasks and a mode’s accounting hook', () => {
  it('refuses read tasks without a dotted name, a compiling paramsSchema or run, each with its place', () => {
    expect(
      checkShape(
        plugin({
          readTasks: [
            {name: 'Issue View', paramsSchema: {type: 'object'}, run: () => null},
            {name: 'a.b', paramsSchema: {type: 'nope'}},
            'x',
          ],
        }),
      ),
    ).to.deep.equal([
      'readTasks[0] "Issue View" needs a name of lower-case dotted words (issue.view): letters, digits, _ and -',
      'readTasks[1] "a.b" has a paramsSchema that is not a valid JSON Schema: schema is invalid: data/type must be equal to one of the allowed values, data/type must be array, data/type must match a schema in anyOf',
      'readTasks[1] "a.b" needs a function "run"',
      'readTasks[2] must be an object',
    ])
    expect(
      checkShape(
        plugin({readTasks: [{name: 'acme.deployments.list', paramsSchema: {type: 'object'}, run: () => null}]}),
      ),
    ).to.deep.equal([])
  })

  it('refuses an accounting hook that names no programs, claims gh or a core category, or has no account function', () => {
    expect(
      checkShape(
        plugin({modes: [mode({programs: ['ghx'], category: 'ghx_capability', account: () => ({operations: []})})]}),
      ),
    ).to.deep.equal([])
    expect(checkShape(plugin({modes: [mode('ghx')]}))).to.deep.equal([
      'modes[0] "layered" has an accounting that is not an object {programs, category, account}',
    ])
    expect(checkShape(plugin({modes: [mode({programs: [], category: 'Tool Layer'})]}))).to.deep.equal([
      'modes[0] "layered" needs accounting.programs: a non-empty list of executable names (no paths, no spaces)',
      'modes[0] "layered" needs accounting.category: lower-case letters, digits and _ (ghx_capability)',
      'modes[0] "layered" needs a function accounting.account',
    ])
    expect(
      checkShape(plugin({modes: [mode({programs: ['/usr/bin/acme'], category: 'mcp_tool', account: () => null})]})),
    ).to.deep.equal([
      'modes[0] "layered" needs accounting.programs: a non-empty list of executable names (no paths, no spaces)',
      'modes[0] "layered" has accounting.category "mcp_tool", which ghx-bench\'s own accounting uses: name the layer\'s (gh_cli, mcp_tool, shell, other are taken)',
    ])
    // The reader of the layer's own log is optional, and a function when given.
    expect(
      checkShape(
        plugin({
          modes: [
            mode({
              programs: ['ghx'],
              category: 'ghx_capability',
              account: () => ({operations: []}),
              readLog: () => ({routes: {}, lastRoute: null}),
            }),
          ],
        }),
      ),
    ).to.deep.equal([])
    expect(
      checkShape(
        plugin({
          modes: [
            mode({
              programs: ['ghx'],
              category: 'ghx_capability',
              account: () => ({operations: []}),
              readLog: 'ghx-*.jsonl',
            }),
          ],
        }),
      ),
    ).to.deep.equal(['modes[0] "layered" has an accounting.readLog that is not a function'])
  })

  it('registers a plugin’s read tasks beside the built-ins, and refuses one that takes a built-in’s name', async () => {
    const dir = await makeProject({
      'acme.js': ACME,
      'clash.js':
        "export default {apiVersion: 1, name: 'clash', version: '1.0.0', readTasks: [{name: 'issue.view', paramsSchema: {type: 'object'}, run: async () => null}]}\n",
    })
    const {registry, diagnostics} = await loadPluginsCollecting({
      fromDir: dir,
      plugins: [{specifier: './acme.js'}, {specifier: './clash.js'}],
      origin: '.ghxbenchrc.yml',
    })
    expect(diagnostics.map((d) => d.message)).to.deep.equal([
      'plugin "./clash.js": read task "issue.view" is already registered by plugin "read-tasks-core"',
    ])
    expect(registry.ownerOf('read task', 'acme.deployments.list')?.name).to.equal('acme-tasks')
    expect(registry.plugins().find((p) => p.name === 'acme-tasks')).to.deep.include({
      readTasks: ['acme.deployments.list'],
      conditions: [],
    })
  })

  it('a checkpoint names a plugin’s read task: the catalogue accepts it (and says which was meant for a typo), the checkpoint runs it', async () => {
    const dir = await makeProject({
      'acme.js': ACME,
      'suites/scenarios/deploy-001.yml': scenario('acme.deployments.list'),
      'typo/scenarios/deploy-001.yml': scenario('acme.deployment.list'),
    })
    const registry = await loadPlugins({fromDir: dir, plugins: [{specifier: './acme.js'}], origin: '.ghxbenchrc.yml'})
    const catalogue = await loadCatalogue({root: path.join(dir, 'suites'), registry, cwd: dir})
    expect([...catalogue.diagnostics.values()].flat()).to.deep.equal([])
    const typo = await loadCatalogue({root: path.join(dir, 'typo'), registry, cwd: dir})
    expect([...typo.diagnostics.values()].flat().map((d) => d.message)).to.include(
      'unknown checkpoint task "acme.deployment.list" (did you mean "acme.deployments.list"?)',
    )

    const {value} = catalogue.scenarios.get('deploy-001')!
    if (value.type !== 'workflow') throw new Error('a workflow scenario')
    const [result] = await evaluateCheckpoints(value.assertions.checkpoints, {
      octokit: createClient({baseUrl: 'http://127.0.0.1:9', retries: 0}).octokit,
      registry,
      variables: {},
      budgetMs: 0,
    })
    expect(result).to.deep.include({
      name: 'deployed',
      task: 'acme.deployments.list',
      passed: true,
      polls: 1,
      result: [{environment: 'prod', client: 'function'}],
    })
  })
})

describe('plugin loader: what a third party’s import may not do', () => {
  const load = async (files: Record<string, string>) => {
    const dir = await makeProject(files)
    const specifiers = Object.keys(files).map((file) => `./${file}`)
    const {registry, diagnostics} = await loadPluginsCollecting({
      fromDir: dir,
      plugins: specifiers.map((specifier) => ({specifier})),
      origin: '.ghxbenchrc.yml',
    })
    return {registry, messages: diagnostics.map((d) => d.message)}
  }

  it('reads a plugin’s members once, defensively: a getter that throws makes a broken plugin, and nothing of it is registered', async () => {
    const {registry, messages} = await load({
      'nameless.js':
        "export default {apiVersion: 1, get name() { throw new Error('no name yet') }, version: '1.0.0'}\n",
      'moody.js':
        "export default {apiVersion: 1, name: 'moody', version: '1.0.0', conditions: [{get name() { throw new Error('not today') }}]}\n",
      'fine.js': "export default {apiVersion: 1, name: 'fine', version: '1.0.0'}\n",
    })
    expect(messages).to.deep.equal([
      'plugin "./nameless.js": is a broken plugin: reading its "name" threw: no name yet',
      'plugin "./moody.js": is a broken plugin: reading its modes, providers, conditions or read tasks threw: not today',
    ])
    expect(registry.plugins().map((p) => p.name))
      .to.include('fine')
      .and.not.include('moody')
  })

  it('a process its import leaves running is ended as the loading ends, not at exit: in its check, and here when it starts one only here', async () => {
    const marker = `ghx-bench-test-${randomBytes(6).toString('hex')}`
    // The marker is on the command line of what each plugin starts; `here.js` starts it outside its check only.
    const plugin = (name: string, when: string) =>
      [
        "import {spawn} from 'node:child_process'",
        `if (${when}) spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '${marker}'], {detached: true, stdio: 'ignore'}).unref()`,
        `export default {apiVersion: 1, name: '${name}', version: '1.0.0'}`,
        '',
      ].join('\n')
    const {registry, messages} = await load({
      'everywhere.js': plugin('everywhere', 'true'),
      'here.js': plugin('here', "!process.argv[1].includes('plugin-check')"),
    })
    const refusal =
      "its import started a process that kept running (node): a plugin starts processes in a mode's open or a provider's run, where ghx-bench ends them, never at import"
    expect(messages).to.deep.equal([`plugin "./everywhere.js": ${refusal}`, `plugin "./here.js": ${refusal}`])
    expect(registry.plugins().map((p) => p.name)).to.not.include.members(['everywhere', 'here'])
    const running = readdirSync('/proc').filter((pid) => {
      try {
        return /^\d+$/.test(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)
      } catch {
        return false
      }
    })
    expect(running).to.deep.equal([])
  })
})
