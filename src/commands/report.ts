import {Flags} from '@oclif/core'
import {BaseCommand} from '../cli/base-command.js'
import {rowFlags, rowOptions} from '../cli/report-flags.js'
import type {Report, ReportResult} from '../app/report.js'

export default class ReportCommand extends BaseCommand<typeof ReportCommand> {
  static override summary = 'Summarise result rows per mode and scenario, with deltas against the baseline'
  static override description =
    'Reads rows (the newest run by default), and writes summary.md and summary.json (rows of several providers: a report each, never mixed): per mode the rates, latency, tokens, tool calls and cost; per scenario and mode the same medians; and each mode against the baseline with seeded bootstrap intervals. Rows of ghx-router and ghx eval import as they are. Rows that are part of a run (compared with its plan, run.json, or a shard’s header: a shard alone, a run cut short, rows missing) are reported, the missing runs named, and exit 3.'
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --run-id 2026-11-22T10-00-00Z',
    '<%= config.bin %> <%= command.id %> --input ../shared/datasets/ghx-router-codex-5.3 --format md',
    '<%= config.bin %> <%= command.id %> --format md,json,html   # also summary.html: charts, gate, runs and their traces, in one file',
    '<%= config.bin %> <%= command.id %> --format md,json,junit   # also junit.xml: one testcase per scenario x mode',
    '<%= config.bin %> <%= command.id %> --compare 2026-11-21T10-00-00Z --fail-on-regression   # or a summary.json kept as a baseline',
  ]
  static override flags = {
    ...rowFlags,
    compare: Flags.string({
      description:
        'also compare with a previous run: its run id, its results file or folder, or a summary.json (a blessed baseline); writes compare.md and compare.json',
    }),
    'fail-on-regression': Flags.boolean({
      description: 'with --compare: exit 1 when anything regressed beyond tolerance',
      dependsOn: ['compare'],
    }),
    tolerance: Flags.string({
      description:
        'with --compare: % a median (tokens, latency, tool calls) may rise, and points a gate reduction may fall, before it is a regression',
      default: '10',
    }),
    'allow-incomparable': Flags.boolean({
      description:
        'with --compare: compare runs whose comparability keys (run.json) differ; the differences are listed in compare.md and compare.json. Without it such runs are refused (exit 2), each differing field named',
      dependsOn: ['compare'],
    }),
    'rate-tolerance': Flags.string({
      description: 'with --compare: points a success rate may fall, and a gate rate worsen, before it is a regression',
      default: '5',
    }),
  }

  async run(): Promise<Report> {
    const {reportProject} = await import('../app/report.js')
    const {flags} = this
    const tolerance = (flag: 'tolerance' | 'rate-tolerance'): number => {
      const value = Number(flags[flag])
      if (!Number.isFinite(value) || value < 0 || flags[flag].trim() === '')
        this.badFlag(`--${flag}`, `must be a number >= 0, not "${flags[flag]}"`)
      return value
    }
    const compare = flags.compare
      ? {
          against: flags.compare,
          tolerances: {relative_pct: tolerance('tolerance'), rate_points: tolerance('rate-tolerance')},
          allowIncomparable: flags['allow-incomparable'],
        }
      : undefined
    const {report, files, comparison, incomplete} = await reportProject({
      ...this.project({gate: {baseline: flags.baseline}}),
      ...rowOptions(flags),
      compare,
    })
    for (const warning of report.warnings) this.logToStderr(`warning: ${warning}`)
    const modes = (part: Pick<Report, 'modes'>) =>
      Object.entries(part.modes)
        .map(([mode, m]) => `${mode}: ${m.runs} runs, success ${m.success_rate?.toFixed(1) ?? '–'}%`)
        .join('; ')
    // Rows of several providers are reported apart: a line each.
    if (report.providers?.length)
      for (const part of report.providers)
        this.log(`provider ${part.provider ?? '(none)'}: ${part.rows} rows: ${modes(part)}`)
    else this.log(`${report.rows} rows: ${modes(report)}`)
    for (const file of files) this.log(`wrote ${file}`)
    if (comparison && compare) this.printComparison(comparison, compare.tolerances)
    // Rows that are part of a run are reported, never passed as the run: said last, exit 3.
    if (incomplete) {
      if (this.jsonEnabled()) this.logJson(report)
      this.logToStderr(incomplete)
      this.exit(3)
    }
    return report
  }

  /** --compare: this run against a previous one; exit 1 on a regression only under --fail-on-regression. */
  private printComparison(
    {comparison, files}: NonNullable<ReportResult['comparison']>,
    tolerances: {relative_pct: number; rate_points: number},
  ): void {
    for (const warning of comparison.warnings) this.logToStderr(`warning: ${warning}`)
    this.log(
      `against ${comparison.previous.source}: ${comparison.regressions === 0 ? 'no regression' : `${comparison.regressions} regression(s)`} beyond tolerance (${tolerances.relative_pct}% / ${tolerances.rate_points} points)`,
    )
    const fmt = (value: number | null): string => (value === null ? '–' : String(Math.round(value * 10) / 10))
    const flagged = [
      ...comparison.modes.flatMap((m) =>
        m.metrics.filter((x) => x.regressed).map((x) => `${m.mode}: ${x.name} ${fmt(x.previous)} -> ${fmt(x.current)}`),
      ),
      ...comparison.checks
        .filter((c) => c.regressed)
        .map((c) => `${c.candidate} vs ${c.baseline}: ${c.name} ${fmt(c.previous)} -> ${fmt(c.current)}`),
      ...comparison.scenarios.flatMap((s) =>
        s.metrics
          .filter((x) => x.regressed)
          .map((x) => `${s.scenario_id} ${s.mode}: ${x.name} ${fmt(x.previous)} -> ${fmt(x.current)}`),
      ),
    ]
    for (const line of flagged.slice(0, 20)) this.log(`  regressed: ${line}`)
    if (flagged.length > 20) this.log(`  … and ${flagged.length - 20} more (see compare.md)`)
    const flips = comparison.run_flips
    if (flips) {
      const named = (list: typeof flips.significant) =>
        list.length === 0 ? 'none' : list.map((p) => `${p.scenario_id} ${p.mode}`).join(', ')
      this.log(
        `run against run, paired by iteration: PASS->FAIL ${named(flips.pass_to_fail)}; FAIL->PASS ${named(flips.fail_to_pass)}; significant after Holm: ${named(flips.significant)}`,
      )
    }
    for (const file of files) this.log(`wrote ${file}`)
    if (this.flags['fail-on-regression'] && comparison.regressions > 0) this.exit(1)
  }
}
