import {Flags} from '@oclif/core'
import {BaseCommand} from '../cli/base-command.js'
import type {FlakesResult} from '../app/flakes.js'

export default class Flakes extends BaseCommand<typeof Flakes> {
  static override summary = 'The flake ledger: which scenarios flip between pass and fail across stored runs'
  static override description =
    'Reads every run in results_dir whose comparability key (run.json: ghx-bench version, catalogue, suite, scenarios, repetitions, modes and their tools, providers, plugins, model, target, profile, seed) is the newest keyed run’s (of --suite, if given) and whose rows are its whole plan, names each run it left out and why (another key; incomplete, naming what it lacks), and lists, per scenario × mode × provider: its runs, pass rate, pass^k (the chance a whole run of it passes), flip rate (the share of consecutive outcomes, oldest first, that differ) and the first and last run in which it failed. A cell with at least --min-runs runs, two flips or more (one is a change, not noise) and a flip rate at or above --flip-threshold is proposed for quarantine. Steady cells (always passing, or always failing: broken, not flaky) are counted, not listed, unless --all.'
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --suite verify-pr --flip-threshold 0.3',
    '<%= config.bin %> <%= command.id %> --all --json',
  ]
  static override flags = {
    suite: Flags.string({description: 'read the runs of this suite (default: the newest run’s)'}),
    'flip-threshold': Flags.string({
      description: 'propose quarantine from this flip rate (0 to 1)',
      default: '0.2',
    }),
    'min-runs': Flags.integer({
      description: 'propose quarantine only with at least this many runs',
      min: 1,
      default: 3,
    }),
    all: Flags.boolean({description: 'list steady cells too', default: false}),
  }

  async run(): Promise<FlakesResult> {
    const threshold = Number(this.flags['flip-threshold'])
    if (!(threshold >= 0 && threshold <= 1)) this.badFlag('--flip-threshold', 'must be a number from 0 to 1')
    const {flakesProject} = await import('../app/flakes.js')
    const ledger = await flakesProject({
      ...this.project(),
      suite: this.flags.suite,
      flipThreshold: threshold,
      minRuns: this.flags['min-runs'],
    })
    const flipping = ledger.entries.filter((e) => e.flip_rate !== null && e.flip_rate > 0)
    const listed = this.flags.all ? ledger.entries : flipping
    this.log(
      `${ledger.runs.length} run(s) of one comparability key (suite ${ledger.group.suite}, model ${ledger.group.model}): ${ledger.entries.length} scenario × mode × provider cells, ${flipping.length} flipping`,
    )
    for (const run of ledger.left_out) this.log(`  left out: run ${run.run_id}: ${run.reason}`)
    for (const e of listed) {
      const pct = (value: number) => `${Math.round(value * 100)}%`
      this.log(
        `  ${e.quarantined ? `QUARANTINED until ${e.quarantined.expires} ` : e.proposed_quarantine ? 'QUARANTINE? ' : ''}${e.scenario_id} ${e.mode}${e.provider ? ` (${e.provider})` : ''}: ${e.runs} run(s), ${e.outcomes} outcome(s), pass ${pct(e.pass_rate)}, pass^${e.pass_hat_k.k} ${Number.isNaN(e.pass_hat_k.value) ? '–' : e.pass_hat_k.value.toFixed(2)}, flips ${e.flip_rate === null ? '–' : pct(e.flip_rate)}${e.last_failing ? `, failed first in ${e.first_failing}, last in ${e.last_failing}` : ''}`,
      )
    }
    const proposed = ledger.entries.filter((e) => e.proposed_quarantine && !e.quarantined).length
    if (proposed > 0)
      this.log(
        `${proposed} proposed for quarantine (flip rate >= ${ledger.options.flip_threshold}, 2 flips or more, >= ${ledger.options.min_runs} runs)`,
      )
    return ledger
  }
}
