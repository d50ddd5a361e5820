import {Flags} from '@oclif/core'
import {BaseCommand} from '../cli/base-command.js'
import {rowFlags, rowOptions} from '../cli/report-flags.js'
import type {GateDocument, Verdict} from '../app/report.js'

export default class GateCommand extends BaseCommand<typeof GateCommand> {
  static override summary = 'Judge a candidate mode against the baseline with a profile’s thresholds'
  static override description =
    'The dual gate: reliability (success-rate non-inferiority, output validity, runner failures, timeouts, retries; Wilson and Newcombe intervals) on all candidate rows and efficiency (coverage, active tokens, agent time, tool calls, cost; hierarchical bootstrap over scenarios and runs) on the stable sample, each with its MDE. Rows of several providers are gated apart (each provider’s candidate against its own baseline), the verdict the worst of theirs. With no flags it judges the newest run as its suite defined the gate (the profile, baseline and candidate recorded with the run); flags, then that, then the configuration. Exit 0 pass, 1 fail, 3 inconclusive (under --decision ci an interval straddles a threshold, or cells have fewer than 3 runs; or a mode of the gate the run or the configuration names has no rows, as `run` says it), 2 bad input (a mode named by --baseline or --candidate has no rows). Writes gate.md and gate.json; the verdict line is the last line.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> --profile verify_pr',
    '<%= config.bin %> <%= command.id %> --profile verify_release --candidate mcp --decision point',
    '<%= config.bin %> <%= command.id %> --input ../shared/datasets/ghx-router-codex-5.3 --decision point',
  ]
  static override flags = {
    ...rowFlags,
    profile: Flags.string({char: 'p', description: 'profile name (sets gate.profile; default verify_pr)'}),
    candidate: Flags.string({description: 'candidate mode (sets gate.candidate; default ghx)'}),
    model: Flags.string({description: 'provider/model whose thresholds apply (default: the rows’ model)'}),
    decision: Flags.option({
      options: ['ci', 'point'] as const,
      description: 'ci: inconclusive when an interval straddles; point: the point value decides',
    })(),
    'allow-mixed': Flags.boolean({
      description: 'gate rows of different models or scenario sets anyway',
      default: false,
    }),
  }

  async run(): Promise<GateDocument | Verdict> {
    const {gateProject} = await import('../app/report.js')
    const {renderGateTable, verdictLine} = await import('../cli/render.js')
    const {flags} = this
    const {gate, verdict, files} = await gateProject({
      ...this.project({gate: {profile: flags.profile, baseline: flags.baseline, candidate: flags.candidate}}),
      ...rowOptions(flags),
      model: this.flags.model,
      decision: this.flags.decision,
      allowMixed: this.flags['allow-mixed'],
    })
    // The gate's document, or, when it cannot be computed, the verdict saying why.
    const document = gate ?? verdict
    if (this.jsonEnabled()) this.logJson(document)
    else {
      for (const warning of gate?.warnings ?? []) this.logToStderr(`warning: ${warning}`)
      if (gate) this.log(renderGateTable(gate))
      for (const file of files) this.log(`wrote ${file}`)
      this.log(verdictLine(verdict))
    }
    this.exit(verdict.exit_code)
    return document
  }
}
