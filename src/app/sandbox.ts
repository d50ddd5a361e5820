/**
 * `ghx-bench sandbox serve`: the embedded GitHub as a standalone server, with the environment that
 * points gh at it; with `seed`, the fixtures the catalogue requires seeded into it and the manifest
 * written where the configuration says.
 */
import {mkdtemp} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {ghExports, serveSandbox, type Served} from '../emulator/serve.js'
import {seedServedSandbox} from '../seeding/service.js'
import {requiredKinds} from './fixtures.js'
import {openProject, type ProjectOptions} from './project.js'

export interface ServeSandboxOptions extends ProjectOptions {
  port?: number
  repos?: string[]
  statePath?: string
  seed?: boolean
}

export interface ServedSandbox {
  url: string
  graphql: string
  token: string
  reviewer_token: string
  repos: string[]
  state: string | null
  state_loaded: boolean
  /** The manifest written by `seed`. */
  manifest: string | null
  gh_env: Record<string, string>
  /** The gh environment as shell exports, to paste. */
  exports: string
  /** Saves the state (when there is a state file) and stops the server. */
  stop: Served['stop']
}

export async function serveProjectSandbox(options: ServeSandboxOptions): Promise<ServedSandbox> {
  const served = await serveSandbox({
    port: options.port,
    repos: options.repos,
    statePath: options.statePath,
    cwd: options.cwd,
  })
  const {sandbox} = served
  try {
    const env = sandbox.ghEnv(await mkdtemp(path.join(tmpdir(), 'ghx-bench-gh-')))
    let manifest: string | null = null
    if (options.seed) {
      const project = await openProject(options)
      manifest = await seedServedSandbox(project.config, sandbox, requiredKinds(project))
    }
    return {
      url: sandbox.url,
      graphql: `${sandbox.url}/graphql`,
      token: sandbox.token,
      reviewer_token: sandbox.reviewerToken,
      repos: Object.keys(sandbox.store.state.repos),
      state: served.statePath ?? null,
      state_loaded: served.loaded,
      manifest,
      gh_env: env,
      exports: ghExports(env),
      stop: () => served.stop(),
    }
  } catch (error) {
    await served.stop()
    throw error
  }
}
