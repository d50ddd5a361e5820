import {Args, Flags} from '@oclif/core'
import {BaseCommand, EXIT_BAD_INPUT} from '../cli/base-command.js'
import type {CalibrationReport} from '../app/calibrate.js'
import {ADVERSARIES, type AdversaryName} from '../app/calibration-options.js'
import type {ValidationReport} from '../app/validate-project.js'

export default class Validate extends BaseCommand<typeof Validate> {
  static override summary = 'Check the config, suites, scenarios, sets and profiles'
  static override description =
    'Validates every file against its JSON Schema and across files: ids unique, sets and suites reference real scenarios, profiles and sets, read-only sets hold no mutation, placeholders are bound and checkpoint conditions have valid parameters. Every finding is reported at file:line:col; any finding exits 2. With --calibrate it then runs every scenario with a reference plan under each mode, through the configured provider (or --provider), with the oracle model (which must pass, every step of its plan included), noop and four adversaries (liar: a made-up answer; empty: an empty one; wrong_target: the plan on another resource of the fixture; read_only: the plan’s reads only), which must all fail, on the configured target; it lists the mis-calibrated scenarios and those an adversary passed (weak), both exit 1, and the plans that rest on a fallback. On the sandbox it also mutation-tests the checkpoints in every mode: each change the oracle’s run made is undone on its own, and some checkpoint must then fail (a perturbation they all survive is weak: exit 1).'
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> suites/smoke.yml',
    '<%= config.bin %> <%= command.id %> --json',
    '<%= config.bin %> <%= command.id %> --calibrate',
    '<%= config.bin %> <%= command.id %> --calibrate --mode agent_direct --scenario pr-view-001',
    '<%= config.bin %> <%= command.id %> --calibrate --provider claude-code',
  ]
  static override flags = {
    calibrate: Flags.boolean({
      description: 'prove every reference plan: oracle passes; noop, liar, empty, wrong_target and read_only fail',
      default: false,
    }),
    mode: Flags.string({char: 'm', multiple: true, description: 'calibrate only these modes'}),
    scenario: Flags.string({char: 's', multiple: true, description: 'calibrate only these scenarios'}),
    provider: Flags.string({
      description: 'calibrate through this provider (default: the configuration’s provider, agent-loop)',
      dependsOn: ['calibrate'],
    }),
    concurrency: Flags.integer({
      min: 1,
      max: 64,
      description: 'calibration runs at once (default: the calibration suite’s, 4)',
    }),
    adversary: Flags.string({
      multiple: true,
      options: [...ADVERSARIES],
      description: 'play only these adversaries (default: all; one left out is listed as not played)',
    }),
  }
  static override strict = false
  static override args = {
    files: Args.string({description: 'files to validate (default: the config and everything under suites/)'}),
  }

  async run(): Promise<ValidationReport | (ValidationReport & {calibration: CalibrationReport})> {
    const {validateProject} = await import('../app/validate-project.js')
    const report = await validateProject({...this.project(), files: this.positionals})
    if (!report.ok) {
      if (this.jsonEnabled()) this.logJson(report)
      else {
        this.printDiagnostics(report.diagnostics)
        const files = new Set(report.diagnostics.map((d) => d.file)).size
        this.logToStderr(`\n${report.diagnostics.length} problem(s) in ${files} file(s)`)
      }
      this.exit(EXIT_BAD_INPUT)
    }
    const {counts} = report
    this.log(
      `ok: ${report.config ?? 'no config file (defaults)'}, ${counts.suites} suites, ${counts.scenarios} scenarios, ${counts.sets} sets, ${counts.profiles} profiles`,
    )
    if (!this.jsonEnabled()) for (const warning of report.warnings ?? []) this.logToStderr(`warning: ${warning}`)
    if (!this.flags.calibrate) return report
    const {calibrate} = await import('../app/calibrate.js')
    const {ProgressView, progressStyle} = await import('../cli/progress.js')
    // Progress of the oracle's pass, noop's and the mutation pass (none under --json: one document).
    const view = new ProgressView(this.jsonEnabled() ? 'silent' : progressStyle(false))
    if (!this.jsonEnabled())
      this.log(
        'calibrating: the oracle must pass every run; noop and the adversaries (liar, empty, read_only, wrong_target) must fail every run; then the checkpoints are mutation-tested',
      )
    const quit = () => {
      view.abort()
      process.exit(130)
    }
    process.once('SIGINT', quit)
    let calibration: CalibrationReport
    try {
      calibration = await calibrate({
        ...this.project(),
        modes: this.flags.mode,
        provider: this.flags.provider,
        scenarios: this.flags.scenario,
        concurrency: this.flags.concurrency,
        adversaries: this.flags.adversary as AdversaryName[] | undefined,
        onEvent: (event, phase) => view.handle(event, phase),
      })
    } finally {
      await view.close()
      process.off('SIGINT', quit)
    }
    // Nothing calibrated proves nothing: no plan to play, or no mode with a plan could run here.
    const nothingCalibrated = !calibration.entries.some((e) => e.status === 'calibrated')
    const warnings = nothingCalibrated
      ? [
          calibration.entries.length === 0
            ? `nothing to calibrate: no scenario${this.flags.scenario?.length || this.flags.mode?.length ? ' selected by --scenario/--mode' : ''} has a reference plan (reference.<mode>: the tool calls the oracle plays)`
            : 'nothing was calibrated: no scenario x mode with a reference plan could run here (reasons above)',
        ]
      : []
    const result = {...report, calibration, ...(nothingCalibrated ? {warnings} : {})}
    if (this.jsonEnabled()) {
      // oclif prints what run() returns; exit(1) would skip that, so a failed calibration prints itself.
      if (!calibration.ok || nothingCalibrated) this.logJson(result)
    } else {
      const count = (status: string) => calibration.entries.filter((e) => e.status === status).length
      this.log(
        `calibration: ${count('calibrated')} calibrated, ${count('miscalibrated')} mis-calibrated, ${count('weak')} weak, ${count('not_run')} not run (scenario x mode with a reference plan)`,
      )
      for (const {mode, reason} of calibration.unavailable) this.log(`  mode ${mode} not run: ${reason}`)
      for (const entry of calibration.miscalibrated)
        this.log(`  mis-calibrated: ${entry.scenario_id} under ${entry.mode}: ${entry.reason}`)
      for (const entry of calibration.weak)
        this.log(`  weak: ${entry.scenario_id} under ${entry.mode}: ${entry.reason}`)
      for (const {scenario_id, mode, reason} of calibration.fallbacks)
        this.log(`  rests on a fallback (a defect of the tool layer): ${scenario_id} under ${mode}: ${reason}`)
      for (const entry of calibration.entries.filter(
        (e) => e.status === 'not_run' && !calibration.unavailable.some((u) => u.mode === e.mode),
      )) {
        this.log(`  not run: ${entry.scenario_id} under ${entry.mode}: ${entry.reason}`)
      }
      const {mutation} = calibration
      if (mutation.skipped) this.log(`mutation testing: not run (${mutation.skipped})`)
      else {
        const perturbations = mutation.reports.reduce((n, r) => n + r.perturbations.length, 0)
        this.log(
          `mutation testing (${mutation.modes.join(', ')}): ${mutation.reports.length} run(s) of scenario x mode, ${perturbations} perturbation(s), ${mutation.weak.length} with weak checkpoints`,
        )
        for (const report of mutation.reports) {
          const at = `${report.scenario_id} under ${report.mode}`
          for (const name of report.weak) this.log(`  weak: ${at}: no checkpoint fails when we ${name}`)
          for (const problem of report.not_applied) this.log(`  not applied: ${at}: ${problem}`)
        }
        for (const {scenario_id, mode} of mutation.untested)
          this.log(`  untested: ${scenario_id} under ${mode}: its run changed nothing its checkpoints read`)
      }
    }
    for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`)
    if (!calibration.ok || nothingCalibrated) this.exit(1)
    return result
  }
}
