import {Args} from '@oclif/core'
import {BaseCommand} from '../cli/base-command.js'
import type {InitResult} from '../spec/init-project.js'

export default class Init extends BaseCommand<typeof Init> {
  static override summary = 'Scaffold a config, a suite and a scenario for live GitHub'
  static override description =
    'Writes .ghxbenchrc.yml (target live), suites/example.yml and one example scenario into the folder, then prints the next commands. Existing files are never overwritten.'
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> my-bench']
  static override args = {
    dir: Args.directory({description: 'folder to scaffold into', default: '.'}),
  }

  async run(): Promise<InitResult> {
    const {initProject} = await import('../spec/init-project.js')
    const result = await initProject(this.args.dir)
    for (const file of result.created) this.log(`created ${file}`)
    this.log('\nNext:')
    for (const step of result.next) this.log(`  ${step}`)
    return result
  }
}
