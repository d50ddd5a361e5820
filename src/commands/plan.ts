import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../cli/base-command.js'
import {DEFAULT_RESAMPLES, MAX_DATASETS, MAX_RESAMPLES, MAX_SEED} from '../cli/report-flags.js'

export default class PlanCommand extends BaseCommand<typeof PlanCommand> {
  static override summary = 'Size a suite’s gate: what it can detect, and the smallest design for 80% whole-gate power'
  static override description =
    'From a previous run’s rows (--input or --run-id) or the simulator’s defaults (spreads measured on real suites), says what the suite as written can detect and certify under its profile, the fewest scenarios × repetitions whose whole gate passes a candidate at --target times every efficiency threshold 80% of the time (by formula), and confirms the suite’s own design by simulation: P(pass) at a fixed size and under run --until-decided, with the runs it needs. Exit 0.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> suites/verify-pr.yml',
    '<%= config.bin %> <%= command.id %> suites/verify-pr.yml --input results/2026-03-01.jsonl --target 1.5',
    '<%= config.bin %> <%= command.id %> suites/verify-release.yml --margin 3 --budget 400 --datasets 0',
  ]
  static override args = {suite: Args.string({description: 'the suite file', required: true})}
  static override flags = {
    input: Flags.string({
      char: 'i',
      multiple: true,
      description: 'a previous run’s results (file or folder) to measure spreads and rates from; repeatable',
    }),
    'run-id': Flags.string({description: 'a previous run’s id in results_dir, to measure from'}),
    target: Flags.string({
      description: 'the effect planned for, as a multiple of every efficiency threshold (default 2)',
    }),
    margin: Flags.string({
      description:
        'a success margin in points: how many repetitions at the suite’s scenarios give 80% whole-gate power with it',
    }),
    budget: Flags.integer({
      min: 1,
      description: 'runs a mode you can afford: the tightest success margin with 80% whole-gate power at that many',
    }),
    datasets: Flags.integer({
      min: 0,
      max: MAX_DATASETS,
      description: 'seeded datasets of the confirming simulation (default 100; 0 leaves it out)',
    }),
    seed: Flags.integer({min: 0, max: MAX_SEED, description: 'seed of the datasets (default 1)'}),
    resamples: Flags.integer({
      min: 100,
      max: MAX_RESAMPLES,
      description: `bootstrap resamples per interval (default ${DEFAULT_RESAMPLES})`,
    }),
  }

  async run(): Promise<unknown> {
    const {planSuite} = await import('../app/plan.js')
    const {nonNegative} = await import('../app/simulate.js')
    const {flags, args} = this
    const {markdown, ...plan} = await planSuite({
      ...this.project(),
      suitePath: args.suite,
      inputs: flags.input,
      runId: flags['run-id'],
      target: flags.target === undefined ? undefined : nonNegative('--target', flags.target),
      margin: flags.margin === undefined ? undefined : nonNegative('--margin', flags.margin),
      budget: flags.budget,
      datasets: flags.datasets,
      seed: flags.seed,
      resamples: flags.resamples,
      onProgress: this.jsonEnabled() ? undefined : (text) => this.logToStderr(text),
    })
    this.log(markdown)
    return plan
  }
}
