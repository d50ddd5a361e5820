import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../cli/base-command.js'

export default class RunCommand extends BaseCommand<typeof RunCommand> {
  static override jsonLines = true
  static override summary = 'Run a suite: every scenario under every mode, repeated, checked, recorded, judged'
  static override description =
    'Loads the suite and its scenarios, preflights each mode once (a mode that cannot run here is reported and left out), ensures the fixtures, plans scenario x mode x iteration in a seeded shuffled order, and runs each: reset fixtures, bind, open the mode, let the provider drive the model, check the envelope and the checkpoints, append one row (fsynced) to results_dir/<run-id>.jsonl, with its trace under results_dir/<run-id>/traces. Then writes the report and, when the suite names a profile, the gate, and exits with the gate’s code (0 pass, 1 fail, 3 inconclusive, also when the suite names a gate that cannot be computed here; 2 bad input or usage; 4 internal error; 130 interrupted). Re-run with the same --run-id to resume: recorded rows are skipped.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> suites/full-seeded.yml',
    '<%= config.bin %> <%= command.id %> suites/smoke.yml --mode agent_direct --repetitions 1',
    '<%= config.bin %> <%= command.id %> suites/full-seeded.yml --run-id 2026-11-22T10-00-00-1a2b3c4d',
    '<%= config.bin %> <%= command.id %> suites/verify-pr.yml --dry-run',
  ]
  static override args = {
    suite: Args.string({description: 'the suite YAML file', required: true}),
  }
  static override flags = {
    mode: Flags.string({char: 'm', multiple: true, description: 'run only these of the suite’s modes (repeatable)'}),
    scenario: Flags.string({char: 's', multiple: true, description: 'run only these scenario ids (repeatable)'}),
    set: Flags.string({description: 'run this scenario set instead of the suite’s selection'}),
    repetitions: Flags.integer({char: 'r', min: 1, description: 'iterations per scenario and mode (default: the suite’s)'}),
    concurrency: Flags.integer({min: 1, max: 64, description: 'runs at once (runs that share a fixture never overlap)'}),
    seed: Flags.integer({min: 0, description: 'seed of the run order (default: the suite’s)'}),
    'run-id': Flags.string({description: 'the run id (letters, digits, . _ - : + @ =); an existing one resumes, skipping recorded rows; one process per run id'}),
    model: Flags.string({description: 'oracle, noop, or a model of an OpenAI-compatible endpoint (default: the suite’s, then the config’s)'}),
    'fixture-manifest': Flags.string({description: 'fixture manifest to use (default: fixtures.manifest of the config); seeded when missing'}),
    'dry-run': Flags.boolean({description: 'print the plan and stop', default: false}),
    'inject-faults': Flags.string({description: 'reliability testing: this share (0..1) of the runs’ own sandbox and scripted-model requests fail with 5xx (never the harness’s seeding or checkpoints)'}),
    'no-report': Flags.boolean({description: 'record rows only: no report, no gate', default: false}),
  }

  async run(): Promise<unknown> {
    const {runSuite} = await import('../runner/run-suite.js')
    const {ProgressView, progressStyle} = await import('../runner/progress.js')
    const {judgeRun} = await import('../app/judge.js')
    const {renderGateTable} = await import('../report/markdown.js')
    const {BadInputError} = await import('../shared/diagnostics.js')
    const config = await this.loadBenchConfig()
    const faultsFlag = this.flags['inject-faults']
    // A number between 0 and 1, written out: "" or " " is not 0.
    const faults = faultsFlag === undefined ? undefined : /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(faultsFlag) ? Number(faultsFlag) : Number.NaN
    if (faults !== undefined && !(faults >= 0 && faults <= 1)) {
      throw new BadInputError([{file: '--inject-faults', code: 'config', message: `expected a share between 0 and 1, got "${this.flags['inject-faults']}"`}])
    }
    // Written straight to stderr: oclif mutes logToStderr under --json, and these must always be seen.
    const warn = (text: string) => process.stderr.write(text + '\n')
    const view = new ProgressView(this.flags['dry-run'] ? 'silent' : progressStyle(this.jsonEnabled()))
    const controller = new AbortController()
    const interrupt = () => {
      if (controller.signal.aborted) {
        view.abort()
        process.exit(130)
      }
      const text = 'interrupted: aborting the runs in flight (Ctrl-C again to force quit)'
      // The live view holds the terminal until it ends (stderr is shown then): it shows the notice at once.
      view.note(text)
      warn('\n' + text)
      controller.abort()
    }
    process.on('SIGINT', interrupt)
    process.on('SIGTERM', interrupt)
    // Loading, the modes' preflight and the fixtures take seconds before the first run: say so.
    if (!this.jsonEnabled() && !this.flags['dry-run']) this.log(`preparing ${this.args.suite}: loading the suite, checking the modes, ensuring the fixtures`)
    let summary
    try {
      summary = await runSuite(
        config,
        {
          suitePath: this.args.suite,
          modes: this.flags.mode,
          scenarios: this.flags.scenario,
          set: this.flags.set,
          repetitions: this.flags.repetitions,
          concurrency: this.flags.concurrency,
          seed: this.flags.seed,
          runId: this.flags['run-id'],
          model: this.flags.model,
          fixtureManifest: this.flags['fixture-manifest'],
          dryRun: this.flags['dry-run'],
          faultRate: faults,
          signal: controller.signal,
          onWarning: (text) => warn(`warning: ${text}`),
        },
        view.onEvent,
      )
    } finally {
      await view.close()
      process.off('SIGINT', interrupt)
      process.off('SIGTERM', interrupt)
    }
    for (const {mode, reason} of summary.unavailable) warn(`mode ${mode} left out: ${reason}`)
    if (this.flags['dry-run']) {
      if (!this.jsonEnabled()) {
        this.log(`run ${summary.run_id}: ${summary.runs.length} runs (${summary.skipped.length} already recorded), seed ${summary.seed}, modes ${summary.modes.join(', ')}`)
        for (const run of summary.runs) this.log(`  ${run.key}`)
      }
      return summary
    }
    if (summary.interrupted) {
      warn(`stopped: ${summary.completed} run(s) recorded in ${summary.results_file}. Resume with:\n  ghx-bench run ${this.args.suite} --run-id ${summary.run_id}`)
      if (this.jsonEnabled()) this.logJson({type: 'summary', ...summary, gate: null, gate_skipped: 'interrupted', files: []})
      this.exit(130)
    }
    const judgement = this.flags['no-report'] ? null : await judgeRun(config, summary)
    if (!this.jsonEnabled()) {
      this.log(`run ${summary.run_id}: ${summary.completed} run(s) recorded in ${summary.results_file}`)
      for (const [mode, c] of Object.entries(summary.by_mode)) this.log(`  ${mode}: pass ${c.pass}, fail ${c.fail}, timeout ${c.timeout}, infra error ${c.infra_error}`)
      if (judgement?.gate) this.log(renderGateTable(judgement.gate))
      if (judgement?.gate_skipped) this.log(`gate: skipped (${judgement.gate_skipped})`)
      for (const file of judgement?.files ?? []) this.log(`wrote ${file}`)
    }
    const result = {...summary, gate: judgement?.gate ?? null, gate_skipped: judgement?.gate_skipped ?? null, files: judgement?.files ?? []}
    // The last JSON line, after the progress events.
    if (this.jsonEnabled()) this.logJson({type: 'summary', ...result})
    this.exit(judgement?.exit_code ?? 0)
    return result
  }
}
