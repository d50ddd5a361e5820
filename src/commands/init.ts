import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../cli/base-command.js'
import type {InitResult} from '../app/init-project.js'
import {writablePath} from '../cli/path-flags.js'
import {MAX_SHARDS} from '../cli/suite-flags.js'

export default class Init extends BaseCommand<typeof Init> {
  static override summary = 'Scaffold a project that runs on the embedded sandbox, with a CI workflow'
  static override description =
    'Writes .ghxbenchrc.yml (target sandbox, model oracle: no token, no API key), suites/example.yml and two calibrated example scenarios into the folder, adds results/, reports/, .ghx-bench/ and the fixture manifest to its .gitignore, and writes .github/workflows/ghx-bench.yml (at the root of the enclosing git repository), which runs the suite through ghx-bench’s GitHub Action (with --shards N, as N shard jobs on a matrix and a merge job that gates them). Then prints the next commands. An existing file is never overwritten: init names it and exits 2, writing nothing, unless --force (.gitignore is only ever appended to). The config’s comments say how to switch to live GitHub.'
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> my-bench',
    '<%= config.bin %> <%= command.id %> --action my-org/ghx-bench@main',
    '<%= config.bin %> <%= command.id %> --shards 4',
  ]
  static override args = {
    dir: Args.directory({description: 'folder to scaffold into', default: '.'}),
  }
  static override flags = {
    force: Flags.boolean({description: 'replace the scaffold’s files where they exist', default: false}),
    action: Flags.string({
      description:
        'the GitHub Action the workflow uses: owner/repo@ref of ghx-bench (default: package.json’s repository, else a placeholder to edit)',
    }),
    shards: Flags.integer({
      description:
        'the workflow runs the suite as N shards on a job matrix, uploads each shard’s results, and a merge job downloads them, merges, reports and gates',
      min: 2,
      max: MAX_SHARDS,
    }),
  }

  async run(): Promise<InitResult> {
    const {initProject} = await import('../app/init-project.js')
    const result = await initProject(writablePath(this.args.dir, 'folder'), {
      force: this.flags.force,
      action: this.flags.action,
      shards: this.flags.shards,
    })
    for (const file of result.created) this.log(`created ${file}`)
    for (const file of result.overwritten) this.log(`overwrote ${file}`)
    for (const file of result.updated) this.log(`updated ${file} (added the generated files ghx-bench writes)`)
    this.log('\nNext:')
    for (const step of result.next) this.log(`  ${step}`)
    return result
  }
}
