/**
 * Where GitHub is for a command: live GitHub or the sandbox, chosen once (open-target.ts) and
 * then used the same way: the fixture repository with the harness's two identities (what seeding works
 * through, and what checkpoints read as), the seed and reset hooks that differ between the two, the
 * GitHub each run gets (RunGitHub: the agent's token, API URL and the environment gh needs), and close. On
 * the sandbox every run gets its own copy of the sandbox and its own token there, so it starts from the
 * suite's seeded state and the agent's API calls are counted exactly; on live GitHub the tools
 * talk to GitHub directly, so only the token's rate-limit usage before and after the agent is seen.
 */
import type {FaultConfig} from '../emulator/faults.js'
import type {SandboxService} from '../emulator/service/client.js'
import type {GithubClient} from './client.js'
import type {RateBudget} from './rate-budget.js'

/** What the agent's GitHub traffic cost against GitHub's rate limits; a figure its source cannot see is null. */
export interface ApiCost {
  /** sandbox: counted per request for the run's own token; live_rate_limit: GET /rate_limit before and after the agent. */
  source: 'sandbox' | 'live_rate_limit'
  rest_requests: number | null
  graphql_requests: number | null
  graphql_points: number | null
  secondary_limit_waits: number | null
  retry_after_s: number | null
}

export interface AccessCounts {
  /** The agent's GitHub API calls; null where they cannot be observed. */
  apiCalls: number | null
  /** Their cost against the rate limits; null where it cannot be observed. */
  api: ApiCost | null
  /** Faults injected into the run's GitHub traffic (--inject-faults; 0 on live GitHub). */
  injectedFaults: number
}

export interface AgentAccess {
  apiUrl: string
  /** Where this GitHub answers GraphQL. */
  graphqlUrl: string
  token: string
  /** For Node tools that hard-code https://api.github.com (ghx run, the npm MCP server): a preload that sends them here. */
  nodeEnv: Record<string, string>
  /** The environment that points gh at this GitHub as the agent. */
  env: Record<string, string>
  /** The agent is about to start: what its traffic costs is counted from here (live GitHub: the token's usage now). */
  startCounting(): Promise<void>
  /** What this run's GitHub traffic has been so far. */
  counts(): Promise<AccessCounts>
  release(): Promise<void>
}

/**
 * One run's GitHub: where its agent works (access), the harness's two identities there (its fixtures,
 * checkpoints and mutation tests go through them), and what it held, released with `release`. On the
 * sandbox it is the run's own world, a copy of the sandbox from the state the suite's fixtures were
 * ensured in; on live GitHub, the one repository every run shares.
 */
export interface RunGitHub {
  access: AgentAccess
  agent: GithubClient
  second: GithubClient
  /**
   * The run starts from the suite's seeded fixtures (its own copy of them): resetting them first would
   * change nothing. False on live GitHub, where earlier runs leave their changes behind.
   */
  startsAsSeeded: boolean
  /** Saving and restoring this run's GitHub state (mutation testing), on the sandbox. */
  states?: Pick<SandboxService, 'restoreState' | 'forgetState'> & {saveState(): Promise<number>}
  /** Releases the agent's access and, on the sandbox, drops the run's world. */
  release(): Promise<void>
}

export interface GitHubTarget {
  kind: 'sandbox' | 'live'
  /** The fixture repository (fixtures.repo) and its default branch. */
  repo: {owner: string; name: string; defaultBranch: string}
  /** The agent's identity: it seeds, and it reads checkpoints (the same view of GitHub the agent had). */
  agent: GithubClient
  /** A second identity (reviewer, commenter, pull request author), so the agent can review others' work. */
  second: GithubClient
  /** The identities' logins (the same login twice on live GitHub without a second identity). */
  logins: {agent: string; reviewer: string}
  /** What seeding and resetting do differently here. */
  fixtures: {
    /** How often seeding polls a dispatched workflow run for the state it waits for. */
    workflowPollMs?: number
    /**
     * A manifest that covers the kinds is used as it is (live GitHub); the sandbox is re-seeded, which
     * is cheap and idempotent, because its saved state may be older than the manifest (a crash).
     */
    reuseManifest: boolean
    /** Every reset is read back against the seeded digests (the sandbox: local reads; live GitHub: on request). */
    verifyResets(): boolean
    /**
     * Who a seeded commit of `login` names, and when (the sandbox: one fixed date, so every seeding makes the
     * same commits, with the same ids); absent: GitHub's own (the login, now).
     */
    commitAs?(login: string): {name: string; email: string; date: string}
  }
  /** The running sandbox's controls (faults, tokens, saved states), on the sandbox. */
  sandbox?: SandboxService
  /**
   * How checkpoints poll this GitHub when the suite sets no budget: live GitHub is eventually
   * consistent (12 s, every second); the sandbox answers consistently at once (its workflow runs
   * finish in under a second: 2 s, every 100 ms).
   */
  checkpoints: {budget_ms: number; interval_ms: number}
  /** Each token's rate budget (live GitHub: src/github/rate-budget.ts); none on the sandbox, which never limits. */
  rateBudgets: readonly RateBudget[]
  /** The agent's access to this GitHub itself (preflight: modes check they can reach it). */
  agentAccess(workdir: string): Promise<AgentAccess>
  /** One run's GitHub (see RunGitHub), its gh configuration under `workdir`. */
  openRun(workdir: string): Promise<RunGitHub>
  /** Tokens of this target, for the redactor. */
  secrets(): string[]
  /** Saves the sandbox's state (unless read-only) and stops it. */
  close(): Promise<void>
}

export interface TargetOptions {
  env?: NodeJS.ProcessEnv
  /** Retries of the harness's own sandbox requests (a run under injected faults must not lose its fixtures). */
  sandboxRetry?: {retries: number; retryAfterBaseMs?: number}
  /** Read the sandbox's saved state but never write it back (a dry run has no side effects). */
  readOnly?: boolean
  /** Serve the sandbox from its own process (runs overlap: see emulator/service/client.ts). */
  sandboxProcess?: boolean
  /** Faults injected into the runs' own traffic (the sandbox only). */
  faults?: FaultConfig
}
