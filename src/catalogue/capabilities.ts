/**
 * The ghx capability ids (the predecessors' 74 operation cards). Scenarios name them as atomic
 * tasks, checkpoint tasks and expected capabilities; `mutation` marks those that change GitHub,
 * which read-only sets and suites refuse.
 */

const READ = 'read'
const MUTATION = 'mutation'
type Kind = typeof READ | typeof MUTATION

const table: Record<string, Kind> = {
  'issue.view': READ,
  'issue.list': READ,
  'issue.create': MUTATION,
  'issue.update': MUTATION,
  'issue.close': MUTATION,
  'issue.reopen': MUTATION,
  'issue.delete': MUTATION,
  'issue.comments.list': READ,
  'issue.comments.create': MUTATION,
  'issue.labels.add': MUTATION,
  'issue.labels.remove': MUTATION,
  'issue.labels.set': MUTATION,
  'issue.assignees.add': MUTATION,
  'issue.assignees.remove': MUTATION,
  'issue.assignees.set': MUTATION,
  'issue.milestone.set': MUTATION,
  'issue.milestone.clear': MUTATION,
  'issue.relations.view': READ,
  'issue.relations.prs.list': READ,
  'issue.relations.parent.set': MUTATION,
  'issue.relations.parent.remove': MUTATION,
  'issue.relations.blocked_by.add': MUTATION,
  'issue.relations.blocked_by.remove': MUTATION,
  'pr.view': READ,
  'pr.list': READ,
  'pr.create': MUTATION,
  'pr.update': MUTATION,
  'pr.close': MUTATION,
  'pr.merge': MUTATION,
  'pr.merge.status': READ,
  'pr.branch.update': MUTATION,
  'pr.diff.view': READ,
  'pr.diff.files': READ,
  'pr.checks.list': READ,
  'pr.checks.rerun.all': MUTATION,
  'pr.checks.rerun.failed': MUTATION,
  'pr.comments.create': MUTATION,
  'pr.comments.reactions.list': READ,
  'pr.reactions.list': READ,
  'pr.reviews.list': READ,
  'pr.reviews.request': MUTATION,
  'pr.reviews.submit': MUTATION,
  'pr.threads.list': READ,
  'pr.threads.reply': MUTATION,
  'pr.threads.resolve': MUTATION,
  'pr.threads.unresolve': MUTATION,
  'pr.assignees.add': MUTATION,
  'pr.assignees.remove': MUTATION,
  'workflow.list': READ,
  'workflow.view': READ,
  'workflow.dispatch': MUTATION,
  'workflow.runs.list': READ,
  'workflow.run.view': READ,
  'workflow.run.cancel': MUTATION,
  'workflow.run.rerun.all': MUTATION,
  'workflow.run.rerun.failed': MUTATION,
  'workflow.run.artifacts.list': READ,
  'workflow.job.logs.view': READ,
  'workflow.job.logs.raw': READ,
  'project_v2.org.view': READ,
  'project_v2.user.view': READ,
  'project_v2.fields.list': READ,
  'project_v2.items.list': READ,
  'project_v2.items.issue.add': MUTATION,
  'project_v2.items.issue.remove': MUTATION,
  'project_v2.items.field.update': MUTATION,
  'release.list': READ,
  'release.view': READ,
  'release.create': MUTATION,
  'release.update': MUTATION,
  'release.publish': MUTATION,
  'repo.view': READ,
  'repo.labels.list': READ,
  'repo.issue_types.list': READ,
}

export const CAPABILITY_IDS: readonly string[] = Object.keys(table)

export function isCapability(id: string): boolean {
  return Object.hasOwn(table, id)
}

export function isMutation(id: string): boolean {
  return table[id] === MUTATION
}

/** The tags that mark a scenario as changing GitHub (the predecessors used both spellings). */
export const MUTATION_TAGS = ['mutation', 'mutations'] as const
