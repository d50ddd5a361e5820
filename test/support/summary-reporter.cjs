// The spec reporter, plus the closing line CI reads: `mocha: N passed, N failed, N skipped`.
const Mocha = require('mocha')

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options)
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const {passes, failures, pending} = runner.stats
      process.stdout.write(`\nmocha: ${passes} passed, ${failures} failed, ${pending} skipped\n`)
    })
  }
}

module.exports = SummaryReporter
