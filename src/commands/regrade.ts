import {Flags} from '@oclif/core'
import {BaseCommand} from '../cli/base-command.js'
import type {RegradeReport} from '../app/regrade.js'

export default class Regrade extends BaseCommand<typeof Regrade> {
  static override summary = 'Judge stored runs again with the current checkpoint conditions, offline'
  static override description =
    'Re-evaluates each workflow row’s checkpoints against the task results the row kept, with the conditions the scenario files have now, and writes the re-graded rows to a new results file; the verdict is the one `run` gives. No GitHub access; rows without stored results (imported, infrastructure errors, timeouts) are copied as they are. Rows that are part of their run (compared with its plan, run.json) are re-graded and written, and said incomplete: exit 3.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> --run-id 2026-11-22T10-00-00Z',
    '<%= config.bin %> <%= command.id %> --input results/run.jsonl --out results/run.fixed.jsonl',
  ]
  static override flags = {
    input: Flags.string({char: 'i', multiple: true, description: 'results file or folder'}),
    'run-id': Flags.string({description: 'read results_dir/<run-id>.jsonl'}),
    out: Flags.string({
      char: 'o',
      description: 'where to write the re-graded rows (default: beside the input, .regraded.jsonl)',
    }),
  }

  async run(): Promise<RegradeReport> {
    const {regrade} = await import('../app/regrade.js')
    const report = await regrade({
      ...this.project(),
      inputs: this.flags.input,
      runId: this.flags['run-id'],
      out: this.flags.out,
    })
    const sameVerdict =
      report.checkpoints_changed.length > 0
        ? `, ${report.checkpoints_changed.length} with other checkpoint results and the same verdict`
        : ''
    this.log(
      `${report.rows} rows: ${report.regraded} re-graded, ${report.skipped} copied as they were, ${report.changed.length} verdict(s) changed${sameVerdict}`,
    )
    for (const change of [...report.changed, ...report.checkpoints_changed]) {
      this.log(
        `  ${change.scenario_id} ${change.mode} #${change.iteration}: ${change.before ? 'pass' : 'fail'} -> ${change.after ? 'pass' : 'fail'}${change.checkpoints.map((c) => `; ${c.name}: ${c.message}`).join('')}`,
      )
    }
    this.log(`wrote ${report.file}`)
    // Re-graded and written all the same: the rows are part of a run, which no verdict may be read from.
    if (report.incomplete) {
      if (this.jsonEnabled()) this.logJson(report)
      this.logToStderr(report.incomplete)
      this.exit(3)
    }
    return report
  }
}
