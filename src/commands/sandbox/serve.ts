import {Flags, ux} from '@oclif/core'
import {BaseCommand} from '../../cli/base-command.js'
import {outputFileFlag} from '../../cli/path-flags.js'

export default class SandboxServe extends BaseCommand<typeof SandboxServe> {
  static override summary = 'Run the embedded GitHub sandbox as a standalone server'
  static override description =
    'Starts the in-memory GitHub (REST v3 and GraphQL v4) on 127.0.0.1 and prints its URL, its tokens and the environment that points gh at it. With --state, state is loaded from the file at start (if it exists) and saved to it on Ctrl-C or SIGTERM. The tokens are local to this sandbox.'
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --port 4010 --state .sandbox/state.json',
    '<%= config.bin %> <%= command.id %> --repo acme/fixtures --json',
  ]
  static override flags = {
    port: Flags.integer({description: 'port on 127.0.0.1 (default: a free one)', min: 0, max: 65535}),
    repo: Flags.string({
      description: 'repository to create, laid out as the fixture repository (default: ghx-bench/sandbox)',
      multiple: true,
    }),
    state: outputFileFlag({description: 'state file: loaded at start when it exists, saved on exit'}),
    seed: Flags.boolean({
      description: 'seed the fixtures the catalogue requires and write the manifest (fixtures.manifest of the config)',
      default: false,
    }),
  }

  async run(): Promise<void> {
    const {serveProjectSandbox} = await import('../../app/sandbox.js')
    const {stop, exports, ...info} = await serveProjectSandbox({
      ...this.project(),
      port: this.flags.port,
      repos: this.flags.repo,
      statePath: this.flags.state,
      seed: this.flags.seed,
    })
    // One line of JSON while the server keeps running (this.log is silent under --json).
    if (this.jsonEnabled()) ux.stdout(JSON.stringify(info))
    else {
      this.log(`sandbox GitHub: ${info.url} (REST), ${info.graphql} (GraphQL)`)
      this.log(`repositories: ${info.repos.join(', ')}`)
      this.log(`token (ghx-bench-agent): ${info.token}`)
      this.log(`token (ghx-bench-reviewer): ${info.reviewer_token}`)
      this.log(`Octokit: new Octokit({baseUrl: '${info.url}', auth: '${info.token}'})`)
      this.log(`gh: paste these lines, then e.g. gh issue list -R ${info.repos[0] ?? 'owner/repo'}\n${exports}`)
      if (info.manifest) this.log(`fixtures: seeded, manifest ${info.manifest}`)
      this.log(
        info.state
          ? `state: ${info.state_loaded ? 'loaded from' : 'new,'} ${info.state}; saved there on Ctrl-C`
          : 'state: in memory only (--state FILE keeps it)',
      )
    }
    await new Promise<void>((resolve) => {
      const stopping = () => void stop().then(resolve)
      process.once('SIGINT', stopping)
      process.once('SIGTERM', stopping)
    })
  }
}
