/**
 * What a fresh sandbox holds: the agent and a second identity (reviewer, commenter), and the fixture
 * repository with the workflow the predecessors' fixture repo had, bench-rerun-failed.yml, which
 * fails on attempt 1 and succeeds on attempt 2, and bench-long-running.yml, whose job sleeps for 20
 * minutes (a run in progress, to cancel).
 */
import type {Store} from './store.js'

export const AGENT_LOGIN = 'ghx-bench-agent'
export const REVIEWER_LOGIN = 'ghx-bench-reviewer'
export const DEFAULT_REPO = 'ghx-bench/sandbox'

/** gh without prompts or update checks: what every non-interactive gh needs, on any target. */
export const GH_QUIET_ENV = {
  GH_NO_UPDATE_NOTIFIER: '1',
  GH_PROMPT_DISABLED: '1',
  GH_NO_EXTENSION_UPDATE_NOTIFIER: '1',
} as const

export const RERUN_WORKFLOW_FILE = 'bench-rerun-failed.yml'
/** A workflow whose job sleeps for 20 minutes: a run that is still in progress, to cancel. */
export const LONG_RUNNING_WORKFLOW_FILE = 'bench-long-running.yml'
const LONG_RUNNING_MS = 20 * 60_000

/** The trigger both fixture workflows share: a manual dispatch carrying the seed id (their runs' titles show it). */
const DISPATCH_ON_SEED = `on:
  workflow_dispatch:
    inputs:
      seed_id:
        description: fixture seed id
        required: false
jobs:
`

const WORKFLOW_YAML = `name: bench-rerun-failed
${DISPATCH_ON_SEED}  build:
    runs-on: ubuntu-latest
    steps:
      - run: echo build
  verify:
    needs: build
    runs-on: ubuntu-latest
    steps:
      - run: test "\${{ github.run_attempt }}" -gt 1 || (echo "Error: simulated failure on attempt 1" && exit 1)
`

const LONG_RUNNING_WORKFLOW_YAML = `name: bench-long-running
${DISPATCH_ON_SEED}  wait:
    runs-on: ubuntu-latest
    timeout-minutes: 30
    steps:
      - run: sleep ${LONG_RUNNING_MS / 1000}
`

/**
 * Registers the long-running workflow in a sandbox repository that lacks it (a sandbox state saved
 * before it existed), with its file on the default branch.
 */
export function ensureLongRunningWorkflow(store: Store, fullName: string): void {
  const repo = store.state.repos[fullName]
  if (!repo || Object.values(repo.workflows).some((w) => w.path.endsWith(`/${LONG_RUNNING_WORKFLOW_FILE}`))) return
  const file = `.github/workflows/${LONG_RUNNING_WORKFLOW_FILE}`
  if (store.git.commit(repo, store.git.branchSha(repo, repo.default_branch)).tree[file] === undefined) {
    store.git.commitFiles(
      repo,
      repo.default_branch,
      {[file]: LONG_RUNNING_WORKFLOW_YAML},
      'Add the long-running fixture workflow',
      fullName.split('/')[0]!,
    )
  }
  store.actions.addWorkflow(
    repo,
    file,
    'bench-long-running',
    [
      {
        name: 'wait',
        fail_on_attempts: [],
        duration_ms: LONG_RUNNING_MS,
        log: `2026-01-01T00:00:00.0000000Z ##[group]Run sleep ${LONG_RUNNING_MS / 1000}\n`,
      },
    ],
    ['seed_id'],
  )
}

/** Creates a repository laid out like the benchmark fixture repository, with its workflows. */
export function createFixtureRepo(store: Store, fullName: string): void {
  const [owner, name] = fullName.split('/') as [string, string]
  const repo = store.repos.create(owner, name, {
    description: 'ghx-bench fixtures (sandbox)',
    files: {
      'README.md': `# ${name}\n\nFixtures for ghx-bench.\n`,
      [`.github/workflows/${RERUN_WORKFLOW_FILE}`]: WORKFLOW_YAML,
      [`.github/workflows/${LONG_RUNNING_WORKFLOW_FILE}`]: LONG_RUNNING_WORKFLOW_YAML,
      'src/index.ts': "export const version = '1.0.0'\n",
    },
  })
  store.actions.addWorkflow(
    repo,
    `.github/workflows/${RERUN_WORKFLOW_FILE}`,
    'bench-rerun-failed',
    [
      {
        name: 'build',
        fail_on_attempts: [],
        log: '2026-01-01T00:00:00.0000000Z ##[group]Run echo build\nbuild\n##[endgroup]\n',
      },
      {
        name: 'verify',
        fail_on_attempts: [1],
        log: '2026-01-01T00:00:00.0000000Z ##[group]Run test "{attempt}" -gt 1\nError: simulated failure on attempt 1 (seed {seed_id})\n##[error]Process completed with exit code 1.\n',
      },
    ],
    ['seed_id'],
  )
  ensureLongRunningWorkflow(store, fullName)
}
