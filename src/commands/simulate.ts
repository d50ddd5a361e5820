import {Flags} from '@oclif/core'
import {BaseCommand} from '../cli/base-command.js'
import {outputFolderFlag} from '../cli/path-flags.js'
import {DEFAULT_RESAMPLES, MAX_DATASETS, MAX_RESAMPLES, MAX_SEED} from '../cli/report-flags.js'

export default class SimulateCommand extends BaseCommand<typeof SimulateCommand> {
  static override summary = 'Measure how often a profile’s gate decides right, on seeded synthetic data'
  static override description =
    'Generates seeded synthetic datasets with a known true effect (at 0, at each threshold and at twice it), runs them through the real comparison and gate, and prints P(pass / fail / inconclusive) per check: the false-pass rate, the power and the minimum detectable effect of each fixed design, and the power and run savings of run --until-decided’s sequential design. Exit 0.'
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --profile verify_release --scenarios 6 --repetitions 5,10 --datasets 400',
    '<%= config.bin %> <%= command.id %> --looks 5,10,20 --spending obrien-fleming --out reports/simulate',
  ]
  static override flags = {
    profile: Flags.string({
      char: 'p',
      description: 'profile whose thresholds are simulated (sets gate.profile; default verify_pr)',
    }),
    model: Flags.string({description: 'provider/model whose override of the profile applies'}),
    decision: Flags.option({
      options: ['ci', 'point'] as const,
      description: 'the decision rule simulated (default ci)',
    })(),
    estimand: Flags.option({
      options: ['suite', 'population'] as const,
      description: 'the estimand simulated (default: the profile’s); suite centres the scenarios’ effects on the point',
    })(),
    scenarios: Flags.string({
      description: 'scenario counts, comma-separated (default 4,6: the predecessors’ suites and the verify-pr suite)',
    }),
    repetitions: Flags.string({
      description: 'repetitions per cell of the fixed designs, comma-separated (default 5,20)',
    }),
    datasets: Flags.integer({min: 1, max: MAX_DATASETS, description: 'seeded datasets per cell (default 200)'}),
    'threshold-datasets': Flags.integer({
      min: 1,
      max: MAX_DATASETS,
      description: 'seeded datasets at the threshold, where false passes are counted (default 4 × --datasets)',
    }),
    seed: Flags.integer({min: 0, max: MAX_SEED, description: 'seed of the datasets (default 1)'}),
    resamples: Flags.integer({
      min: 100,
      max: MAX_RESAMPLES,
      description: `bootstrap resamples per interval (default ${DEFAULT_RESAMPLES}, as the gate's)`,
    }),
    looks: Flags.string({
      description:
        'run --until-decided’s looks, repetitions per cell (default 5,8,10,12,14,16,18,20; "none" leaves the sequential design out)',
    }),
    spending: Flags.option({
      options: ['power', 'pocock', 'obrien-fleming'] as const,
      description: 'α-spending function of the looks (default power: α·t^1.5)',
    })(),
    'scenario-spread': Flags.string({
      description: 'SD of the effect between scenarios, log scale (default 0.3, what real suites show)',
    }),
    cv: Flags.string({
      description:
        'run-to-run coefficient of variation of active tokens and agent time in % (default 30; cost is priced from the tokens)',
    }),
    'success-correlation': Flags.string({
      description:
        'correlation of the two modes’ success within an iteration block, latent normal scale, 0 to 1 (default 0.3)',
    }),
    out: outputFolderFlag({char: 'o', description: 'folder for simulate.md and simulate.json'}),
  }

  async run(): Promise<unknown> {
    const {simulateGate, integerList, looksOf, nonNegative, fraction} = await import('../app/simulate.js')
    const {flags} = this
    const spread =
      flags['scenario-spread'] === undefined ? undefined : nonNegative('--scenario-spread', flags['scenario-spread'])
    const cv = flags.cv === undefined ? undefined : nonNegative('--cv', flags.cv)
    const correlation =
      flags['success-correlation'] === undefined
        ? undefined
        : fraction('--success-correlation', flags['success-correlation'])
    const result = await simulateGate({
      ...this.project({gate: {profile: flags.profile}}),
      model: flags.model,
      decision: flags.decision,
      estimand: flags.estimand,
      scenarios: flags.scenarios === undefined ? undefined : integerList('--scenarios', flags.scenarios),
      repetitions: flags.repetitions === undefined ? undefined : integerList('--repetitions', flags.repetitions),
      datasets: flags.datasets,
      thresholdDatasets: flags['threshold-datasets'],
      seed: flags.seed,
      resamples: flags.resamples,
      looks: flags.looks === undefined ? undefined : looksOf(flags.looks),
      spending: flags.spending,
      dataModel: {
        ...(spread === undefined ? {} : {scenario_spread: spread}),
        ...(cv === undefined ? {} : {cv_pct: cv}),
        ...(correlation === undefined ? {} : {success_correlation: correlation}),
      },
      out: flags.out,
      onProgress: this.jsonEnabled() ? undefined : (text) => this.logToStderr(text),
    })
    // Under --json oclif prints the returned report (and silences this.log).
    this.log(result.markdown)
    for (const file of result.files) this.log(`wrote ${file}`)
    return result.report
  }
}
