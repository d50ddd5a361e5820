import {BaseCommand} from '../cli/base-command.js'
import {reportOptions, rowFlags} from '../cli/report-flags.js'
import type {Report} from '../report/summary.js'

export default class ReportCommand extends BaseCommand<typeof ReportCommand> {
  static override summary = 'Summarise result rows per mode and scenario, with deltas against the baseline'
  static override description =
    'Reads rows (the newest run by default), and writes summary.md and summary.json: per mode the rates, latency, tokens, tool calls and cost; per scenario and mode the same medians; and each mode against the baseline with seeded bootstrap intervals. Rows of ghx-router and ghx eval import as they are.'
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --run-id 2026-11-22T10-00-00Z',
    '<%= config.bin %> <%= command.id %> --input ../shared/datasets/ghx-router-codex-5.3 --format md',
  ]
  static override flags = rowFlags

  async run(): Promise<Report> {
    const {produceReport} = await import('../report/produce.js')
    const config = await this.loadBenchConfig()
    const {report, files} = await produceReport(config, reportOptions(this.flags))
    for (const warning of report.warnings) this.logToStderr(`warning: ${warning}`)
    const modes = Object.entries(report.modes)
      .map(([mode, m]) => `${mode}: ${m.runs} runs, success ${m.success_rate?.toFixed(1) ?? '–'}%`)
      .join('; ')
    this.log(`${report.rows} rows: ${modes}`)
    for (const file of files) this.log(`wrote ${file}`)
    return report
  }
}
