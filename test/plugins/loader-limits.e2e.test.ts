// A plugin cannot hang ghx-bench or end it while it loads: an import that never settles (a top-level
// await, pending or unsettled) and a mode whose preflight never answers end with exit 2 naming the
// plugin and the time limit; a plugin that calls process.exit while loading is refused (exit 2), not
// taken for a clean exit 0. Nor can its import leave anything behind: an endless loop, a rejection
// nobody handles, a process still running, a getter that throws each end with exit 2, one line
// naming the plugin, within seconds, and no process of the plugin's outlives ghx-bench (each CLI's
// processes carry a marker in their environment, looked for in /proc afterwards).
import {randomBytes} from 'node:crypto'
import {mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import path from 'node:path'
import {expect} from 'chai'
import {makeProject, runCli} from '../support/cli.js'
import {project} from '../support/reliability.js'

const VALID = `export default {apiVersion: 1, name: 'late', version: '1.0.0'}\n`
const LIMIT = {GHX_BENCH_PLUGIN_TIME_LIMIT_MS: '1500'}
const MARKER_VARIABLE = 'GHX_BENCH_TEST_PLUGIN_MARKER'

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

/** The processes (but this one) whose environment carries the marker. */
function processesMarked(marker: string): number[] {
  const entry = Buffer.from(`${MARKER_VARIABLE}=${marker}\0`)
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`).includes(entry)
      } catch {
        return false
      }
    })
    .map(Number)
}

/**
 * `validate` with the plugin, its processes marked: exit 2 within `withinMs`, the problem on one line
 * naming the plugin (and no other), no stack trace, and nothing of it running afterwards.
 */
async function expectRefused(plugin: string, problem: RegExp, withinMs = 30_000): Promise<number> {
  const marker = randomBytes(8).toString('hex')
  const started = Date.now()
  const result = await validateWith(plugin, {[MARKER_VARIABLE]: marker})
  const elapsed = Date.now() - started
  expectNamed(result, problem)
  expect(
    result.stderr.split('\n').filter((line) => line.includes('plugin "./plug.js"')),
    result.stderr,
  ).to.have.length(1)
  expect(elapsed, result.stderr).to.be.below(withinMs)
  expect(processesMarked(marker)).to.deep.equal([])
  return elapsed
}

/** A process in a session of its own, and one orphaned at once (a shell that starts it in the background and exits). */
const SPAWNS = `import {spawn} from 'node:child_process'
const spawnDaemons = () => {
  spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {detached: true, stdio: 'ignore'}).unref()
  spawn('sh', ['-c', \`"\${process.execPath}" -e "setInterval(() => {}, 1000)" &\`], {detached: true, stdio: 'ignore'}).unref()
}
`
/** True in the process that checks a plugin's import: a plugin that behaves only there is not caught by the check alone. */
const IN_THE_CHECK = "process.argv[1].includes('plugin-check')"

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

  describe('what an import leaves behind', () => {
    it('a process it starts and leaves running (detached, or orphaned at once) is ended: exit 2 naming the plugin, nothing left', async () => {
      await expectRefused(
        `${SPAWNS}spawnDaemons()\n${VALID}`,
        /plugin "\.\/plug\.js": its import started [23] processes that kept running \((node|sh)(, (node|sh))?\): a plugin starts processes in a mode's open or a provider's run, where ghx-bench ends them, never at import/,
      )
    })

    it('an endless loop is refused after 5 s with exit 2 naming the plugin, not a hang, and its process is ended', async () => {
      const elapsed = await expectRefused(
        `for (;;) {}\n${VALID}`,
        /plugin "\.\/plug\.js": its import did not finish within 5 s: its code never let the process do anything else \(an endless loop\?\)/,
      )
      expect(elapsed).to.be.at.least(5000)
    })

    it('a promise rejection nobody handles is the plugin’s problem: exit 2, one line, no stack trace', async () => {
      await expectRefused(
        `Promise.reject(new Error('the token file is missing\\n  at somewhere'))\n${VALID}`,
        /plugin "\.\/plug\.js": its import left a promise rejection unhandled: the token file is missing$/m,
      )
    })

    it('a getter that throws makes a broken plugin: exit 2 naming it and the member, not an internal error (exit 4)', async () => {
      await expectRefused(
        `export default {apiVersion: 1, get name() { throw new Error('no name yet') }, version: '1.0.0'}\n`,
        /plugin "\.\/plug\.js": is a broken plugin: reading its "name" threw: no name yet$/m,
      )
      await expectRefused(
        `export default {apiVersion: 1, name: 'moody', version: '1.0.0', conditions: [{get name() { throw new Error('not today') }}]}\n`,
        /plugin "\.\/plug\.js": is a broken plugin: reading its modes, providers, conditions or read tasks threw: not today$/m,
      )
    })

    it('an import that leaves a process or a rejection in ghx-bench’s own process only (not in its check) is caught there too', async () => {
      await expectRefused(
        `${SPAWNS}if (!${IN_THE_CHECK}) spawnDaemons()\n${VALID}`,
        /plugin "\.\/plug\.js": its import started [23] processes that kept running/,
      )
      await expectRefused(
        `if (!${IN_THE_CHECK}) Promise.reject(new Error('only here'))\n${VALID}`,
        /plugin "\.\/plug\.js": its import left a promise rejection unhandled: only here$/m,
      )
    })

    it('run with such a plugin ends with exit 2 before any run: the results already there are untouched', async () => {
      const dir = await project({'loops.js': `for (;;) {}\n${VALID}`}, 'plugins: [./loops.js]')
      const earlier = '{"earlier": "rows of another run"}\n'
      mkdirSync(path.join(dir, 'results'), {recursive: true})
      writeFileSync(path.join(dir, 'results', 'earlier.jsonl'), earlier)
      const result = await runCli(['run', 'catalogue/one.yml', '--no-report'], {cwd: dir, env: {CI: '1'}})
      expectNamed(result, /plugin "\.\/loops\.js": its import did not finish within 5 s/)
      expect(readdirSync(path.join(dir, 'results'))).to.deep.equal(['earlier.jsonl'])
      expect(readFileSync(path.join(dir, 'results', 'earlier.jsonl'), 'utf8')).to.equal(earlier)
    })
  })
})
