import {Args} from '@oclif/core'
import {BaseCommand, EXIT_BAD_INPUT} from '../cli/base-command.js'
import {formatDiagnostics} from '../spec/diagnostics.js'
import type {ValidationReport} from '../spec/validate-project.js'

export default class Validate extends BaseCommand<typeof Validate> {
  static override summary = 'Check the config, suites, scenarios, sets and profiles'
  static override description =
    'Validates every file against its JSON Schema and across files: ids unique, sets and suites reference real scenarios, profiles and sets, read-only sets hold no mutation, placeholders are bound and checkpoint conditions have valid parameters. Every finding is reported at file:line:col; any finding exits 2.'
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> suites/smoke.yml',
    '<%= config.bin %> <%= command.id %> --json',
  ]
  static override strict = false
  static override args = {
    files: Args.string({description: 'files to validate (default: the config and everything under suites/)'}),
  }

  async run(): Promise<ValidationReport> {
    const {validateProject} = await import('../spec/validate-project.js')
    const report = await validateProject({configPath: this.flags.config, files: this.positionals})
    if (!report.ok) {
      if (this.jsonEnabled()) this.logJson(report)
      else {
        this.logToStderr(formatDiagnostics(report.diagnostics))
        const files = new Set(report.diagnostics.map((d) => d.file)).size
        this.logToStderr(`\n${report.diagnostics.length} problem(s) in ${files} file(s)`)
      }
      this.exit(EXIT_BAD_INPUT)
    }
    const {counts} = report
    this.log(
      `ok: ${report.config ?? 'no config file (defaults)'}, ${counts.suites} suites, ${counts.scenarios} scenarios, ${counts.sets} sets, ${counts.profiles} profiles`,
    )
    return report
  }
}
