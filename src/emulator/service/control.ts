/**
 * The sandbox with the controls the runner and the fixture commands use: agent tokens and their
 * request and fault counts, faults, runs' worlds, saving and restoring the whole state (mutation
 * testing), and stopping (which saves the state file). The same controls serve in the runner's process
 * and, called over IPC, from the sandbox's own process (./main.ts).
 *
 * A world is one run's copy of the sandbox (Sandbox.fork), on a port of its own: whatever the run does
 * goes there, and the base keeps the state the suite's fixtures were ensured in, so every run starts
 * from that one state, whatever ran before it or beside it.
 */
import {AGENT_LOGIN, createFixtureRepo, ensureFixtureWorkflows} from '../defaults.js'
import type {FaultConfig} from '../faults.js'
import {serveSandbox, type ServeOptions} from '../serve.js'
import type {Sandbox} from '../server.js'
import type {SandboxState} from '../core/state.js'
import {emptyTokenCost, type TokenCost} from '../http/handler.js'

export interface SandboxControlOptions extends ServeOptions {
  /** The fixture repository: created when the state has none, else brought up to date. */
  repo: string
}

export interface SandboxFacts {
  url: string
  token: string
  reviewerToken: string
  /** The fixture repository's default branch. */
  defaultBranch: string
  repos: string[]
}

/** A run's world: its id (for the controls), where it answers, and gh's environment there as the run's agent. */
interface WorldFacts {
  world: number
  url: string
  env: Record<string, string>
}

export interface SandboxControls {
  /** The faults of runs' traffic: in the sandbox and in every world opened after. */
  configureFaults(config: FaultConfig | undefined): void
  /**
   * A run's own agent token: the agent's identity, its requests counted and (only these) open to
   * injected faults. Returns the environment that points gh at this sandbox as that token.
   */
  addAgentToken(token: string, ghConfigDir: string): Record<string, string>
  /** A run's world: a copy of the sandbox as it is now, with `token` added to it as addAgentToken does. */
  openWorld(token: string, ghConfigDir: string): Promise<WorldFacts>
  /** Stops a world and drops it (its tokens with it). */
  closeWorld(world: number): Promise<void>
  /** A token's requests, the faults injected into them, and their cost against GitHub's rate limits (in its world, if any). */
  tokenCounts(token: string): {requests: number; faults: number; cost: TokenCost}
  releaseToken(token: string): void
  /** Keeps a copy of the whole state (of a world, if given); `restoreState` puts it back there, `forgetState` drops it. */
  saveState(world?: number): number
  restoreState(id: number): void
  forgetState(id: number): void
  /** Saves the state file (unless read-only) and stops the server. */
  stop(): Promise<void>
}

export async function openSandboxControls(
  options: SandboxControlOptions,
): Promise<{facts: SandboxFacts; controls: SandboxControls}> {
  const served = await serveSandbox(options)
  const {sandbox} = served
  const state = sandbox.store.state
  if (!state.repos[options.repo]) createFixtureRepo(sandbox.store, options.repo)
  else ensureFixtureWorkflows(sandbox.store, options.repo)
  // Faults hit the system under test only: requests with a run's agent token, never the harness's own.
  const agentTokens = new Set<string>()
  sandbox.faults.scopeTo(agentTokens)
  let faults: FaultConfig | undefined
  const worlds = new Map<number, Sandbox>()
  /** The sandbox (a world, or the base) each run's agent token is served by. */
  const tokenHome = new Map<string, Sandbox>()
  let nextWorld = 0
  /**
   * Every world's clock starts at the first world's opening: a world opened later sees the same GitHub as
   * the first (a workflow run the fixtures hold in progress is still in progress, a run's age is the same).
   */
  let worldsStartAt: number | undefined
  const worldOf = (id: number) => {
    const world = worlds.get(id)
    if (!world) throw new Error(`no sandbox world ${id}`)
    return world
  }
  const saved = new Map<number, {state: SandboxState; sandbox: Sandbox}>()
  let nextSave = 0
  const facts: SandboxFacts = {
    url: sandbox.url,
    token: sandbox.token,
    reviewerToken: sandbox.reviewerToken,
    defaultBranch: state.repos[options.repo]!.default_branch,
    repos: Object.keys(state.repos),
  }
  const controls: SandboxControls = {
    configureFaults(config) {
      faults = config
      sandbox.faults.configure(config)
    },
    addAgentToken(token, ghConfigDir) {
      sandbox.store.addToken(token, AGENT_LOGIN)
      agentTokens.add(token)
      tokenHome.set(token, sandbox)
      return sandbox.ghEnv(ghConfigDir, token)
    },
    async openWorld(token, ghConfigDir) {
      worldsStartAt ??= Date.now()
      const id = ++nextWorld
      // Each world's faults are a stream of their own, seeded by the configured seed and the world's number: a retry
      // (a new world) does not meet the very faults that ended the attempt before it, and the streams are reproducible
      // when the worlds open in the same order (concurrency 1).
      const worldFaults = faults && {...faults, seed: (faults.seed ?? 1) + id}
      const world = await sandbox.fork({faults: worldFaults, startsAt: worldsStartAt})
      world.store.addToken(token, AGENT_LOGIN)
      world.faults.scopeTo(new Set([token]))
      worlds.set(id, world)
      tokenHome.set(token, world)
      return {world: id, url: world.url, env: world.ghEnv(ghConfigDir, token)}
    },
    async closeWorld(id) {
      const world = worldOf(id)
      worlds.delete(id)
      for (const [token, home] of tokenHome) if (home === world) tokenHome.delete(token)
      for (const [save, copy] of saved) if (copy.sandbox === world) saved.delete(save)
      await world.close()
    },
    tokenCounts(token) {
      const home = tokenHome.get(token) ?? sandbox
      return {
        requests: home.requests.byToken.get(token) ?? 0,
        faults: home.faults.injectedByToken.get(token) ?? 0,
        cost: home.requests.costByToken.get(token) ?? emptyTokenCost(),
      }
    },
    releaseToken(token) {
      const home = tokenHome.get(token) ?? sandbox
      delete home.store.state.tokens[token]
      home.requests.byToken.delete(token)
      home.requests.costByToken.delete(token)
      home.faults.injectedByToken.delete(token)
      agentTokens.delete(token)
      tokenHome.delete(token)
    },
    saveState(world) {
      const from = world === undefined ? sandbox : worldOf(world)
      saved.set(++nextSave, {state: structuredClone(from.store.state), sandbox: from})
      return nextSave
    },
    restoreState(id) {
      const copy = saved.get(id)
      if (!copy) throw new Error(`no saved sandbox state ${id}`)
      const live = copy.sandbox.store.state as unknown as Record<string, unknown>
      for (const key of Object.keys(live)) delete live[key]
      Object.assign(live, structuredClone(copy.state))
    },
    forgetState: (id) => void saved.delete(id),
    async stop() {
      // Worlds borrow the base's git objects: they go first.
      await Promise.all([...worlds.values()].map((world) => world.close()))
      worlds.clear()
      await served.stop()
    },
  }
  return {facts, controls}
}
