/**
 * The sandbox with the controls the runner and the fixture commands use: agent tokens and their
 * request and fault counts, faults, saving and restoring the whole state (mutation testing), and
 * stopping (which saves the state file). The same controls serve in the runner's process and, called
 * over IPC, from the sandbox's own process (./main.ts).
 */
import {AGENT_LOGIN, createFixtureRepo, ensureFixtureWorkflows} from '../defaults.js'
import type {FaultConfig} from '../faults.js'
import {serveSandbox, type ServeOptions} from '../serve.js'
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

export interface SandboxControls {
  configureFaults(config: FaultConfig | undefined): void
  /**
   * A run's own agent token: the agent's identity, its requests counted and (only these) open to
   * injected faults. Returns the environment that points gh at this sandbox as that token.
   */
  addAgentToken(token: string, ghConfigDir: string): Record<string, string>
  /** A token's requests, the faults injected into them, and their cost against GitHub's rate limits. */
  tokenCounts(token: string): {requests: number; faults: number; cost: TokenCost}
  releaseToken(token: string): void
  /** Keeps a copy of the whole state; `restoreState` puts it back, `forgetState` drops it. */
  saveState(): number
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
  const saved = new Map<number, SandboxState>()
  let nextSave = 0
  const facts: SandboxFacts = {
    url: sandbox.url,
    token: sandbox.token,
    reviewerToken: sandbox.reviewerToken,
    defaultBranch: state.repos[options.repo]!.default_branch,
    repos: Object.keys(state.repos),
  }
  const controls: SandboxControls = {
    configureFaults: (config) => sandbox.faults.configure(config),
    addAgentToken(token, ghConfigDir) {
      sandbox.store.addToken(token, AGENT_LOGIN)
      agentTokens.add(token)
      return sandbox.ghEnv(ghConfigDir, token)
    },
    tokenCounts: (token) => ({
      requests: sandbox.requests.byToken.get(token) ?? 0,
      faults: sandbox.faults.injectedByToken.get(token) ?? 0,
      cost: sandbox.requests.costByToken.get(token) ?? emptyTokenCost(),
    }),
    releaseToken(token) {
      delete sandbox.store.state.tokens[token]
      sandbox.requests.byToken.delete(token)
      sandbox.requests.costByToken.delete(token)
      sandbox.faults.injectedByToken.delete(token)
      agentTokens.delete(token)
    },
    saveState() {
      saved.set(++nextSave, structuredClone(sandbox.store.state))
      return nextSave
    },
    restoreState(id) {
      const copy = saved.get(id)
      if (!copy) throw new Error(`no saved sandbox state ${id}`)
      const live = sandbox.store.state as unknown as Record<string, unknown>
      for (const key of Object.keys(live)) delete live[key]
      Object.assign(live, structuredClone(copy))
    },
    forgetState: (id) => void saved.delete(id),
    stop: () => served.stop(),
  }
  return {facts, controls}
}
