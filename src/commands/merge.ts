import {Args} from '@oclif/core'
import {BaseCommand} from '../cli/base-command.js'
import type {MergeResult} from '../app/merge.js'

export default class MergeCommand extends BaseCommand<typeof MergeCommand> {
  static override summary = 'Merge the shards of a run (run --shard i/N) into one run, then report and gate it'
  static override description =
    'Reads each shard’s results file (or every <run-id>.shard-<i>-of-<N>.jsonl in the folders given) and its header. Refuses shards that cannot be one run: another shard format, another run id, another comparability key (ghx-bench version, catalogue, suite, scenarios, repetitions, modes and their tools, providers, plugins, model, target, profile, seed; the difference named), another partition, a shard given twice, a row of a block its shard does not own. Writes results_dir/<run-id>.jsonl with the traces under results_dir/<run-id>/traces, as an unsharded run, then the report and, when the suite names a profile, the gate, computed from the rows. Shards or blocks missing make the run incomplete: named, and exit 3 (inconclusive), never a pass. Exit 0 pass, 1 fail, 2 bad input, 3 inconclusive or incomplete.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> shards/   # every shard results file under shards/ (download-artifact’s folders)',
    '<%= config.bin %> <%= command.id %> results/nightly-42.shard-1-of-2.jsonl results/nightly-42.shard-2-of-2.jsonl',
  ]
  static override strict = false
  static override args = {
    artifacts: Args.string({description: 'shard results files, or folders holding them', required: true}),
  }

  async run(): Promise<MergeResult> {
    const {mergeShards} = await import('../app/merge.js')
    const {renderGateTable, verdictLine} = await import('../cli/render.js')
    const result = await mergeShards({...this.project(), artifacts: this.positionals})
    const {judgement, summary} = result
    if (this.jsonEnabled()) this.logJson(result)
    else {
      for (const warning of summary.warnings) this.logToStderr(`warning: ${warning}`)
      for (const shard of result.shards) this.log(`shard ${shard.shard}: ${shard.rows} row(s) from ${shard.file}`)
      this.log(`run ${result.run_id}: ${summary.completed} row(s) merged into ${result.results_file}`)
      for (const file of judgement.files) this.log(`wrote ${file}`)
      if (judgement.gate) this.log(renderGateTable(judgement.gate))
      this.log(verdictLine(judgement.verdict))
      // What is missing is the last thing said: the verdict cannot stand without it.
      if (result.incomplete) this.logToStderr(result.incomplete)
    }
    this.exit(result.exit_code)
    return result
  }
}
