import {Flags} from '@oclif/core'
import {BaseCommand} from '../cli/base-command.js'
import {reportOptions, rowFlags} from '../cli/report-flags.js'
import type {GateDocument} from '../report/report-schema.js'

export default class GateCommand extends BaseCommand<typeof GateCommand> {
  static override summary = 'Judge a candidate mode against the baseline with a profile’s thresholds'
  static override description =
    'The dual gate: reliability (success-rate non-inferiority, output validity, runner failures, timeouts, retries) on all candidate rows and efficiency (coverage, active tokens, wall latency, tool calls, worst-scenario cost) on the stable sample. Exit 0 pass, 1 fail, 3 inconclusive (an interval straddles a threshold under --decision ci), 2 bad input. Writes gate.md and gate.json.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> --profile verify_pr',
    '<%= config.bin %> <%= command.id %> --profile verify_release --candidate mcp --decision point',
    '<%= config.bin %> <%= command.id %> --input ../shared/datasets/ghx-router-codex-5.3 --decision point',
  ]
  static override flags = {
    ...rowFlags,
    profile: Flags.string({char: 'p', description: 'profile name (default: gate.profile of the config, verify_pr)'}),
    candidate: Flags.string({description: 'candidate mode (default: gate.candidate of the config, ghx)'}),
    model: Flags.string({description: 'provider/model whose thresholds apply (default: the rows’ model)'}),
    decision: Flags.option({options: ['ci', 'point'] as const, description: 'ci: inconclusive when an interval straddles; point: the point value decides'})(),
    'allow-mixed': Flags.boolean({description: 'gate rows of different models or scenario sets anyway', default: false}),
  }

  async run(): Promise<GateDocument> {
    const {produceGate} = await import('../report/produce.js')
    const {renderGateTable} = await import('../report/markdown.js')
    const config = await this.loadBenchConfig()
    const {gate, files} = await produceGate(config, {
      ...reportOptions(this.flags),
      profile: this.flags.profile,
      candidate: this.flags.candidate,
      model: this.flags.model,
      decision: this.flags.decision,
      allowMixed: this.flags['allow-mixed'],
    })
    if (this.jsonEnabled()) this.logJson(gate)
    else {
      for (const warning of gate.warnings) this.logToStderr(`warning: ${warning}`)
      this.log(renderGateTable(gate))
      for (const file of files) this.log(`wrote ${file}`)
    }
    this.exit(gate.exit_code)
    return gate
  }
}
