// The report and the gate are exact: the aggregate read from the narrow columns, on every input
// format, on the main thread or by workers, holds to the last bit what the implementation before #18
// (eight Float64 columns a cell, Row objects, commit 82dea48) held for the same rows
// (test/report/fixtures/aggregate-view-*.json, written by that implementation), and the report and
// gate computed from the two are identical.
import {readFileSync} from 'node:fs'
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {aggregateFiles, type AggregateOptions} from '../../../src/report/aggregate/read-aggregate.js'
import {PROJECT_ROOT} from '../../support/cli.js'
import {sharedPath, skipWithoutShared} from '../../support/shared.js'
import {
  aggregateFromView,
  aggregateView,
  goldenFigures,
  withoutRunSuccess,
  writeGoldenInputs,
  type AggregateView,
} from '../fixtures/golden-dataset.js'

const EVAL = sharedPath('datasets', 'ghx-eval-2026-03')
const oldView = (format: string) =>
  JSON.parse(
    readFileSync(path.join(PROJECT_ROOT, 'test', 'report', 'fixtures', `aggregate-view-${format}.json`), 'utf8'),
  ) as AggregateView

describe('aggregate: exact against the implementation before #18', function () {
  this.timeout(60_000)
  let dir: string
  let inputs: ReturnType<typeof writeGoldenInputs>
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-golden-'))
    inputs = writeGoldenInputs(dir)
  })
  after(() => rm(dir, {recursive: true, force: true}))

  async function check(format: string, files: string[], options: AggregateOptions): Promise<void> {
    const warnings: string[] = []
    const providers = await aggregateFiles(
      files,
      (w) => warnings.push(`${path.basename(w.file)}:${w.line}: ${w.message}`),
      dir,
      options,
    )
    // Each golden dataset is one provider's rows.
    expect(providers.size).to.equal(1)
    const aggregate = [...providers.values()][0]!
    const old = oldView(format)
    // Compared as JSON text: every double, NaN and count as it was.
    expect(JSON.stringify(aggregateView(aggregate))).to.equal(JSON.stringify(old))
    expect(goldenFigures(withoutRunSuccess(aggregate), warnings)).to.equal(
      goldenFigures(aggregateFromView(old), warnings),
    )
  }

  const paths: Array<[string, AggregateOptions]> = [
    ['on the main thread', {workers: 1}],
    ['in 2 workers', {workers: 2, parallelMinBytes: 1}],
    ['in 3 workers (a range starting in the second run: its runs renumbered)', {workers: 3, parallelMinBytes: 1}],
  ]
  for (const format of ['ghx-bench', 'ghx-router'] as const) {
    for (const [where, options] of paths)
      it(`${format} rows read ${where}`, () => check(format, inputs[format], options))
  }

  it('ghx eval results.json and results.csv (the CSV rows counted once)', async function () {
    skipWithoutShared(this, EVAL)
    await check('ghx-eval', [path.join(EVAL, 'results.json'), path.join(EVAL, 'results.csv')], {})
  })
})
