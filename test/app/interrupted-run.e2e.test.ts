// A real run stopped by Ctrl-C part way is incomplete: run.json records it, `gate` over its rows exits 3
// naming what is missing and the command that resumes it; resumed, the run is whole and judged.
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {runProjectSuite} from '../../src/app/run.js'
import type {RunInfo} from '../../src/results/run-info.js'
import {displayPath} from '../../src/shared/source-document.js'
import {makeProject} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'
import {rowsOf, sandboxConfig, SUITES} from '../support/sandbox-project.js'

describe('a run stopped by Ctrl-C part way', function () {
  this.timeout(300_000)

  it('records that it is incomplete; gate exits 3 naming the missing runs and the resume; resumed, it is whole', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': sandboxConfig()})
    const suite = path.join(SUITES, 'smoke.yml')
    const controller = new AbortController()
    let finished = 0
    const {summary} = await runProjectSuite(
      {cwd: dir, suitePath: suite, runId: 'cut', concurrency: 1, signal: controller.signal},
      (event) => {
        if (event.type === 'run_finished' && ++finished === 4) controller.abort()
      },
    )
    expect(summary.interrupted).to.equal(true)
    const recorded = rowsOf(dir, 'cut').length
    expect(recorded).to.be.within(4, 9)
    const info = JSON.parse(await readFile(path.join(dir, 'results', 'cut', 'run.json'), 'utf8')) as RunInfo
    expect(info.stopped?.reason).to.equal('interrupted')
    expect(info.suite_file).to.equal(displayPath(suite, dir))

    const gate = await runCliInProcess(['gate', '--run-id', 'cut'], {cwd: dir})
    expect(gate.code, gate.stdout + gate.stderr).to.equal(3)
    const verdict = gate.stdout.trimEnd().split('\n').at(-1)!
    const [, lacks, planned] = /incomplete: run cut lacks (\d+) of its (\d+) planned runs/.exec(verdict) ?? []
    expect(Number(lacks), verdict).to.equal(Number(planned) - recorded)
    expect(verdict).to.include(
      `the run is incomplete (it was interrupted): complete it with \`ghx-bench run ${displayPath(suite, dir)} --run-id cut\``,
    )

    const resumed = await runProjectSuite({cwd: dir, suitePath: suite, runId: 'cut', concurrency: 1})
    expect(resumed.summary.interrupted).to.equal(false)
    expect(rowsOf(dir, 'cut')).to.have.length(Number(planned))
    const whole = JSON.parse(await readFile(path.join(dir, 'results', 'cut', 'run.json'), 'utf8')) as RunInfo
    expect(whole.stopped).to.equal(undefined)
    const judged = await runCliInProcess(['gate', '--run-id', 'cut'], {cwd: dir})
    expect(judged.stdout.trimEnd().split('\n').at(-1)).to.not.include('incomplete')
  })
})
