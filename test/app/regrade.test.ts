// One verdict: the rows a run records, judged again by regrade with the same conditions, keep every
// verdict field; a changed condition changes exactly the verdicts it should, and regrade counts them.
import {copyFile, mkdir, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {regrade} from '../../src/app/regrade.js'
import {runProjectSuite} from '../../src/app/run.js'
import type {Row} from '../../src/results/row-schema.js'
import {makeProject, PROJECT_ROOT} from '../support/cli.js'

const SCENARIO = 'issue-triage-comment-wf-001'
const readRowsOf = async (file: string): Promise<Row[]> =>
  (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Row)

describe('run and regrade give one verdict', function () {
  this.timeout(90_000)
  let dir: string
  const scenarioFile = () => path.join(dir, 'catalogue', 'scenarios', `${SCENARIO}.yml`)

  before(async () => {
    dir = await makeProject({
      '.ghxbenchrc.yml': 'target: sandbox\nmodel: oracle\nsuites_dir: catalogue\nfixtures: {seed_id: verdict}\n',
      'catalogue/triage.yml': `name: triage\nscenarios: {ids: [${SCENARIO}]}\nmodes: [agent_direct]\ntimeouts: {checkpoint_ms: 300}\n`,
    })
    await mkdir(path.dirname(scenarioFile()), {recursive: true})
    await copyFile(path.join(PROJECT_ROOT, 'suites', 'scenarios', `${SCENARIO}.yml`), scenarioFile())
    // The oracle does the work and passes; noop does nothing and fails every checkpoint.
    for (const model of ['oracle', 'noop']) {
      const {summary} = await runProjectSuite({
        cwd: dir,
        suitePath: 'catalogue/triage.yml',
        runId: model,
        noReport: true,
        overrides: {model},
      })
      expect(summary.by_mode.agent_direct, model).to.deep.equal(
        model === 'oracle'
          ? {pass: 1, fail: 0, timeout: 0, infra_error: 0}
          : {pass: 0, fail: 1, timeout: 0, infra_error: 0},
      )
    }
  })

  it('with the same conditions, regrade keeps every row as run recorded it, and counts no change', async () => {
    for (const runId of ['oracle', 'noop']) {
      const report = await regrade({cwd: dir, runId, out: `same-${runId}.jsonl`})
      expect(report, runId).to.deep.include({rows: 1, regraded: 1, skipped: 0, changed: [], checkpoints_changed: []})
      expect(await readRowsOf(path.join(dir, `same-${runId}.jsonl`)), runId).to.deep.equal(
        await readRowsOf(path.join(dir, 'results', `${runId}.jsonl`)),
      )
    }
    const [noop] = await readRowsOf(path.join(dir, 'results', 'noop.jsonl'))
    expect(noop).to.deep.include({
      outcome: 'fail',
      success: false,
      output_valid: true,
      error: {
        type: 'checkpoint_failed',
        message: 'Workflow checkpoint verification failed: comment_added, enhancement_added, triage_labels_removed',
      },
    })
  })

  it('with changed conditions, a changed verdict is counted as one; a checkpoint that flips under a verdict that stays is not', async () => {
    const original = await readFile(scenarioFile(), 'utf8')
    try {
      // comment_added now asks for other text: the oracle's run fails it. triage_labels_removed now
      // accepts any label: noop's run passes it, and still fails the other two.
      const changed = original
        .replace(
          'condition: {type: some, condition: {type: field_contains, path: body, value: "Triaged — tracking as enhancement."}}',
          'condition: {type: some, condition: {type: field_contains, path: body, value: "Not what was asked."}}',
        )
        .replace('pattern: "^(bench-fixture|bench-seed:.+|enhancement)$"', 'pattern: ".*"')
      expect(changed).to.not.equal(original)
      await writeFile(scenarioFile(), changed)

      const oracle = await regrade({cwd: dir, runId: 'oracle'})
      expect(oracle.changed.map((c) => [c.before, c.after, c.fields, c.checkpoints.map((k) => k.name)])).to.deep.equal([
        [true, false, ['outcome', 'success', 'error'], ['comment_added']],
      ])
      expect(oracle.checkpoints_changed).to.deep.equal([])
      const [regraded] = await readRowsOf(path.join(dir, 'results', 'oracle.regraded.jsonl'))
      expect(regraded).to.deep.include({
        outcome: 'fail',
        success: false,
        output_valid: true,
        error: {type: 'checkpoint_failed', message: 'Workflow checkpoint verification failed: comment_added'},
      })

      const noop = await regrade({cwd: dir, runId: 'noop'})
      expect(noop.changed).to.deep.equal([])
      expect(
        noop.checkpoints_changed.map((c) => [c.before, c.after, c.fields, c.checkpoints.map((k) => k.name)]),
      ).to.deep.equal([[false, false, [], ['triage_labels_removed']]])
    } finally {
      await writeFile(scenarioFile(), original)
    }
  })
})

describe('regrade judges atomic rows again: their checkpoints read the answer the row kept', function () {
  this.timeout(90_000)
  const ATOMIC = 'issue-list-001'
  it('a truth check changed after the run changes the verdict', async () => {
    const dir = await makeProject({
      '.ghxbenchrc.yml': 'target: sandbox\nmodel: oracle\nsuites_dir: catalogue\nfixtures: {seed_id: atomic}\n',
      'catalogue/list.yml': `name: list\nscenarios: {ids: [${ATOMIC}]}\nmodes: [agent_direct]\ntimeouts: {checkpoint_ms: 300}\n`,
    })
    const file = path.join(dir, 'catalogue', 'scenarios', `${ATOMIC}.yml`)
    await mkdir(path.dirname(file), {recursive: true})
    await copyFile(path.join(PROJECT_ROOT, 'suites', 'scenarios', `${ATOMIC}.yml`), file)
    await runProjectSuite({cwd: dir, suitePath: 'catalogue/list.yml', runId: 'oracle', noReport: true})
    const [row] = await readRowsOf(path.join(dir, 'results', 'oracle.jsonl'))
    expect(row).to.deep.include({outcome: 'pass', success: true})
    // The row keeps what the checks saw: the answer among the variables.
    expect((row!.variables as {answer: unknown[]}).answer.length).to.be.above(0)
    expect(await regrade({cwd: dir, runId: 'oracle', out: 'same.jsonl'})).to.deep.include({
      regraded: 1,
      skipped: 0,
      changed: [],
    })
    // Now the check asks for at least 50 open issues: the stored run's truth has fewer, so it fails.
    const original = await readFile(file, 'utf8')
    const changed = original.replace('key: number, match: contains}', 'key: number, match: contains, min: 50}')
    expect(changed).to.not.equal(original)
    await writeFile(file, changed)
    const report = await regrade({cwd: dir, runId: 'oracle'})
    expect(report.changed.map((c) => [c.before, c.after, c.fields, c.checkpoints.map((k) => k.name)])).to.deep.equal([
      [true, false, ['outcome', 'success', 'error'], ['answer_true']],
    ])
    const [regraded] = await readRowsOf(path.join(dir, 'results', 'oracle.regraded.jsonl'))
    expect(regraded).to.deep.include({
      outcome: 'fail',
      success: false,
      output_valid: true,
      error: {type: 'checkpoint_failed', message: 'Checkpoint verification failed: answer_true'},
    })
  })
})
