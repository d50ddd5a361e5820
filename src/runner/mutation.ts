/**
 * Checkpoint mutation testing, for `validate --calibrate`: once the oracle has passed a scenario
 * (atomic or workflow, in any mode), each change its run made to the state the checkpoints read is
 * undone on its own (the label removed again, the reply deleted, the review dismissed, the issue
 * reopened, a title, body, milestone or release field set back, the new PR closed, the commits pushed
 * to a pull request's head taken off, the run rerun once more), and at least one checkpoint must then fail. A perturbation that
 * every checkpoint survives marks the scenario's checks as weak: they would pass a run that did not
 * do that part of the work. On the sandbox each perturbation starts from the oracle's state, which
 * is restored after it, so perturbations do not mask one another.
 */
import type {GithubClient} from '../github/client.js'
import type {ReadTask} from '../plugins/api.js'
import type {RunGitHub} from '../github/target.js'
import {fillPlaceholders} from '../catalogue/placeholders.js'
import type {Checkpoint, Scenario} from '../schemas/scenario.js'
import type {CheckpointResult} from '../verify/checkpoints.js'

/** What one read task of the checkpoints returned, before or after the agent's run. */
export interface Observation {
  task: string
  input: Record<string, unknown>
  result: unknown
}

interface Perturbation {
  /** What it undoes, for people: `remove label resolved from issue #12`. */
  name: string
  apply(octokit: GithubClient): Promise<void>
}

export interface MutationReport {
  scenario_id: string
  mode: string
  perturbations: Array<{name: string; caught_by: string[]; error?: string}>
  /** Perturbations no checkpoint caught. */
  weak: string[]
  /** Perturbations the target refused (they test nothing): a gap to fix in the harness, not in the scenario. */
  not_applied: string[]
}

type Item = Record<string, unknown>
const items = (value: unknown): Item[] => (Array.isArray(value) ? (value as Item[]) : [])
const object = (value: unknown): Item =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Item) : {}
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : [])
const added = <T>(after: T[], before: T[]) => after.filter((x) => !before.includes(x))

/** Each distinct read (task and filled input) the checkpoints make, run once. */
export async function observe(
  checkpoints: readonly Checkpoint[],
  variables: Record<string, unknown>,
  octokit: GithubClient,
  tasks: {readTask(name: string): ReadTask | undefined},
): Promise<Map<string, Observation>> {
  const out = new Map<string, Observation>()
  for (const checkpoint of checkpoints) {
    const input = fillPlaceholders((checkpoint.input ?? {}) as Record<string, unknown>, variables)
    const key = `${checkpoint.task} ${JSON.stringify(input)}`
    const task = tasks.readTask(checkpoint.task)
    if (out.has(key) || !task) continue
    out.set(key, {task: checkpoint.task, input, result: await task.run(octokit, input).catch(() => null)})
  }
  return out
}

function repoOf(input: Record<string, unknown>) {
  return {owner: String(input.owner), repo: String(input.name)}
}

type Repo = ReturnType<typeof repoOf>

/** Per checkpoint read task, the undo of every change between two observations of it, one perturbation per change. */
const UNDO: Record<string, (before: Observation, after: Observation, repo: Repo) => Perturbation[]> = {
  'issue.view': undoIssue,
  'pr.view': undoPull,
  'release.view': undoRelease,
  'issue.comments.list': undoComments,
  'pr.list': undoPulls,
  'issue.relations.prs.list': undoPulls,
  'pr.reviews.list': undoReviews,
  'pr.threads.list': undoThreads,
  'workflow.run.view': undoRerun,
}

/** The undo of every change between two observations of one read (none for a read nothing undoes). */
function perturbationsOf(before: Observation, after: Observation): Perturbation[] {
  return UNDO[after.task]?.(before, after, repoOf(after.input)) ?? []
}

/** An issue back: its state, labels, assignees, title, body and milestone. */
function undoIssue(before: Observation, after: Observation, repo: Repo): Perturbation[] {
  const out: Perturbation[] = []
  const [b, a] = [before.result, after.result]
  const issue_number = Number(after.input.issueNumber)
  const [was, now] = [object(b), object(a)]
  if (was.state !== now.state) {
    const state = String(was.state).toLowerCase() as 'open' | 'closed'
    out.push({
      name: `issue #${issue_number} back to ${state}`,
      apply: async (o) => void (await o.rest.issues.update({...repo, issue_number, state})),
    })
  }
  for (const label of added(strings(now.labels), strings(was.labels))) {
    out.push({
      name: `remove label ${label} from issue #${issue_number}`,
      apply: async (o) => void (await o.rest.issues.removeLabel({...repo, issue_number, name: label})),
    })
  }
  for (const label of added(strings(was.labels), strings(now.labels))) {
    out.push({
      name: `put label ${label} back on issue #${issue_number}`,
      apply: async (o) => void (await o.rest.issues.addLabels({...repo, issue_number, labels: [label]})),
    })
  }
  const assignees = added(strings(now.assignees), strings(was.assignees))
  if (assignees.length)
    out.push({
      name: `unassign ${assignees.join(', ')} from issue #${issue_number}`,
      apply: async (o) => void (await o.rest.issues.removeAssignees({...repo, issue_number, assignees})),
    })
  for (const field of ['title', 'body'] as const) {
    if (was[field] !== now[field])
      out.push({
        name: `issue #${issue_number}'s ${field} back as it was`,
        apply: async (o) => void (await o.rest.issues.update({...repo, issue_number, [field]: was[field] ?? ''})),
      })
  }
  const milestone = (value: unknown) => (object(value).number === undefined ? null : Number(object(value).number))
  if (milestone(was.milestone) !== milestone(now.milestone)) {
    out.push({
      name: `issue #${issue_number}'s milestone back as it was`,
      apply: async (o) =>
        void (await o.rest.issues.update({...repo, issue_number, milestone: milestone(was.milestone)})),
    })
  }
  return out
}

/** A pull request back: its title, body, review requests, and state (a merge cannot be undone on GitHub: a merged pull request is left as it is). */
function undoPull(before: Observation, after: Observation, repo: Repo): Perturbation[] {
  const out: Perturbation[] = []
  const [b, a] = [before.result, after.result]
  const pull_number = Number(after.input.prNumber)
  const [was, now] = [object(b), object(a)]
  for (const field of ['title', 'body'] as const) {
    if (was[field] !== now[field])
      out.push({
        name: `pull request #${pull_number}'s ${field} back as it was`,
        apply: async (o) => void (await o.rest.pulls.update({...repo, pull_number, [field]: was[field] ?? ''})),
      })
  }
  const reviewers = added(strings(now.requestedReviewers), strings(was.requestedReviewers))
  if (reviewers.length)
    out.push({
      name: `withdraw the review request of #${pull_number} (${reviewers.join(', ')})`,
      apply: async (o) => void (await o.rest.pulls.removeRequestedReviewers({...repo, pull_number, reviewers})),
    })
  if (was.state !== now.state && now.state !== 'MERGED') {
    const state = String(was.state).toLowerCase() as 'open' | 'closed'
    out.push({
      name: `pull request #${pull_number} back to ${state}`,
      apply: async (o) => void (await o.rest.pulls.update({...repo, pull_number, state})),
    })
  }
  // The commits pushed to its head branch taken off again (a force push back to the seeded head).
  if (was.headRefOid !== now.headRefOid && now.state === 'OPEN' && typeof was.headRefOid === 'string') {
    const sha = was.headRefOid
    out.push({
      name: `pull request #${pull_number}'s head branch back to ${sha.slice(0, 7)}`,
      apply: async (o) =>
        void (await o.rest.git.updateRef({...repo, ref: `heads/${String(now.headRefName)}`, sha, force: true})),
    })
  }
  return out
}

/** A release back: its name, notes, draft and prerelease flags. */
function undoRelease(before: Observation, after: Observation, repo: Repo): Perturbation[] {
  const out: Perturbation[] = []
  const [b, a] = [before.result, after.result]
  const [was, now] = [object(b), object(a)]
  const release_id = Number(now.id)
  if (!release_id) return out
  const fields: Array<[string, string]> = [
    ['name', 'name'],
    ['body', 'body'],
    ['isDraft', 'draft'],
    ['isPrerelease', 'prerelease'],
  ]
  for (const [field, param] of fields) {
    if (was[field] !== now[field] && was.id === now.id)
      out.push({
        name: `release ${String(now.tagName)}'s ${field} back as it was`,
        apply: async (o) => void (await o.rest.repos.updateRelease({...repo, release_id, [param]: was[field] ?? ''})),
      })
  }
  return out
}

/** The comments added to an issue, deleted. */
function undoComments(before: Observation, after: Observation, repo: Repo): Perturbation[] {
  const out: Perturbation[] = []
  const [b, a] = [before.result, after.result]
  const ids = added(
    items(a).map((c) => Number(c.id)),
    items(b).map((c) => Number(c.id)),
  )
  if (ids.length) {
    out.push({
      name: `delete the ${ids.length} comment(s) added to #${String(after.input.issueNumber)}`,
      apply: async (o) => {
        for (const comment_id of ids) await o.rest.issues.deleteComment({...repo, comment_id})
      },
    })
  }
  return out
}

/** Pull requests opened (closed, and their closing keyword dropped when they close an issue) and review requests added, withdrawn. */
function undoPulls(before: Observation, after: Observation, repo: Repo): Perturbation[] {
  const out: Perturbation[] = []
  const [b, a] = [before.result, after.result]
  const numbers = added(
    items(a).map((p) => Number(p.number)),
    items(b).map((p) => Number(p.number)),
  )
  for (const pull_number of numbers) {
    out.push({
      name: `close pull request #${pull_number}`,
      apply: async (o) => void (await o.rest.pulls.update({...repo, pull_number, state: 'closed'})),
    })
    if (after.task === 'issue.relations.prs.list') {
      out.push({
        name: `drop the closing keyword from pull request #${pull_number}`,
        apply: async (o) => {
          const {data} = await o.rest.pulls.get({...repo, pull_number})
          await o.rest.pulls.update({
            ...repo,
            pull_number,
            body: (data.body ?? '').replace(/\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s+#\d+/gi, ''),
          })
        },
      })
    }
  }
  const pullsBefore = new Map(items(b).map((p) => [Number(p.number), p]))
  for (const pull of after.task === 'pr.list' ? items(a) : []) {
    const pull_number = Number(pull.number)
    const reviewers = added(strings(pull.requestedReviewers), strings(pullsBefore.get(pull_number)?.requestedReviewers))
    if (reviewers.length) {
      out.push({
        name: `withdraw the review request of #${pull_number} (${reviewers.join(', ')})`,
        apply: async (o) => void (await o.rest.pulls.removeRequestedReviewers({...repo, pull_number, reviewers})),
      })
    }
  }
  return out
}

/** Approvals and requests for changes, dismissed. */
function undoReviews(before: Observation, after: Observation, repo: Repo): Perturbation[] {
  const out: Perturbation[] = []
  const [b, a] = [before.result, after.result]
  const pull_number = Number(after.input.prNumber)
  const known = new Set(items(b).map((r) => Number(r.id)))
  for (const review of items(a).filter(
    (r) => !known.has(Number(r.id)) && (r.state === 'APPROVED' || r.state === 'CHANGES_REQUESTED'),
  )) {
    out.push({
      name: `dismiss review ${String(review.id)} (${String(review.state)}) of #${pull_number}`,
      apply: async (o) =>
        void (await o.rest.pulls.dismissReview({
          ...repo,
          pull_number,
          review_id: Number(review.id),
          message: 'mutation test',
        })),
    })
  }
  return out
}

/** Review threads resolved or unresolved back, and review comments added, deleted. */
function undoThreads(before: Observation, after: Observation, repo: Repo): Perturbation[] {
  const out: Perturbation[] = []
  const [b, a] = [before.result, after.result]
  const pull_number = Number(after.input.prNumber)
  const threadsBefore = new Map(items(b).map((t) => [String(t.id), t]))
  const newComments: string[] = []
  for (const thread of items(a)) {
    const was = threadsBefore.get(String(thread.id))
    const seen = new Set(items(was?.comments).map((c) => String(c.id)))
    newComments.push(
      ...items(thread.comments)
        .map((c) => String(c.id))
        .filter((id) => !seen.has(id)),
    )
    if (was && was.isResolved !== thread.isResolved) {
      const mutation = was.isResolved ? 'resolveReviewThread' : 'unresolveReviewThread'
      out.push({
        name: `${was.isResolved ? 'resolve' : 'unresolve'} thread on line ${String(thread.line)} of #${pull_number} again`,
        apply: async (o) =>
          void (await o.graphql(`mutation($id: ID!) { ${mutation}(input: {threadId: $id}) { thread { id } } }`, {
            id: String(thread.id),
          })),
      })
    }
  }
  if (newComments.length) {
    out.push({
      name: `delete the ${newComments.length} review comment(s) added to #${pull_number}`,
      apply: async (o) => {
        const comments = await o.paginate(o.rest.pulls.listReviewComments, {...repo, pull_number, per_page: 100})
        for (const comment of comments.filter((c) => newComments.includes(c.node_id)))
          await o.rest.pulls.deleteReviewComment({...repo, comment_id: comment.id})
      },
    })
  }
  return out
}

/** A rerun, answered by one more (a run cannot go back to an attempt). */
function undoRerun(before: Observation, after: Observation, repo: Repo): Perturbation[] {
  const out: Perturbation[] = []
  const [b, a] = [before.result, after.result]
  const run_id = Number(after.input.runId)
  if (object(b).attempt !== object(a).attempt) {
    out.push({
      name: `rerun run ${run_id} once more`,
      apply: async (o) => void (await o.rest.actions.reRunWorkflow({...repo, run_id})),
    })
  }
  return out
}

/** Every perturbation that undoes part of what happened between the two observations. */
function perturbations(before: Map<string, Observation>, after: Map<string, Observation>): Perturbation[] {
  const out: Perturbation[] = []
  const names = new Set<string>()
  for (const [key, observation] of after) {
    const previous = before.get(key)
    if (!previous) continue
    for (const p of perturbationsOf(previous, observation)) {
      if (names.has(p.name)) continue
      names.add(p.name)
      out.push(p)
    }
  }
  return out
}

/**
 * Applies each perturbation to the oracle's state, re-evaluates the checkpoints, and restores the
 * sandbox's state before the next one. Checkpoints get a short budget: the sandbox is consistent at once.
 */
export async function mutationTest(input: {
  scenario: Scenario
  mode: string
  before: Map<string, Observation>
  after: Map<string, Observation>
  octokit: GithubClient
  /** The run's GitHub state, saved and restored around each perturbation. */
  sandbox: NonNullable<RunGitHub['states']>
  evaluate: () => Promise<CheckpointResult[]>
}): Promise<MutationReport> {
  const report: MutationReport = {
    scenario_id: input.scenario.id,
    mode: input.mode,
    perturbations: [],
    weak: [],
    not_applied: [],
  }
  for (const perturbation of perturbations(input.before, input.after)) {
    const saved = await input.sandbox.saveState()
    try {
      await perturbation.apply(input.octokit)
      const caught = (await input.evaluate()).filter((c) => !c.passed).map((c) => c.name)
      report.perturbations.push({name: perturbation.name, caught_by: caught})
      if (caught.length === 0) report.weak.push(perturbation.name)
    } catch (error) {
      report.perturbations.push({name: perturbation.name, caught_by: [], error: (error as Error).message})
      report.not_applied.push(`${perturbation.name}: ${(error as Error).message}`)
    } finally {
      await input.sandbox.restoreState(saved)
      await input.sandbox.forgetState(saved)
    }
  }
  return report
}
