/**
 * Pull request fixtures. Each lives on its own branch (named after the seed, so seeding finds it
 * again) with a file that gives the scenario something to review. Those the agent must review are
 * opened by the second identity (GitHub refuses "request changes" on your own pull request); those
 * whose threads the agent must answer are opened by the agent and commented by the second identity.
 */
import {LINT_BRANCHES} from '../emulator/defaults.js'
import type {GithubClient} from '../github/client.js'
import {
  clientFor,
  commentText,
  ensureLabels,
  FIXTURE_LABEL,
  reactionText,
  repoParams,
  seedLabel,
  seededCommitter,
  type FixtureContext,
} from './context.js'
import {sorted, type Snapshot} from './digest.js'
import {removeReactions} from './issues.js'
import {fixtureKind, hasFields, type FixtureKindEntry} from './kind.js'

interface ThreadSeed {
  line: number
  body: string
  resolved: boolean
}

interface PullKind {
  branch: (seedId: string) => string
  title: (seedId: string) => string
  /** The file the pull request changes (a kind whose base holds it too names it after the seed: each seed its own). */
  path: (seedId: string) => string
  /** The file's text; it names the seed, so a fixture merged by one run leaves the next one a real diff. */
  content: (seedId: string) => string
  /** Who opens it: the agent, or the second identity. */
  author: 'agent' | 'second'
  /** Review threads the second identity starts, in order. */
  threads: ThreadSeed[]
  /** Files written on the base before the branch is cut: the code the pull request changes. */
  baseFiles?: (seedId: string) => Record<string, string>
  /** Files written on the base after the branch is cut, so the pull request is behind (branch update) or conflicts. */
  baseMovesOn?: (seedId: string) => Record<string, string>
  /**
   * A base branch of the fixture's own, cut from the default branch: a pull request whose base moves on
   * keeps its base still while other runs (pr-merge-001, other machines' on live GitHub) merge into the
   * default branch. Reset puts it back at its seeded commit.
   */
  ownBase?: (seedId: string) => string
  /** Commit statuses the agent posts on the fixture's head commit: the checks a CI left (pr.checks.list). */
  statuses?: StatusSeed[]
  /** A review the second identity submits once the threads are started: the review decision (pr.merge.status, pr.reviews.list). */
  review?: ReviewSeed
}

interface StatusSeed {
  context: string
  state: 'success' | 'failure' | 'pending' | 'error'
  description: string
}

interface ReviewSeed {
  event: 'APPROVE' | 'REQUEST_CHANGES' | 'COMMENT'
  body: string
}

const lines = (count: number, text: (n: number) => string) =>
  Array.from({length: count}, (_, i) => text(i + 1)).join('\n') + '\n'

const STATS_WITH_BUGS = [
  'export function average(values: number[]): number {',
  '  let sum = 0',
  '  for (const v of values) sum += v',
  '  return sum / values.length // divides by zero on an empty array',
  '}',
  '',
  'export async function fetchScore(url: string): Promise<number> {',
  '  const response = fetch(url) // missing await',
  '  return Number(response)',
  '}',
  '',
  "export const databasePassword = 'hunter2' // hard-coded secret",
  '',
].join('\n')

const HELPERS_WITH_BUGS = [
  "import { readFileSync } from 'node:fs'",
  '',
  'export const config = JSON.parse(readFileSync(process.argv[2])) // no encoding: parses a Buffer',
  '',
  'export function divide(a: number, b: number): number {',
  '  if (b === 0) return 0',
  '  return a / 0 // ignores b',
  '}',
  '',
  'export function waitForReady(check: () => boolean): void {',
  '  while (true) {} // never exits',
  '}',
  '',
  'export function first<T>(items: T[]): T {',
  '  return items[1] // off by one',
  '}',
  '',
].join('\n')

const PRICE_WITH_TRUNCATION = [
  'export function roundPrice(amount: number): number {',
  '  return Math.floor(amount * 100) / 100',
  '}',
  '',
  'export function formatPrice(amount: number): string {',
  '  return `$${roundPrice(amount).toFixed(2)}`',
  '}',
  '',
].join('\n')

/** The code a conflicting pull request and its base both change: the base its retries and timeout, the pull request its timeout. */
const settings = (retries: number, timeoutMs: number) =>
  [
    'export const settings = {',
    `  retries: ${retries},`,
    '  backoffMs: 250,',
    '  cacheSize: 64,',
    "  logLevel: 'info',",
    `  timeoutMs: ${timeoutMs},`,
    '}',
    '',
  ].join('\n')

/** A formatter the base renames after the pull request's branch is cut, and the report that calls it. */
const FORMAT_BEFORE = [
  'export function formatPrice(cents: number): string {',
  '  return `$${(cents / 100).toFixed(2)}`',
  '}',
  '',
].join('\n')
const FORMAT_AFTER = [
  "export function formatAmount(cents: number, currency = '$'): string {",
  '  return `${currency}${(cents / 100).toFixed(2)}`',
  '}',
  '',
].join('\n')
const REPORT_WITH_OLD_NAME = [
  "import {formatPrice} from './format.js'",
  '',
  'export function totalLine(cents: number): string {',
  '  return `Total: ${formatPrice(cents)}`',
  '}',
  '',
].join('\n')

const CHECKOUT_WITH_DEBUG_LOG = [
  'export function checkoutTotal(prices: number[]): number {',
  '  const total = prices.reduce((sum, price) => sum + price, 0)',
  "  console.log('checkout total', total)",
  '  return total',
  '}',
  '',
].join('\n')

const PULL_KINDS = {
  pr: {
    branch: (seedId: string) => `bench-seed-${seedId}`,
    title: (seedId: string) => `Benchmark fixture PR (bench-seed:${seedId})`,
    // A file per seed: a fresh one merged into the base (pr-merge-001) never conflicts with the seeded one (pr-branch-update-001).
    path: (seedId: string) => `.bench/seed-${seedId}.md`,
    content: (seedId: string) => `# Benchmark fixture ${seedId}\n\nA change for pull request scenarios.\n`,
    author: 'agent',
    threads: [{line: 1, body: 'Could this title be clearer?', resolved: false}],
    baseMovesOn: (seedId: string) => ({[`.bench/main-${seedId}.md`]: `${seedId} ${Date.now()}\n`}),
  },
  pr_with_bugs: {
    branch: (seedId: string) => `bench-bugs-seed-${seedId}`,
    title: (seedId: string) => `Add stats helpers (bench-seed:${seedId})`,
    path: () => 'src/utils/stats.ts',
    content: () => STATS_WITH_BUGS,
    author: 'second',
    threads: [],
  },
  pr_with_changes: {
    branch: (seedId: string) => `bench-changes-seed-${seedId}`,
    title: (seedId: string) => `Add helpers (bench-seed:${seedId})`,
    path: () => 'src/utils/helpers.ts',
    content: () => HELPERS_WITH_BUGS,
    author: 'second',
    threads: [],
  },
  pr_with_reviews: {
    branch: (seedId: string) => `bench-review-seed-${seedId}`,
    title: (seedId: string) => `Refactor review helpers (bench-seed:${seedId})`,
    path: () => 'src/utils/review-helpers.ts',
    content: () => lines(24, (n) => `export const value${n} = ${n}`),
    author: 'agent',
    threads: [2, 3, 16, 20].map((line, i) => ({
      line,
      body: `Please name value${line} after what it means.`,
      resolved: i === 0,
    })),
    statuses: [
      {context: 'bench/lint', state: 'success', description: 'Lint passed'},
      {context: 'bench/unit-tests', state: 'failure', description: '2 of 31 tests failed'},
    ],
    review: {
      event: 'REQUEST_CHANGES',
      body: 'The value names still say nothing: please rename them before this merges.',
    },
  },
  pr_with_mixed_threads: {
    branch: (seedId: string) => `bench-mixed-seed-${seedId}`,
    title: (seedId: string) => `Mixed review threads (bench-seed:${seedId})`,
    path: () => 'src/utils/mixed-helpers.ts',
    content: () => lines(28, (n) => `export function helper${n}(input: unknown): unknown { return input }`),
    author: 'agent',
    threads: [2, 6, 10, 14, 18, 22, 26].map((line, i) => ({
      line,
      body: `helper${line} needs a typed input.`,
      resolved: i < 4,
    })),
  },
  pr_with_fix_request: {
    branch: (seedId: string) => `bench-review-fix-seed-${seedId}`,
    title: (seedId: string) => `Add price rounding (bench-seed:${seedId})`,
    path: () => 'src/utils/price.ts',
    content: () => PRICE_WITH_TRUNCATION,
    author: 'agent',
    threads: [
      {
        line: 2,
        body: 'This truncates instead of rounding (1.005 becomes 1.00, 2.999 becomes 2.99). Please change this line to `  return Math.round(amount * 100) / 100` and nothing else.',
        resolved: false,
      },
    ],
  },
  pr_conflicting: {
    branch: (seedId: string) => `bench-conflict-seed-${seedId}`,
    title: (seedId: string) => `Raise the timeout (bench-seed:${seedId})`,
    path: (seedId: string) => `src/config/settings-${seedId}.ts`,
    content: () => settings(3, 5000),
    author: 'agent',
    threads: [],
    baseFiles: (seedId: string) => ({[`src/config/settings-${seedId}.ts`]: settings(3, 1000)}),
    baseMovesOn: (seedId: string) => ({[`src/config/settings-${seedId}.ts`]: settings(5, 2000)}),
    ownBase: (seedId: string) => `bench-conflict-base-seed-${seedId}`,
  },
  pr_behind_base: {
    branch: (seedId: string) => `bench-behind-seed-${seedId}`,
    title: (seedId: string) => `Add the total line (bench-seed:${seedId})`,
    path: (seedId: string) => `src/seeds/${seedId}/report.ts`,
    content: () => REPORT_WITH_OLD_NAME,
    author: 'agent',
    threads: [],
    baseFiles: (seedId: string) => ({[`src/seeds/${seedId}/format.ts`]: FORMAT_BEFORE}),
    baseMovesOn: (seedId: string) => ({[`src/seeds/${seedId}/format.ts`]: FORMAT_AFTER}),
    ownBase: (seedId: string) => `bench-behind-base-seed-${seedId}`,
  },
  pr_failing_lint: {
    // bench-lint.yml lints every push to these branches: its lint job fails on the console.log.
    branch: (seedId: string) => LINT_BRANCHES.replace('*', seedId),
    title: (seedId: string) => `Add the checkout total (bench-seed:${seedId})`,
    path: () => 'src/utils/checkout.ts',
    content: () => CHECKOUT_WITH_DEBUG_LOG,
    author: 'agent',
    threads: [],
  },
} satisfies Record<string, PullKind>

export type PullKindName = keyof typeof PULL_KINDS
export const PULL_KIND_NAMES = Object.keys(PULL_KINDS) as PullKindName[]

export interface PullResource {
  number: number
  id: number
  node_id: string
  url: string
  head: string
  /** The file the pull request changes (absent in manifests written before it was recorded). */
  file?: string
  seeded: {
    title: string
    body: string
    head_sha: string
    threads: Array<ThreadSeed & {id: string; comment_id: number}>
    /** The base branch, labels, assignees and draft state (absent in manifests written before reset restored them). */
    base?: string
    /** The commit a base of the fixture's own was seeded at (kinds with one). */
    base_sha?: string
    labels?: string[]
    assignees?: string[]
    draft?: boolean
    /** The review the fixture submits (absent when it submits none). */
    review?: {id: number; state: string; body: string}
  }
  [extra: string]: unknown
}

function client(ctx: FixtureContext, who: 'agent' | 'second'): GithubClient {
  return who === 'agent' ? ctx.agent : ctx.second
}

/** Finds this seed's pull request of the kind (or opens it), then resets it to its seeded state. */
/**
 * Creates or updates a file on a branch. The file may already be there (a fixture pull request of
 * this kind was merged by an earlier run, or the base was moved on before): then it is an update.
 */
async function writeFile(
  ctx: FixtureContext,
  author: FixtureContext['agent'],
  file: {path: string; branch: string; message: string; content: string},
): Promise<void> {
  const repo = repoParams(ctx)
  const sha = await ctx.agent.rest.repos.getContent({...repo, path: file.path, ref: file.branch}).then(
    (r) => (Array.isArray(r.data) ? undefined : r.data.sha),
    () => undefined,
  )
  await author.rest.repos.createOrUpdateFileContents({
    ...repo,
    path: file.path,
    branch: file.branch,
    message: file.message,
    content: Buffer.from(file.content).toString('base64'),
    ...(sha ? {sha} : {}),
    ...(await seededCommitter(ctx, author)),
  })
}

type OpenedPull = {number: number; id: number; node_id: string; html_url: string; head: {sha: string}}

export async function seedPull(ctx: FixtureContext, kind: PullKindName, suffix = ''): Promise<PullResource> {
  const definition: PullKind = PULL_KINDS[kind]
  const seedId = ctx.seedId + suffix
  const branch = definition.branch(seedId)
  await ensureLabels(ctx, [FIXTURE_LABEL, seedLabel(ctx.seedId)])
  const open = await ctx.agent.paginate(ctx.agent.rest.pulls.list, {
    ...repoParams(ctx),
    state: 'open',
    head: `${ctx.owner}:${branch}`,
    per_page: 100,
  })
  const {data: repository} = await ctx.agent.rest.repos.get(repoParams(ctx))
  const base = definition.ownBase?.(seedId) ?? repository.default_branch
  const pull: OpenedPull = open[0] ?? (await openPull(ctx, kind, seedId, {base, from: repository.default_branch}))
  const baseSha = definition.ownBase ? await moveOwnBaseOn(ctx, kind, seedId, base) : undefined
  // The seeded head is the fixture's own commit: a pull request found again may carry commits a run pushed (one killed before its reset).
  const headSha = open[0]
    ? ((await fixtureCommit(ctx, pull.number, `Fixture ${kind}`)) ?? pull.head.sha)
    : pull.head.sha
  const threads = await startThreads(ctx, definition, pull, seedId)
  if (definition.statuses) await seedStatuses(ctx, headSha, definition.statuses)
  await seedCheckRun(ctx, headSha)
  const review = definition.review ? await seedReview(ctx, pull.number, headSha, definition.review) : undefined
  const resource = pullResource(ctx, definition, pull, {
    branch,
    file: definition.path(seedId),
    base,
    title: definition.title(seedId),
    body: pullBody(kind),
    headSha,
    ...(baseSha ? {baseSha} : {}),
    threads,
    ...(review ? {review} : {}),
  })
  await resetPull(ctx, resource)
  return resource
}

const pullBody = (kind: PullKindName) => `Fixture for ghx-bench scenarios (${kind}).`

/**
 * Opens the fixture's pull request: its base of its own (cut `from` the default branch) where the kind has
 * one, its branch and file (unless a seeding interrupted earlier made them), then the default base moved
 * on where the kind asks (an own base moves on in moveOwnBaseOn).
 */
async function openPull(
  ctx: FixtureContext,
  kind: PullKindName,
  seedId: string,
  {base, from}: {base: string; from: string},
): Promise<OpenedPull> {
  const definition: PullKind = PULL_KINDS[kind]
  const branch = definition.branch(seedId)
  const author = client(ctx, definition.author)
  const repo = repoParams(ctx)
  if ((await branchHead(ctx, branch)) === undefined) {
    if (definition.ownBase && (await branchHead(ctx, base)) === undefined)
      await ctx.agent.rest.git.createRef({...repo, ref: `refs/heads/${base}`, sha: (await branchHead(ctx, from))!})
    for (const [path, content] of Object.entries(definition.baseFiles?.(seedId) ?? {}))
      await writeFile(ctx, ctx.agent, {path, branch: base, message: `Fixture ${kind}: the base's code`, content})
    await author.rest.git.createRef({...repo, ref: `refs/heads/${branch}`, sha: (await branchHead(ctx, base))!})
    await writeFile(ctx, author, {
      path: definition.path(seedId),
      branch,
      message: `Fixture ${kind}`,
      content: definition.content(seedId),
    })
  }
  const created: OpenedPull = (
    await author.rest.pulls.create({...repo, title: definition.title(seedId), body: pullBody(kind), head: branch, base})
  ).data
  await ctx.agent.rest.issues.addLabels({
    ...repo,
    issue_number: created.number,
    labels: [FIXTURE_LABEL.name, seedLabel(ctx.seedId).name],
  })
  if (!definition.ownBase)
    for (const [path, content] of Object.entries(definition.baseMovesOn?.(seedId) ?? {}))
      await writeFile(ctx, ctx.agent, {path, branch: base, message: 'Move the base on', content})
  return created
}

/** A branch's head commit, or undefined when it does not exist. */
async function branchHead(ctx: FixtureContext, branch: string): Promise<string | undefined> {
  return ctx.agent.rest.git.getRef({...repoParams(ctx), ref: `heads/${branch}`}).then(
    (r) => r.data.object.sha,
    () => undefined,
  )
}

/** Points a branch at a commit: made again if deleted, moved back (forced) if it moved. */
async function putBranchAt(ctx: FixtureContext, branch: string, sha: string): Promise<void> {
  const repo = repoParams(ctx)
  const head = await branchHead(ctx, branch)
  if (head === undefined) await ctx.agent.rest.git.createRef({...repo, ref: `refs/heads/${branch}`, sha})
  else if (head !== sha) await ctx.agent.rest.git.updateRef({...repo, ref: `heads/${branch}`, sha, force: true})
}

/**
 * The own base's seeded commit: the kind's files moved on there once the pull request is open, found
 * again by its message when a seeding did so before (a run may have pushed on top since).
 */
async function moveOwnBaseOn(ctx: FixtureContext, kind: PullKindName, seedId: string, base: string): Promise<string> {
  const message = `Fixture ${kind}: the base moves on`
  const {data: commits} = await ctx.agent.rest.repos.listCommits({...repoParams(ctx), sha: base, per_page: 100})
  const moved = commits.find((c) => c.commit.message === message)
  if (moved) return moved.sha
  const definition: PullKind = PULL_KINDS[kind]
  for (const [path, content] of Object.entries(definition.baseMovesOn?.(seedId) ?? {}))
    await writeFile(ctx, ctx.agent, {path, branch: base, message, content})
  return (await branchHead(ctx, base))!
}

/** The kind's review threads, those it lacks started in order: a seeding interrupted after the pull request was opened completes here. */
async function startThreads(ctx: FixtureContext, definition: PullKind, pull: OpenedPull, seedId: string) {
  const started = await listThreads(ctx, pull.number)
  for (const thread of definition.threads.slice(started.length)) {
    await ctx.second.rest.pulls.createReviewComment({
      ...repoParams(ctx),
      pull_number: pull.number,
      body: thread.body,
      path: definition.path(seedId),
      line: thread.line,
      side: 'RIGHT',
      commit_id: pull.head.sha,
    })
  }
  return started.length < definition.threads.length ? await listThreads(ctx, pull.number) : started
}

/** What the manifest records of a seeded pull request, with the thread ids and counts scenarios bind to. */
function pullResource(
  ctx: FixtureContext,
  definition: PullKind,
  pull: OpenedPull,
  seeded: {
    branch: string
    file: string
    base: string
    title: string
    body: string
    headSha: string
    baseSha?: string
    threads: Awaited<ReturnType<typeof listThreads>>
    review?: Awaited<ReturnType<typeof seedReview>>
  },
): PullResource {
  const {branch, file, base, baseSha, title, body, headSha, threads, review} = seeded
  const resource: PullResource = {
    number: pull.number,
    id: pull.id,
    node_id: pull.node_id,
    url: pull.html_url,
    head: branch,
    file,
    seeded: {
      title,
      body,
      head_sha: headSha,
      threads: definition.threads.map((seed, i) => ({
        ...seed,
        id: threads[i]!.id,
        comment_id: threads[i]!.firstCommentId,
      })),
      base,
      ...(baseSha ? {base_sha: baseSha} : {}),
      labels: [FIXTURE_LABEL.name, seedLabel(ctx.seedId).name],
      assignees: [],
      draft: false,
      ...(review ? {review} : {}),
    },
  }
  const resolvedThread = resource.seeded.threads.find((t) => t.resolved)
  const unresolvedThread = resource.seeded.threads.find((t) => !t.resolved)
  if (resolvedThread) resource.resolved_thread_id = resolvedThread.id
  if (unresolvedThread) resource.unresolved_thread_id = unresolvedThread.id
  if (definition.threads.length > 0) {
    resource.thread_count = definition.threads.length
    resource.resolved_count = definition.threads.filter((t) => t.resolved).length
    resource.unresolved_count = definition.threads.filter((t) => !t.resolved).length
  }
  return resource
}

/** Posts the statuses the head commit lacks (a context already there keeps its latest state). */
async function seedStatuses(ctx: FixtureContext, sha: string, statuses: StatusSeed[]): Promise<void> {
  const repo = repoParams(ctx)
  const {data: combined} = await ctx.agent.rest.repos.getCombinedStatusForRef({...repo, ref: sha, per_page: 100})
  for (const status of statuses) {
    const latest = combined.statuses.find((s) => s.context === status.context)
    if (latest?.state === status.state) continue
    await ctx.agent.rest.repos.createCommitStatus({...repo, sha, ...status})
  }
}

/** The check run every fixture's head carries: a CI's, completed and successful (gh pr checks, pr.checks.list). */
const CHECK_RUN = {
  name: 'bench/ci',
  status: 'completed',
  conclusion: 'success',
  output: {title: 'CI passed', summary: 'The fixture’s checks passed.'},
} as const

/** Reports the check run once per head commit, as the second identity (GitHub takes check runs from Apps only). */
async function seedCheckRun(ctx: FixtureContext, sha: string): Promise<void> {
  const repo = repoParams(ctx)
  const {data} = await ctx.agent.rest.checks.listForRef({...repo, ref: sha, per_page: 100})
  if (data.check_runs.some((run) => run.name === CHECK_RUN.name && run.conclusion === CHECK_RUN.conclusion)) return
  await ctx.second.rest.checks.create({...repo, head_sha: sha, ...CHECK_RUN}).catch((error: {status?: number}) => {
    // Live GitHub with a user as the second identity refuses (403: only an App reports check runs): no check run there.
    if (error.status !== 403) throw error
  })
}

const REVIEW_STATES: Record<ReviewSeed['event'], string> = {
  APPROVE: 'APPROVED',
  REQUEST_CHANGES: 'CHANGES_REQUESTED',
  COMMENT: 'COMMENTED',
}

/** The second identity's review with the seed's body (submitted once: a submitted review cannot be deleted). */
async function seedReview(
  ctx: FixtureContext,
  number: number,
  sha: string,
  seed: ReviewSeed,
): Promise<{id: number; state: string; body: string}> {
  const repo = repoParams(ctx)
  const state = REVIEW_STATES[seed.event]
  const reviews = await ctx.agent.paginate(ctx.agent.rest.pulls.listReviews, {
    ...repo,
    pull_number: number,
    per_page: 100,
  })
  const found = reviews.find((r) => r.state === state && r.body === seed.body)
  const review =
    found ??
    (
      await ctx.second.rest.pulls.createReview({
        ...repo,
        pull_number: number,
        commit_id: sha,
        event: seed.event,
        body: seed.body,
      })
    ).data
  return {id: review.id, state, body: seed.body}
}

/** The newest commit of the pull request with the fixture's own message. */
async function fixtureCommit(ctx: FixtureContext, number: number, message: string): Promise<string | undefined> {
  const commits = await ctx.agent.paginate(ctx.agent.rest.pulls.listCommits, {
    ...repoParams(ctx),
    pull_number: number,
    per_page: 100,
  })
  return commits.filter((c) => c.commit.message === message).at(-1)?.sha
}

interface ThreadInfo {
  id: string
  isResolved: boolean
  firstCommentId: number
  replies: number[]
}

async function listThreads(ctx: FixtureContext, number: number): Promise<ThreadInfo[]> {
  const data = await ctx.agent.graphql<{
    repository: {
      pullRequest: {
        reviewThreads: {nodes: Array<{id: string; isResolved: boolean; comments: {nodes: Array<{databaseId: number}>}}>}
      }
    }
  }>(
    'query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { pullRequest(number: $number) { reviewThreads(first: 100) { nodes { id isResolved comments(first: 100) { nodes { databaseId } } } } } } }',
    {owner: ctx.owner, name: ctx.name, number},
  )
  return data.repository.pullRequest.reviewThreads.nodes.map((t) => ({
    id: t.id,
    isResolved: t.isResolved,
    firstCommentId: t.comments.nodes[0]!.databaseId,
    replies: t.comments.nodes.slice(1).map((c) => c.databaseId),
  }))
}

// ---- reading the state --------------------------------------------------------------------------

interface Reaction {
  content: string
  login: string | null
}

interface ThreadComment {
  id: number
  node_id: string
  login: string | null
  body: string
  reactions: Reaction[]
}

interface PullState {
  node_id: string
  title: string
  body: string
  /** open, closed, or merged. */
  state: string
  draft: boolean
  base: string
  head: string
  head_sha: string
  labels: string[]
  assignees: string[]
  /** Users, and teams as `team:<slug>`. */
  requested_reviewers: string[]
  reviews: Array<{id: number; state: string; login: string | null; body: string}>
  threads: Array<{id: string; path: string; line: number | null; resolved: boolean; comments: ThreadComment[]}>
  comments: Array<{id: number; text: string}>
  reactions: Reaction[]
}

type GraphReactions = {nodes: Array<{content: string; user: {login: string} | null}>}

const PULL_GRAPH = `query($owner: String!, $name: String!, $number: Int!) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      id
      isDraft
      reactions(first: 100) { nodes { content user { login } } }
      reviewThreads(first: 100) {
        nodes {
          id isResolved path line
          comments(first: 100) { nodes { id databaseId body author { login } reactions(first: 100) { nodes { content user { login } } } } }
        }
      }
    }
  }
}`

const reactionsOf = (graph: GraphReactions): Reaction[] =>
  graph.nodes.map((r) => ({content: r.content, login: r.user?.login ?? null}))

/** Everything a scenario may change on a pull request, read through REST and GraphQL. */
async function readPullState(ctx: FixtureContext, number: number): Promise<PullState> {
  const repo = repoParams(ctx)
  const {agent} = ctx
  const [pull, reviews, comments, graph] = await Promise.all([
    agent.rest.pulls.get({...repo, pull_number: number}).then((r) => r.data),
    agent.paginate(agent.rest.pulls.listReviews, {...repo, pull_number: number, per_page: 100}),
    agent.paginate(agent.rest.issues.listComments, {...repo, issue_number: number, per_page: 100}),
    agent.graphql<{
      repository: {
        pullRequest: {
          id: string
          isDraft: boolean
          reactions: GraphReactions
          reviewThreads: {
            nodes: Array<{
              id: string
              isResolved: boolean
              path: string
              line: number | null
              comments: {
                nodes: Array<{
                  id: string
                  databaseId: number
                  body: string
                  author: {login: string} | null
                  reactions: GraphReactions
                }>
              }
            }>
          }
        }
      }
    }>(PULL_GRAPH, {owner: ctx.owner, name: ctx.name, number}),
  ])
  const node = graph.repository.pullRequest
  return {
    node_id: node.id,
    title: pull.title,
    body: pull.body ?? '',
    state: pull.merged ? 'merged' : pull.state,
    draft: node.isDraft,
    base: pull.base.ref,
    head: pull.head.ref,
    head_sha: pull.head.sha,
    labels: pull.labels.map((l) => l.name),
    assignees: (pull.assignees ?? []).map((a) => a.login),
    requested_reviewers: [
      ...(pull.requested_reviewers ?? []).map((u) => u.login),
      ...(pull.requested_teams ?? []).map((t) => `team:${t.slug}`),
    ],
    reviews: reviews.map((r) => ({id: r.id, state: r.state, login: r.user?.login ?? null, body: r.body ?? ''})),
    threads: node.reviewThreads.nodes.map((t) => ({
      id: t.id,
      path: t.path,
      line: t.line,
      resolved: t.isResolved,
      comments: t.comments.nodes.map((c) => ({
        id: c.databaseId,
        node_id: c.id,
        login: c.author?.login ?? null,
        body: c.body,
        reactions: reactionsOf(c.reactions),
      })),
    })),
    comments: comments.map((c) => ({id: c.id, text: commentText(c)})),
    reactions: reactionsOf(node.reactions),
  }
}

const reactionTexts = (reactions: Reaction[]) =>
  sorted(reactions.map((r) => reactionText({content: r.content, user: r.login === null ? null : {login: r.login}})))

/**
 * The pull request's normalized state. Reviews are listed by state, author and body; a COMMENTED
 * review without a body only carries comments, which the threads show (a thread reply makes one,
 * and deleting the reply cannot remove it). Threads are keyed by `path:line`.
 */
function pullSnapshot(state: PullState): Snapshot {
  const threads: Record<string, Snapshot> = {}
  for (const thread of state.threads) {
    let key = `${thread.path}:${thread.line ?? 'file'}`
    for (let n = 2; threads[key]; n++) key = `${thread.path}:${thread.line ?? 'file'} (${n})`
    threads[key] = {
      resolved: thread.resolved,
      comments: thread.comments.map((c) => `${c.login ?? 'ghost'}: ${c.body}`),
      reactions: reactionTexts(thread.comments.flatMap((c) => c.reactions)),
    }
  }
  return {
    title: state.title,
    body: state.body,
    state: state.state,
    draft: state.draft,
    base: state.base,
    head: state.head,
    head_sha: state.head_sha,
    labels: sorted(state.labels),
    assignees: sorted(state.assignees),
    requested_reviewers: sorted(state.requested_reviewers),
    reviews: sorted(
      state.reviews
        .filter((r) => r.state !== 'COMMENTED' || r.body)
        .map((r) => `${r.state} by ${r.login ?? 'ghost'}${r.body ? `: ${r.body}` : ''}`),
    ),
    threads,
    comments: state.comments.map((c) => c.text),
    reactions: reactionTexts(state.reactions),
  }
}

async function snapshotPull(ctx: FixtureContext, resource: PullResource): Promise<Snapshot> {
  return pullSnapshot(await readPullState(ctx, resource.number))
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  sorted(a.map((s) => s.toLowerCase())).join('\n') === sorted(b.map((s) => s.toLowerCase())).join('\n')

/**
 * Back to the seeded state: the head branch (and a base of the fixture's own) at its seeded commit
 * (recreated if deleted), title, body, base, open, not a draft, the seeded labels and no assignees, no
 * requested reviewers, no pending review, no conversation comments or reactions, the seeded threads
 * with their seeded resolution, bodies and no replies or reactions, no other review comments. Submitted reviews and merges cannot
 * be undone on GitHub: scenarios that make them seed per iteration instead (the digest reports them).
 */
export async function resetPull(ctx: FixtureContext, resource: PullResource): Promise<void> {
  const repo = repoParams(ctx)
  const {seeded} = resource
  const state = await readPullState(ctx, resource.number)
  const merged = state.state === 'merged'
  // Before reopening: GitHub reopens a pull request only while its head and base branches exist.
  if (!merged) await putBranchAt(ctx, resource.head, seeded.head_sha)
  if (seeded.base !== undefined && seeded.base_sha !== undefined) await putBranchAt(ctx, seeded.base, seeded.base_sha)
  // Reopened first, on its own: GitHub refuses to change a closed pull request's base, even in the request that reopens it.
  if (state.state === 'closed')
    await ctx.agent.rest.pulls.update({...repo, pull_number: resource.number, state: 'open'})
  const update: {title?: string; body?: string; base?: string} = {}
  if (state.title !== seeded.title) update.title = seeded.title
  if (state.body !== seeded.body) update.body = seeded.body
  if (seeded.base !== undefined && state.base !== seeded.base && !merged) update.base = seeded.base
  if (Object.keys(update).length > 0)
    await ctx.agent.rest.pulls.update({...repo, pull_number: resource.number, ...update})
  const issuePatch: {labels?: string[]; assignees?: string[]} = {}
  if (seeded.labels !== undefined && !sameSet(state.labels, seeded.labels)) issuePatch.labels = seeded.labels
  if (seeded.assignees !== undefined && !sameSet(state.assignees, seeded.assignees))
    issuePatch.assignees = seeded.assignees
  if (Object.keys(issuePatch).length > 0)
    await ctx.agent.rest.issues.update({...repo, issue_number: resource.number, ...issuePatch})
  if (state.draft !== (seeded.draft ?? false) && !merged) {
    const mutation = seeded.draft ? 'convertPullRequestToDraft' : 'markPullRequestReadyForReview'
    await ctx.agent.graphql(`mutation($id: ID!) { ${mutation}(input: {pullRequestId: $id}) { pullRequest { id } } }`, {
      id: state.node_id,
    })
  }
  const users = state.requested_reviewers.filter((r) => !r.startsWith('team:'))
  const teams = state.requested_reviewers.filter((r) => r.startsWith('team:')).map((t) => t.slice('team:'.length))
  if (users.length + teams.length > 0)
    await ctx.agent.rest.pulls.removeRequestedReviewers({
      ...repo,
      pull_number: resource.number,
      reviewers: users,
      team_reviewers: teams,
    })
  for (const comment of state.comments) await ctx.agent.rest.issues.deleteComment({...repo, comment_id: comment.id})
  await removeReactions(ctx, state.node_id, state.reactions)
  // A pending review takes its comments with it; submitted ones cannot be deleted.
  for (const review of state.reviews.filter((r) => r.state === 'PENDING')) {
    await (
      await clientFor(ctx, review.login)
    ).rest.pulls.deletePendingReview({...repo, pull_number: resource.number, review_id: review.id})
  }
  const seededComments = new Map(seeded.threads.map((t) => [t.comment_id, t]))
  const comments = await ctx.agent.paginate(ctx.agent.rest.pulls.listReviewComments, {
    ...repo,
    pull_number: resource.number,
    per_page: 100,
  })
  for (const comment of comments) {
    const seed = seededComments.get(comment.id)
    if (!seed)
      await (await clientFor(ctx, comment.user.login)).rest.pulls.deleteReviewComment({...repo, comment_id: comment.id})
    else if (comment.body !== seed.body)
      await (
        await clientFor(ctx, comment.user.login)
      ).rest.pulls.updateReviewComment({...repo, comment_id: comment.id, body: seed.body})
  }
  for (const thread of state.threads) {
    for (const comment of thread.comments)
      if (seededComments.has(comment.id)) await removeReactions(ctx, comment.node_id, comment.reactions)
    const seed = seeded.threads.find((t) => t.id === thread.id)
    if (!seed || thread.resolved === seed.resolved) continue
    const mutation = seed.resolved ? 'resolveReviewThread' : 'unresolveReviewThread'
    await ctx.second.graphql(`mutation($id: ID!) { ${mutation}(input: {threadId: $id}) { thread { id } } }`, {
      id: seed.id,
    })
  }
}

/** What differs from the seeded state. */
export async function pullStatus(ctx: FixtureContext, resource: PullResource): Promise<string[]> {
  const repo = repoParams(ctx)
  let pull
  try {
    pull = (await ctx.agent.rest.pulls.get({...repo, pull_number: resource.number})).data
  } catch (error) {
    return [`pull request #${resource.number} cannot be read: ${(error as Error).message}`]
  }
  const problems: string[] = []
  if (pull.merged) problems.push('merged (cannot be undone: seed per iteration)')
  else if (pull.state !== 'open') problems.push('closed')
  if (pull.title !== resource.seeded.title) problems.push(`title is "${pull.title}", seeded "${resource.seeded.title}"`)
  if (!pull.merged && pull.head.sha !== resource.seeded.head_sha) problems.push('head branch moved since seeding')
  const {base, base_sha: baseSha} = resource.seeded
  if (base !== undefined && baseSha !== undefined && (await branchHead(ctx, base)) !== baseSha)
    problems.push(`base branch ${base} moved since seeding`)
  if ((pull.requested_reviewers ?? []).length > 0) problems.push('reviews requested since seeding')
  const threads = await listThreads(ctx, resource.number)
  if (threads.length !== resource.seeded.threads.length)
    problems.push(`${threads.length} review threads, seeded ${resource.seeded.threads.length}`)
  for (const seed of resource.seeded.threads) {
    const thread = threads.find((t) => t.id === seed.id)
    if (!thread) problems.push(`seeded thread on line ${seed.line} is gone`)
    else {
      if (thread.isResolved !== seed.resolved)
        problems.push(
          `thread on line ${seed.line} is ${thread.isResolved ? 'resolved' : 'unresolved'}, seeded ${seed.resolved ? 'resolved' : 'unresolved'}`,
        )
      if (thread.replies.length > 0)
        problems.push(
          `thread on line ${seed.line} has ${thread.replies.length} repl${thread.replies.length === 1 ? 'y' : 'ies'}`,
        )
    }
  }
  const reviews = (
    await ctx.agent.paginate(ctx.agent.rest.pulls.listReviews, {...repo, pull_number: resource.number, per_page: 100})
  ).filter((r) => (r.body || r.state !== 'COMMENTED') && r.id !== resource.seeded.review?.id)
  if (reviews.length > 0) problems.push(`${reviews.length} submitted review(s) (cannot be undone: seed per iteration)`)
  return problems
}

/** The entry of a pull request kind; every one is reviewed, commented or opened by the second identity. */
export function pullKind(kind: PullKindName): FixtureKindEntry {
  return fixtureKind(kind, {
    is: (resource): resource is PullResource => hasFields(resource, {number: 'number', head: 'string'}),
    seed: (ctx, {suffix}) => seedPull(ctx, kind, suffix),
    reset: (ctx, resource) => resetPull(ctx, resource),
    snapshot: snapshotPull,
    status: pullStatus,
    statusFields: ['state', 'title', 'head_sha', 'requested_reviewers', 'threads', 'reviews'],
    label: (resource) => `pull request #${String(resource.number)}`,
    needsSecondIdentity: true,
  })
}
