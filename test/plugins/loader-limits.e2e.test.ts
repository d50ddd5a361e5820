// A plugin cannot hang ghx-bench or end it while it loads: an import that never settles (a top-level
// await, pending or unsettled) and a mode whose preflight never answers end with exit 2 naming the
// plugin and the time limit; a plugin that calls process.exit while loading is refused (exit 2), not
// taken for a clean exit 0.
import {expect} from 'chai'
import {makeProject, runCli} from '../support/cli.js'
import {project} from '../support/reliability.js'

const VALID = `export default {apiVersion: 1, name: 'late', version: '1.0.0'}\n`
const LIMIT = {GHX_BENCH_PLUGIN_TIME_LIMIT_MS: '1500'}

async function validateWith(plugin: string, env: NodeJS.ProcessEnv = {}) {
  const dir = await makeProject({
    '.ghxbenchrc.yml': 'suites_dir: catalogue\nplugins: [./plug.js]\n',
    'plug.js': plugin,
    'catalogue/.keep': '',
  })
  return runCli(['validate'], {cwd: dir, env})
}

/** One clear message naming the plugin: no stack trace. */
function expectNamed(result: {code: number; stderr: string}, message: RegExp): void {
  expect(result.code, result.stderr).to.equal(2)
  expect(result.stderr).to.match(message)
  expect(result.stderr).to.not.match(/\n\s+at /)
}

describe('plugin loading and preflight: time limits and process.exit', function () {
  this.timeout(90_000)

  it('an import whose top-level await never settles ends with exit 2 naming the plugin and the limit (not a silent exit 13)', async () => {
    expectNamed(
      await validateWith(`await new Promise(() => {})\n${VALID}`, LIMIT),
      /plugin "\.\/plug\.js": did not finish loading within 1\.5 s \(GHX_BENCH_PLUGIN_TIME_LIMIT_MS sets it\)/,
    )
  })

  it('an import that stays pending (its module keeps the process busy) ends with exit 2 naming the plugin and the limit, not a hang', async () => {
    expectNamed(
      await validateWith(`await new Promise(() => setInterval(() => {}, 1000))\n${VALID}`, LIMIT),
      /plugin "\.\/plug\.js": did not finish loading within 1\.5 s/,
    )
  })

  it('a factory that never settles ends with exit 2 naming the plugin', async () => {
    expectNamed(
      await validateWith(`export default () => new Promise(() => setInterval(() => {}, 1000))\n`, LIMIT),
      /plugin "\.\/plug\.js": did not finish loading within 1\.5 s/,
    )
  })

  it('a plugin that calls process.exit while it loads is refused with exit 2 naming it, also when it catches what that throws', async () => {
    expectNamed(
      await validateWith(`process.exit(0)\n${VALID}`),
      /plugin "\.\/plug\.js": called process\.exit\(0\) while loading: a plugin may not end ghx-bench/,
    )
    expectNamed(
      await validateWith(`try { process.exit(0) } catch {}\n${VALID}`),
      /plugin "\.\/plug\.js": called process\.exit\(0\) while loading/,
    )
    expectNamed(
      await validateWith(`export default () => process.exit(3)\n`),
      /plugin "\.\/plug\.js": called process\.exit\(3\) while loading/,
    )
  })

  it('a mode whose preflight never answers ends the run with exit 2 naming its plugin and the limit', async () => {
    const plugin = `export default {apiVersion: 1, name: 'hung-mode', version: '1.0.0', modes: [{
      name: 'hung', description: 'never answers', optionsSchema: {type: 'object'},
      available: () => new Promise(() => setInterval(() => {}, 1000)),
      open: async () => { throw new Error('not reached') },
    }]}\n`
    const dir = await project(
      {
        'hung.js': plugin,
        'catalogue/hung.yml': 'name: hung\nscenarios: {ids: [repo-view-001]}\nmodes: [hung]\nrepetitions: 1\nseed: 1\n',
      },
      'plugins: [./hung.js]',
    )
    const result = await runCli(['run', 'catalogue/hung.yml', '--no-report'], {cwd: dir, env: {...LIMIT, CI: '1'}})
    expectNamed(
      result,
      /plugin "\.\/hung\.js": mode "hung" did not answer its preflight \(available\) within 1\.5 s \(GHX_BENCH_PLUGIN_TIME_LIMIT_MS sets it\)/,
    )
  })
})
