// What a suite's runs leave to finish on their own (their folders removed, their access and model
// endpoints released) is done by the time the suite returns (test/runner/background-work.test.ts: the wait).
import {existsSync} from 'node:fs'
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {runProjectSuite} from '../../src/app/run.js'
import {makeProject, PROJECT_ROOT} from '../support/cli.js'

// A mode that fills its run's folder with files (slow to remove) and says where the folder is.
const CLUTTER_MODE = `import {mkdirSync, writeFileSync, appendFileSync} from 'node:fs'
import path from 'node:path'
export default {apiVersion: 1, name: 'clutter', version: '1.0.0', modes: [{
  name: 'clutter', description: 'fills its folder', optionsSchema: {type: 'object'},
  available: async () => ({available: true}),
  async open(context) {
    for (let d = 0; d < 40; d++) {
      mkdirSync(path.join(context.workdir, 'd' + d))
      for (let f = 0; f < 100; f++) writeFileSync(path.join(context.workdir, 'd' + d, 'f' + f), 'x')
    }
    appendFileSync(new URL('./workdirs.txt', import.meta.url), context.workdir + '\\n')
    return {instructions: 'x', tools: [], env: {}, call: async () => ({ok: false, output: 'no tools'}), close: async () => {}}
  },
}]}
`

// A provider that ignores the run's signal, then cleans up (a server killed) well after the abort grace.
const DEAF_PROVIDER = `import {setTimeout as sleep} from 'node:timers/promises'
import {appendFileSync} from 'node:fs'
export default {apiVersion: 1, name: 'deaf', version: '1.0.0', providers: [{
  name: 'deaf', description: 'ignores the signal', optionsSchema: {type: 'object'},
  available: async () => ({available: true}),
  async run() {
    try {
      await sleep(3500)
      return {turns: [], final_text: '', stop_reason: 'final'}
    } finally {
      await sleep(1000)
      appendFileSync(new URL('./cleaned.txt', import.meta.url), 'cleaned\\n')
    }
  },
}]}
`

describe('a suite', function () {
  this.timeout(60_000)

  it('has removed its runs’ folders by the time it returns', async () => {
    const dir = await makeProject({
      '.ghxbenchrc.yml':
        'target: sandbox\nmodel: noop\nsuites_dir: catalogue\nplugins: [./clutter.js]\nfixtures: {seed_id: background}\n',
      'clutter.js': CLUTTER_MODE,
      'catalogue/scenarios/repo-view-001.yml': await readFile(
        path.join(PROJECT_ROOT, 'suites', 'scenarios', 'repo-view-001.yml'),
        'utf8',
      ),
      'catalogue/one.yml':
        'name: one\nscenarios: {ids: [repo-view-001]}\nmodes: [clutter]\nrepetitions: 3\nconcurrency: 3\nwarmup: false\n',
    })
    const {summary} = await runProjectSuite({
      cwd: dir,
      suitePath: 'catalogue/one.yml',
      runId: 'background',
      noReport: true,
    })
    expect(summary.by_mode).to.deep.equal({clutter: {pass: 0, fail: 3, timeout: 0, infra_error: 0}})
    const workdirs = (await readFile(path.join(dir, 'workdirs.txt'), 'utf8')).trim().split('\n')
    expect(workdirs).to.have.length(3)
    expect(workdirs.filter((folder) => existsSync(folder))).to.deep.equal([])
  })

  it('waits, before it returns, for a provider the timeout left behind to clean up', async () => {
    const dir = await makeProject({
      '.ghxbenchrc.yml':
        'target: sandbox\nmodel: noop\nprovider: deaf\nsuites_dir: catalogue\nplugins: [./deaf.js]\nfixtures: {seed_id: deaf}\n',
      'deaf.js': DEAF_PROVIDER,
      'catalogue/scenarios/repo-view-001.yml': (
        await readFile(path.join(PROJECT_ROOT, 'suites', 'scenarios', 'repo-view-001.yml'), 'utf8')
      ).replace('timeout_ms: 60000', 'timeout_ms: 1000'),
      'catalogue/one.yml':
        'name: one\nscenarios: {ids: [repo-view-001]}\nmodes: [agent_direct]\nrepetitions: 1\nwarmup: false\n',
    })
    const {summary} = await runProjectSuite({cwd: dir, suitePath: 'catalogue/one.yml', runId: 'deaf', noReport: true})
    expect(summary.by_mode).to.deep.equal({agent_direct: {pass: 0, fail: 0, timeout: 1, infra_error: 0}})
    expect(await readFile(path.join(dir, 'cleaned.txt'), 'utf8')).to.equal('cleaned\n')
  })
})
