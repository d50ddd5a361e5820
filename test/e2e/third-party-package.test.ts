// The example plugin as a user meets it: packed with npm, installed next to a packed ghx-bench in a
// fresh project, named in .ghxbenchrc.yml, and used by a suite and a scenario that the installed CLI
// validates.
import {execFile} from 'node:child_process'
import {copyFile, mkdir, mkdtemp, symlink, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {promisify} from 'node:util'
import {expect} from 'chai'
import {PROJECT_ROOT} from '../support/cli.js'
import {packedPackage} from '../support/packed.js'

const run = promisify(execFile)
const npm = (args: string[], cwd: string) =>
  run('npm', args, {cwd, env: {...process.env, npm_config_update_notifier: 'false'}})

async function installedCli(args: string[], cwd: string): Promise<{code: number; stdout: string; stderr: string}> {
  try {
    const {stdout, stderr} = await run(
      process.execPath,
      [path.join(cwd, 'node_modules', 'ghx-bench', 'bin', 'run.js'), ...args],
      {cwd},
    )
    return {code: 0, stdout, stderr}
  } catch (error) {
    const e = error as {code: number; stdout: string; stderr: string}
    return {code: e.code, stdout: e.stdout, stderr: e.stderr}
  }
}

describe('a third-party plugin from npm (CLI)', function () {
  this.timeout(240_000)
  let project: string

  before(async () => {
    // ghx-bench as `npm pack` makes it (with this checkout's node_modules: the lockfile's versions, no
    // registry, no npm cache), and the example plugin packed and extracted beside it, as npm would.
    const ghxBench = await packedPackage()
    const packs = await mkdtemp(path.join(tmpdir(), 'ghx-bench-packs-'))
    await npm(['pack', '--pack-destination', packs], path.join(PROJECT_ROOT, 'examples', 'ghx-bench-plugin-example'))
    project = await mkdtemp(path.join(tmpdir(), 'ghx-bench-consumer-'))
    await writeFile(
      path.join(project, 'package.json'),
      JSON.stringify({name: 'consumer', private: true, type: 'module'}),
    )
    const modules = path.join(project, 'node_modules')
    await mkdir(path.join(modules, 'ghx-bench-plugin-example'), {recursive: true})
    await symlink(ghxBench.root, path.join(modules, 'ghx-bench'))
    await run('tar', [
      '-xzf',
      path.join(packs, 'ghx-bench-plugin-example-1.0.0.tgz'),
      '-C',
      path.join(modules, 'ghx-bench-plugin-example'),
      '--strip-components=1',
    ])
    await writeFile(path.join(project, '.ghxbenchrc.yml'), 'target: live\nplugins: [example]\n')
    await mkdir(path.join(project, 'suites', 'scenarios'), {recursive: true})
    await writeFile(
      path.join(project, 'suites', 'scenarios', 'bug-title-001.yml'),
      [
        'type: workflow',
        'id: bug-title-001',
        'name: Title the issue as a bug',
        'fixture: {bindings: {issue: resources.issue.number}}',
        'prompt: Prefix the title of issue {{issue}} in {{owner}}/{{repo}} with "[bug] ".',
        'tags: [mutation]',
        'assertions:',
        '  expected_outcome: success',
        '  expected_capabilities: [issue.update]',
        '  checkpoints:',
        '    - name: titled',
        '      task: issue.view',
        '      input: {owner: "{{owner}}", name: "{{repo}}", issueNumber: "{{issue}}"}',
        '      condition: {type: field_starts_with, path: title, prefix: "[bug] "}',
        '',
      ].join('\n'),
    )
    await writeFile(
      path.join(project, 'suites', 'readonly.yml'),
      'name: readonly\nscenarios: {ids: [bug-title-001]}\nmodes: [{name: github-api-readonly, options: {max_response_chars: 5000}}]\n',
    )
  })

  it('plugins lists it as an npm plugin with its mode and condition', async () => {
    const result = await installedCli(['plugins', '--json'], project)
    expect(result.code, result.stderr).to.equal(0)
    const {plugins} = JSON.parse(result.stdout) as {
      plugins: Array<{name: string; source: string; modes: string[]; conditions: string[]}>
    }
    expect(plugins.find((p) => p.name === 'ghx-bench-plugin-example')).to.deep.include({
      source: 'npm',
      modes: ['github-api-readonly'],
      conditions: ['field_starts_with'],
    })
  })

  it('validate accepts a scenario using its condition and a suite using its mode', async () => {
    const result = await installedCli(['validate'], project)
    // The default model is the oracle, and the scenario has no plan for the plugin's mode: said, not refused.
    expect(result.stderr.trim()).to.equal(
      'warning: suite readonly: the oracle model has no reference plan under github-api-readonly for bug-title-001: every such run fails (give reference.github-api-readonly, or not_applicable.github-api-readonly: reason)',
    )
    expect(result.stdout).to.match(/^ok: \.ghxbenchrc\.yml, 1 suites, 1 scenarios, 0 sets, 2 profiles/)
  })

  it('its mode offers one read-only tool that reads the GitHub API it is given (a loopback server here)', async () => {
    const script = [
      "import http from 'node:http'",
      "import plugin from 'ghx-bench-plugin-example'",
      'const server = http.createServer((req, res) => {',
      "  res.setHeader('content-type', 'application/json')",
      '  res.end(JSON.stringify({path: req.url, auth: req.headers.authorization, method: req.method}))',
      '})',
      "await new Promise((r) => server.listen(0, '127.0.0.1', r))",
      'const apiUrl = `http://127.0.0.1:${server.address().port}/api/v3`',
      'const mode = plugin.modes[0]',
      "const context = {options: {}, github: {apiUrl, token: 't0k', env: {}}, workdir: '.'}",
      'const session = await mode.open(context)',
      "const result = await session.call('github_api_get', {path: '/repos/o/r/issues/1'}, AbortSignal.timeout(5000))",
      'console.log(JSON.stringify({available: await mode.available(context), tools: session.tools.map((t) => t.name), result}))',
      'server.close()',
    ].join('\n')
    await writeFile(path.join(project, 'call-mode.mjs'), script)
    const {stdout} = await run(process.execPath, ['call-mode.mjs'], {cwd: project})
    const out = JSON.parse(stdout) as {
      available: {available: boolean}
      tools: string[]
      result: {ok: boolean; output: string}
    }
    expect(out.available.available).to.equal(true)
    expect(out.tools).to.deep.equal(['github_api_get'])
    expect(out.result.ok).to.equal(true)
    expect(JSON.parse(out.result.output)).to.deep.equal({
      path: '/api/v3/repos/o/r/issues/1',
      auth: 'token t0k',
      method: 'GET',
    })
  })

  it('its own tests pass with the plugin kit of the installed ghx-bench (testCondition, testMode)', async () => {
    // The example's test file, run as its author runs it (node --test), where both packages are installed.
    await copyFile(
      path.join(PROJECT_ROOT, 'examples', 'ghx-bench-plugin-example', 'test.js'),
      path.join(project, 'example.test.js'),
    )
    const {stdout} = await run(process.execPath, ['--test', 'example.test.js'], {cwd: project})
    expect(stdout).to.match(/^# pass 2$/m)
    expect(stdout).to.match(/^# fail 0$/m)
  })

  it('validate refuses mode options that fail the plugin’s optionsSchema, at the option’s file:line:col', async () => {
    await writeFile(
      path.join(project, 'suites', 'readonly.yml'),
      'name: readonly\nscenarios: {ids: [bug-title-001]}\nmodes: [{name: github-api-readonly, options: {max_response_chars: 5}}]\n',
    )
    const result = await installedCli(['validate'], project)
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include(
      'suites/readonly.yml:3:67 error: mode github-api-readonly options: modes[0].options.max_response_chars must be >= 100',
    )
  })
})
