// A sandbox with a few resources, seeded through the REST and GraphQL APIs as any client would.
import {expect} from 'chai'
import {Octokit} from '@octokit/rest'
import type {FixtureContext} from '../../src/seeding/context.js'
import {sandboxIdentities} from '../../src/github/sandbox-target.js'
import {startSandbox, type Sandbox, type SandboxOptions} from '../../src/emulator/index.js'

/** What an Octokit request that GitHub (or the sandbox) refused answered: its body and status. */
export interface RequestFailure {
  status: number
  message: string
  errors?: unknown[]
  [field: string]: unknown
}

/** The refusal of a request that must fail; a request that succeeds fails the test. */
export function failure(promise: Promise<unknown>): Promise<RequestFailure> {
  return promise.then(
    () => expect.fail('expected a failure'),
    (e: {status: number; response: {data: {message: string; errors?: unknown[]}}}) => ({
      ...e.response.data,
      status: e.status,
    }),
  )
}

export const OWNER = 'ghx-bench'
export const REPO = 'sandbox'

export function octokitFor(sandbox: Sandbox, token = sandbox.token): Octokit {
  return new Octokit({auth: token, baseUrl: sandbox.url, log: {debug() {}, info() {}, warn() {}, error() {}}})
}

/** The fixture layer's view of the sandbox's default repository. */
export function fixtureContext(sandbox: Sandbox, seedId = 'test'): FixtureContext {
  return {owner: OWNER, name: REPO, seedId, ...sandboxIdentities(sandbox)}
}

export interface Seeded {
  sandbox: Sandbox
  agent: Octokit
  reviewer: Octokit
  issue: number
  pr: number
  prHeadSha: string
  threadIds: string[]
  runId: number
  releaseId: number
}

export const BUGGY_FILE = [
  'export function average(values: number[]): number {',
  '  let sum = 0',
  '  for (const v of values) sum += v',
  '  return sum / values.length',
  '}',
  '',
  'export async function load(url: string) {',
  '  const response = fetch(url)',
  '  return response',
  '}',
  '',
  "export const password = 'hunter2'",
  '',
].join('\n')

/** An issue with a label, a PR opened by the reviewer identity with a review thread, a workflow run, a draft release. */
export async function seedSandbox(options: SandboxOptions = {}): Promise<Seeded> {
  const sandbox = await startSandbox({timing: {queued_ms: 20, running_ms: 40}, ...options})
  const agent = octokitFor(sandbox)
  const reviewer = octokitFor(sandbox, sandbox.reviewerToken)
  const base = {owner: OWNER, repo: REPO}
  const issue = await agent.rest.issues.create({
    ...base,
    title: 'Crash on start',
    body: 'It crashes.',
    labels: ['triage', 'feature-request'],
  })
  const main = await agent.rest.git.getRef({...base, ref: 'heads/main'})
  await reviewer.rest.git.createRef({...base, ref: 'refs/heads/bench-bugs', sha: main.data.object.sha})
  await reviewer.rest.repos.createOrUpdateFileContents({
    ...base,
    path: 'src/utils/stats.ts',
    message: 'Add stats',
    content: Buffer.from(BUGGY_FILE).toString('base64'),
    branch: 'bench-bugs',
  })
  const pr = await reviewer.rest.pulls.create({
    ...base,
    title: 'Add stats helpers',
    head: 'bench-bugs',
    base: 'main',
    body: 'Adds helpers.',
  })
  await reviewer.rest.pulls.createReviewComment({
    ...base,
    pull_number: pr.data.number,
    body: 'Is this right?',
    path: 'src/utils/stats.ts',
    line: 2,
    side: 'RIGHT',
    commit_id: pr.data.head.sha,
  })
  const threads = await agent.graphql<{repository: {pullRequest: {reviewThreads: {nodes: Array<{id: string}>}}}}>(
    'query($n: Int!) { repository(owner: "ghx-bench", name: "sandbox") { pullRequest(number: $n) { reviewThreads(first: 10) { nodes { id } } } } }',
    {n: pr.data.number},
  )
  await agent.rest.actions.createWorkflowDispatch({
    ...base,
    workflow_id: 'bench-rerun-failed.yml',
    ref: 'main',
    inputs: {seed_id: 'test'},
  })
  const runs = await agent.rest.actions.listWorkflowRuns({...base, workflow_id: 'bench-rerun-failed.yml'})
  const release = await agent.rest.repos.createRelease({
    ...base,
    tag_name: 'v0.1.0-bench',
    name: 'Bench draft',
    draft: true,
  })
  return {
    sandbox,
    agent,
    reviewer,
    issue: issue.data.number,
    pr: pr.data.number,
    prHeadSha: pr.data.head.sha,
    threadIds: threads.repository.pullRequest.reviewThreads.nodes.map((n) => n.id),
    runId: runs.data.workflow_runs[0]!.id,
    releaseId: release.data.id,
  }
}

/** Waits until a run's latest attempt completes (the sandbox's clock moves it along). */
export async function waitForRun(
  octokit: Octokit,
  runId: number,
): Promise<{conclusion: string | null; run_attempt?: number}> {
  for (let i = 0; i < 100; i++) {
    const run = await octokit.rest.actions.getWorkflowRun({owner: OWNER, repo: REPO, run_id: runId})
    if (run.data.status === 'completed') return run.data
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`run ${runId} did not complete`)
}
