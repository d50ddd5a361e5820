/**
 * What a fresh sandbox holds: the agent and a second identity (reviewer, commenter), and the fixture
 * repository with the workflow the predecessors' fixture repo had, bench-rerun-failed.yml, which
 * fails on attempt 1 and succeeds on attempt 2, bench-long-running.yml, whose job sleeps for 20
 * minutes (a run in progress, to cancel), and bench-lint.yml, which a push to a lint fixture's branch
 * starts (a check run that follows the code).
 */
import type {WorkflowJobSpec} from './core/state.js'
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

/** The branches whose pushes bench-lint.yml checks: the lint fixture's pull request heads. */
export const LINT_BRANCHES = 'bench-lint-seed-*'
const LINT_WORKFLOW_FILE = 'bench-lint.yml'

const LINT_WORKFLOW_YAML = `name: bench-lint
on:
  push:
    branches: ['${LINT_BRANCHES}']
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: "! grep -rnF 'console.log' src/"
`

/** A fixture workflow added to a repository: its file on the default branch and how the sandbox runs it. */
interface FixtureWorkflow {
  file: string
  name: string
  yaml: string
  jobs: WorkflowJobSpec[]
  inputs: string[]
  onPush?: string[]
}

const LONG_RUNNING_WORKFLOW: FixtureWorkflow = {
  file: LONG_RUNNING_WORKFLOW_FILE,
  name: 'bench-long-running',
  yaml: LONG_RUNNING_WORKFLOW_YAML,
  jobs: [
    {
      name: 'wait',
      fail_on_attempts: [],
      duration_ms: LONG_RUNNING_MS,
      log: `2026-01-01T00:00:00.0000000Z ##[group]Run sleep ${LONG_RUNNING_MS / 1000}\n`,
    },
  ],
  inputs: ['seed_id'],
}

/** Lints every push to a lint fixture's branch: its job fails, listing them, while a file under src/ holds a console.log. */
const LINT_WORKFLOW: FixtureWorkflow = {
  file: LINT_WORKFLOW_FILE,
  name: 'bench-lint',
  yaml: LINT_WORKFLOW_YAML,
  jobs: [
    {
      name: 'lint',
      fail_on_attempts: [],
      fails_on_match: {text: 'console.log', under: 'src/'},
      log: "2026-01-01T00:00:00.0000000Z ##[group]Run ! grep -rnF 'console.log' src/\n",
    },
  ],
  inputs: [],
  onPush: [LINT_BRANCHES],
}

/**
 * The date of every commit the fixtures make on the sandbox (its repository's history, seeded files): a
 * commit's id hashes its date, so fixtures seeded at any time are the same commits, with the same ids,
 * and a run reads the same answers (the same tokens) wherever its sandbox was seeded.
 */
const FIXTURE_COMMIT_DATE = '2026-01-01T00:00:00Z'

/** The identity and date a seeded commit of `login` carries on the sandbox (its own login and no-reply address). */
export function fixtureCommitter(login: string): {name: string; email: string; date: string} {
  return {name: login, email: `${login}@users.noreply.github.localhost`, date: FIXTURE_COMMIT_DATE}
}

/**
 * Registers the fixture workflows a sandbox repository lacks (a sandbox state saved before they
 * existed), with their files on the default branch.
 */
export function ensureFixtureWorkflows(store: Store, fullName: string): void {
  const repo = store.state.repos[fullName]
  if (!repo) return
  for (const workflow of [LONG_RUNNING_WORKFLOW, LINT_WORKFLOW]) {
    if (Object.values(repo.workflows).some((w) => w.path.endsWith(`/${workflow.file}`))) continue
    const file = `.github/workflows/${workflow.file}`
    if (store.git.commit(repo, store.git.branchSha(repo, repo.default_branch)).tree[file] === undefined) {
      store.git.commitFiles(
        repo,
        repo.default_branch,
        {[file]: workflow.yaml},
        `Add the ${workflow.name} fixture workflow`,
        fullName.split('/')[0]!,
        {date: FIXTURE_COMMIT_DATE},
      )
    }
    store.actions.addWorkflow(repo, file, workflow.name, workflow.jobs, workflow.inputs, workflow.onPush)
  }
}

/** Creates a repository laid out like the benchmark fixture repository, with its workflows. */
export function createFixtureRepo(store: Store, fullName: string): void {
  const [owner, name] = fullName.split('/') as [string, string]
  const repo = store.repos.create(owner, name, {
    description: 'ghx-bench fixtures (sandbox)',
    date: FIXTURE_COMMIT_DATE,
    files: {
      'README.md': `# ${name}\n\nFixtures for ghx-bench.\n`,
      [`.github/workflows/${RERUN_WORKFLOW_FILE}`]: WORKFLOW_YAML,
      [`.github/workflows/${LONG_RUNNING_WORKFLOW_FILE}`]: LONG_RUNNING_WORKFLOW_YAML,
      [`.github/workflows/${LINT_WORKFLOW_FILE}`]: LINT_WORKFLOW_YAML,
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
  ensureFixtureWorkflows(store, fullName)
}
