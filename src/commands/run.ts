import {Args, Flags} from '@oclif/core'
import {BaseCommand, EXIT_INCONCLUSIVE} from '../cli/base-command.js'
import {outputFileFlag} from '../cli/path-flags.js'
import {suiteNumberFlags} from '../cli/suite-flags.js'

export default class RunCommand extends BaseCommand<typeof RunCommand> {
  static override jsonLines = true
  static override summary = 'Run a suite: every scenario under every mode, repeated, checked, recorded, judged'
  static override description =
    'Loads the suite and its scenarios, asks each provider whether it can run here (one that cannot is bad input, with its reason), preflights each mode once (a mode that cannot run here is reported and left out, unless the run’s gate needs it as its baseline or candidate: then the run, or --dry-run, stops before its first run with exit 2, naming the mode, why and the fix: install it, or pass --no-gate), ensures the fixtures, plans scenario x mode x provider x iteration in a seeded shuffled order, and runs each: reset fixtures, bind, open the mode, let the provider drive the model, check the envelope and the checkpoints, append one row (fsynced) to results_dir/<run-id>.jsonl, with its trace under results_dir/<run-id>/traces. Then writes the report (summary.md, summary.json, summary.html, junit.xml) and, when the suite names a profile, the gate, and ends with the verdict line every report says too: the gate’s verdict (0 pass, 1 fail, 3 inconclusive, also when the gate cannot be computed from the rows); with no gate (or --no-gate), 1 when any run failed, else 0; 3 when no run was recorded, or when --budget left blocks out (incomplete, never failed). 2 bad input or usage; 4 internal error; 130 interrupted; --no-report records rows only and exits 0. Re-run with the same --run-id to resume: recorded rows are skipped.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> suites/full-seeded.yml',
    '<%= config.bin %> <%= command.id %> suites/smoke.yml --mode agent_direct --repetitions 1',
    '<%= config.bin %> <%= command.id %> suites/full-seeded.yml --run-id 2026-11-22T10-00-00-1a2b3c4d',
    '<%= config.bin %> <%= command.id %> suites/verify-pr.yml --dry-run',
    '<%= config.bin %> <%= command.id %> suites/verify-pr.yml --no-gate',
    '<%= config.bin %> <%= command.id %> suites/full-seeded.yml --budget tokens=2000000,time=30m',
    '<%= config.bin %> <%= command.id %> suites/full-seeded.yml --provider agent-loop,claude-code',
    '<%= config.bin %> <%= command.id %> suites/full-seeded.yml --run-id nightly-42 --shard 2/4',
  ]
  static override args = {
    suite: Args.string({description: 'the suite YAML file', required: true}),
  }
  static override flags = {
    mode: Flags.string({char: 'm', multiple: true, description: 'run only these of the suite’s modes (repeatable)'}),
    provider: Flags.string({
      multiple: true,
      description:
        'play every run under these providers (repeatable or comma-separated): the suite’s own, with their options, or any installed provider in their place',
    }),
    scenario: Flags.string({char: 's', multiple: true, description: 'run only these scenario ids (repeatable)'}),
    set: Flags.string({description: 'run this scenario set instead of the suite’s selection'}),
    ...suiteNumberFlags,
    'run-id': Flags.string({
      description:
        'the run id (letters, digits, . _ - : + @ =); an existing one resumes, skipping recorded rows; one process per run id',
    }),
    model: Flags.string({
      description:
        'oracle, noop, or a model of an OpenAI-compatible endpoint (sets model; default: the suite’s, then the config’s)',
    }),
    'fixture-manifest': outputFileFlag({
      description:
        'fixture manifest to use (sets fixtures.manifest; default fixtures/latest.json); seeded when missing',
    }),
    shard: Flags.string({
      description:
        'run shard i of N (as 2/4): this machine’s paired blocks (scenario x iteration, all modes) of the plan, recorded as results_dir/<run-id>.shard-<i>-of-<N>.jsonl with a header; no report or gate (ghx-bench merge judges the shards together). Same --run-id and --shard resumes the shard',
    }),
    'shard-weights': Flags.string({
      description: 'with --shard: balance the shards by the blocks’ wall time in this previous run’s results file',
      dependsOn: ['shard'],
    }),
    'dry-run': Flags.boolean({
      description:
        'print the plan and what it is expected to spend (tokens, cost, wall time: each cell’s median in the newest runs of the suite and model in results_dir; on the embedded default, the oracle’s recorded counts for cells none holds), and stop',
      default: false,
    }),
    'inject-faults': Flags.string({
      description:
        'reliability testing: this share (0..1) of the runs’ own sandbox and scripted-model requests fail with 5xx (never the harness’s seeding or checkpoints)',
    }),
    'no-report': Flags.boolean({description: 'record rows only: no report, no gate', default: false}),
    'no-gate': Flags.boolean({
      description:
        'record the rows and write the report, but judge no gate: the runs decide the exit code (1 when any failed, else 0), and a mode of the suite’s gate that cannot run here is left out like any other instead of stopping the run',
      default: false,
    }),
    'until-decided': Flags.boolean({
      description:
        'add repetitions in planned looks until the suite’s gate is decided (or a budget is spent), keeping its error rate',
      default: false,
    }),
    looks: Flags.string({
      description: 'with --until-decided: repetitions per cell at each look (default 5,8,10,12,14,16,18,20)',
      dependsOn: ['until-decided'],
    }),
    budget: Flags.string({
      multiple: true,
      description:
        'runs=N, tokens=N, cost=USD, time=DURATION (90s, 15m, 1h30m), alone or comma-separated: stop starting paired blocks when the next would overrun it by the forecast (finishing the blocks started; the rest recorded as not run, the run incomplete: exit 3); with --until-decided, stop before a look would overrun it',
    }),
  }

  async run(): Promise<unknown> {
    const {runProjectSuite, parseBudgetFlag, parseShardSpec} = await import('../app/run.js')
    const {runUntilDecided} = await import('../app/run-until-decided.js')
    const {ProgressView, progressStyle} = await import('../cli/progress.js')
    const {forecastLines, renderGateTable, verdictLine} = await import('../cli/render.js')
    const {flags} = this
    const faultsFlag = flags['inject-faults']
    // A number between 0 and 1, written out: "" or " " is not 0.
    const faults =
      faultsFlag === undefined
        ? undefined
        : /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(faultsFlag)
          ? Number(faultsFlag)
          : Number.NaN
    if (faults !== undefined && !(faults >= 0 && faults <= 1))
      this.badFlag('--inject-faults', `expected a share between 0 and 1, got "${faultsFlag}"`)
    // A bad --shard or --budget is said before anything is loaded.
    if (flags.shard !== undefined) parseShardSpec(flags.shard)
    parseBudgetFlag(flags.budget)
    // Written straight to stderr: oclif mutes logToStderr under --json, and these must always be seen.
    const warn = (text: string) => process.stderr.write(text + '\n')
    const view = new ProgressView(flags['dry-run'] ? 'silent' : progressStyle(this.jsonEnabled()))
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
    if (!this.jsonEnabled() && !flags['dry-run'])
      this.log(`preparing ${this.args.suite}: loading the suite, checking the modes, ensuring the fixtures`)
    let result
    try {
      result = await (flags['until-decided'] ? runUntilDecided : runProjectSuite)(
        {
          untilDecided: {looks: flags.looks},
          budget: flags.budget,
          ...this.project({model: flags.model, fixtures: {manifest: flags['fixture-manifest']}}),
          suitePath: this.args.suite,
          modes: flags.mode,
          providers: flags.provider?.flatMap((value) => value.split(',')).map((name) => name.trim()),
          scenarios: flags.scenario,
          set: flags.set,
          repetitions: flags.repetitions,
          concurrency: flags.concurrency,
          seed: flags.seed,
          runId: flags['run-id'],
          shard: flags.shard,
          shardWeights: flags['shard-weights'],
          dryRun: flags['dry-run'],
          noReport: flags['no-report'],
          noGate: flags['no-gate'],
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
    const {summary, judgement} = result
    for (const {mode, reason} of summary.unavailable) warn(`mode ${mode} left out: ${reason}`)
    if (flags['dry-run']) {
      if (!this.jsonEnabled()) {
        this.log(
          `run ${summary.run_id}: ${summary.runs.length} runs (${summary.skipped.length} already recorded), seed ${summary.seed}, modes ${summary.modes.join(', ')}, providers ${summary.providers.join(', ')}`,
        )
        for (const run of summary.runs) this.log(`  ${run.key}`)
        if (summary.forecast) for (const line of forecastLines(summary, summary.forecast)) this.log(line)
      }
      return summary
    }
    if (summary.interrupted) {
      warn(
        `stopped: ${summary.completed} run(s) recorded in ${summary.results_file}. Resume with:\n  ghx-bench run ${this.args.suite} --run-id ${summary.run_id}${flags.shard ? ` --shard ${flags.shard}` : ''}`,
      )
      if (this.jsonEnabled()) this.logJson({type: 'summary', ...summary, gate: null, verdict: null, files: []})
      this.exit(130)
    }
    if (summary.stopped) {
      // Part of the plan is not run: inconclusive, never a verdict on the part.
      warn(
        `${summary.stopped}\n${summary.completed} run(s) recorded in ${summary.results_file}. Resume with:\n  ghx-bench run ${this.args.suite} --run-id ${summary.run_id}${flags.shard ? ` --shard ${flags.shard}` : ''}`,
      )
      if (this.jsonEnabled()) this.logJson({type: 'summary', ...summary, gate: null, verdict: null, files: []})
      this.exit(EXIT_INCONCLUSIVE)
    }
    if (!this.jsonEnabled()) {
      this.log(`run ${summary.run_id}: ${summary.completed} run(s) recorded in ${summary.results_file}`)
      // With several providers each provider's counts are shown apart, as the report and the gate keep them.
      const counts =
        summary.providers.length > 1
          ? Object.entries(summary.by_provider).flatMap(([provider, byMode]) =>
              Object.entries(byMode).map(([mode, c]) => [`${provider} ${mode}`, c] as const),
            )
          : Object.entries(summary.by_mode)
      for (const [what, c] of counts)
        this.log(`  ${what}: pass ${c.pass}, fail ${c.fail}, timeout ${c.timeout}, infra error ${c.infra_error}`)
      if (summary.not_run)
        this.log(
          `budget ${summary.not_run.budget}: ${summary.not_run.blocks.length} of ${summary.not_run.planned_blocks} blocks not run (${summary.not_run.detail}); resume with the same --run-id to run them`,
        )
      // The verdict is the last thing said (with --no-report there is none: rows only).
      if (flags.shard) this.log(`shard ${flags.shard}: merge the shards’ results files with ghx-bench merge`)
      for (const file of judgement?.files ?? []) this.log(`wrote ${file}`)
      if (judgement?.gate) this.log(renderGateTable(judgement.gate))
      if (judgement && flags['no-gate']) this.log('--no-gate: no gate judged; the runs decide')
      if (judgement) this.log(verdictLine(judgement.verdict))
    }
    const output = {
      ...summary,
      gate: judgement?.gate ?? null,
      verdict: judgement?.verdict ?? null,
      files: judgement?.files ?? [],
    }
    // The last JSON line, after the progress events.
    if (this.jsonEnabled()) this.logJson({type: 'summary', ...output})
    this.exit(judgement?.verdict.exit_code ?? 0)
    return output
  }
}
