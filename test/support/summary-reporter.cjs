// The spec reporter, plus the closing line CI reads: `mocha: N passed, N failed, N skipped`. With
// MOCHA_SUMMARY_FILE set, the counts are also appended there as a JSON line, so that .ci/run can close with
// the total of the fast and the end-to-end sets. With MOCHA_TIMINGS_FILE set, each test's file and duration
// go there as JSON lines: what finds the files that make a set slow.
const {appendFileSync} = require('node:fs')
const Mocha = require('mocha')

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options)
    if (process.env.MOCHA_TIMINGS_FILE) {
      runner.on(Mocha.Runner.constants.EVENT_TEST_END, (test) => {
        appendFileSync(
          process.env.MOCHA_TIMINGS_FILE,
          JSON.stringify({file: test.file, title: test.fullTitle(), ms: test.duration ?? 0}) + '\n',
        )
      })
    }
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const {passes, failures, pending} = runner.stats
      process.stdout.write(`\nmocha: ${passes} passed, ${failures} failed, ${pending} skipped\n`)
      if (process.env.MOCHA_SUMMARY_FILE)
        appendFileSync(process.env.MOCHA_SUMMARY_FILE, JSON.stringify({passes, failures, pending}) + '\n')
    })
  }
}

module.exports = SummaryReporter
