/**
 * GitHub operations as the tool accounting names them, like the catalogue's capabilities
 * (issue.labels.add), so that per-operation counts compare across arms: a `gh` command (`gh api` REST
 * routes and GraphQL fields included) and a GitHub MCP server's tool, each mapped to its operation.
 */
import {isMutation} from '../catalogue/capabilities.js'

/** `gh <noun> <verb>` -> operation; a flag may refine it (gh issue edit --add-label). */
const GH_COMMANDS: Record<string, string | Array<[RegExp | null, string]>> = {
  'issue view': 'issue.view',
  'issue list': 'issue.list',
  'issue create': 'issue.create',
  'issue close': 'issue.close',
  'issue reopen': 'issue.reopen',
  'issue comment': 'issue.comments.create',
  'issue edit': [
    [/--add-label/, 'issue.labels.add'],
    [/--remove-label/, 'issue.labels.remove'],
    [/--add-assignee/, 'issue.assignees.add'],
    [/--remove-assignee/, 'issue.assignees.remove'],
    [/--milestone/, 'issue.milestone.set'],
    [null, 'issue.update'],
  ],
  'pr view': 'pr.view',
  'pr list': 'pr.list',
  'pr diff': 'pr.diff.view',
  'pr create': 'pr.create',
  'pr merge': 'pr.merge',
  'pr checks': 'pr.checks.list',
  'pr comment': 'pr.comments.create',
  'pr review': 'pr.reviews.submit',
  'pr edit': [
    [/--add-reviewer/, 'pr.reviews.request'],
    [null, 'pr.update'],
  ],
  'run view': [
    [/--log/, 'workflow.job.logs.view'],
    [null, 'workflow.run.view'],
  ],
  'run list': 'workflow.runs.list',
  'run rerun': [
    [/--failed/, 'workflow.run.rerun.failed'],
    [null, 'workflow.run.rerun.all'],
  ],
  'run cancel': 'workflow.run.cancel',
  'workflow run': 'workflow.dispatch',
  'workflow list': 'workflow.list',
  'workflow view': 'workflow.view',
  'release view': 'release.view',
  'release list': 'release.list',
  'release create': 'release.create',
  'release edit': 'release.update',
  'repo view': 'repo.view',
  'label list': 'repo.labels.list',
  'label create': 'repo.labels.create',
}

/** `gh api` REST calls: method + path (owner/repo and numbers abstracted) -> operation. */
const REST_ROUTES: Array<[string, RegExp, string]> = [
  ['GET', /^repos\/[^/]+\/[^/]+$/, 'repo.view'],
  ['GET', /^repos\/[^/]+\/[^/]+\/labels$/, 'repo.labels.list'],
  ['GET', /^repos\/[^/]+\/[^/]+\/issue-types$/, 'repo.issue_types.list'],
  ['GET', /^repos\/[^/]+\/[^/]+\/issues$/, 'issue.list'],
  ['POST', /^repos\/[^/]+\/[^/]+\/issues$/, 'issue.create'],
  ['GET', /^repos\/[^/]+\/[^/]+\/issues\/\d+$/, 'issue.view'],
  ['PATCH', /^repos\/[^/]+\/[^/]+\/issues\/\d+$/, 'issue.update'],
  ['GET', /^repos\/[^/]+\/[^/]+\/issues\/\d+\/comments$/, 'issue.comments.list'],
  ['POST', /^repos\/[^/]+\/[^/]+\/issues\/\d+\/comments$/, 'issue.comments.create'],
  ['POST', /^repos\/[^/]+\/[^/]+\/issues\/\d+\/labels$/, 'issue.labels.add'],
  ['PUT', /^repos\/[^/]+\/[^/]+\/issues\/\d+\/labels$/, 'issue.labels.set'],
  ['DELETE', /^repos\/[^/]+\/[^/]+\/issues\/\d+\/labels\/.+$/, 'issue.labels.remove'],
  ['POST', /^repos\/[^/]+\/[^/]+\/issues\/\d+\/assignees$/, 'issue.assignees.add'],
  ['POST', /^repos\/[^/]+\/[^/]+\/issues\/\d+\/sub_issues$/, 'issue.relations.parent.set'],
  ['GET', /^repos\/[^/]+\/[^/]+\/issues\/\d+\/dependencies\/blocked_by$/, 'issue.relations.view'],
  ['POST', /^repos\/[^/]+\/[^/]+\/issues\/\d+\/dependencies\/blocked_by$/, 'issue.relations.blocked_by.add'],
  ['GET', /^repos\/[^/]+\/[^/]+\/pulls$/, 'pr.list'],
  ['GET', /^repos\/[^/]+\/[^/]+\/pulls\/\d+$/, 'pr.view'],
  ['PATCH', /^repos\/[^/]+\/[^/]+\/pulls\/\d+$/, 'pr.update'],
  ['GET', /^repos\/[^/]+\/[^/]+\/pulls\/\d+\/files$/, 'pr.diff.files'],
  ['GET', /^repos\/[^/]+\/[^/]+\/pulls\/\d+\/reviews$/, 'pr.reviews.list'],
  ['GET', /^repos\/[^/]+\/[^/]+\/pulls\/\d+\/comments$/, 'pr.review_comments.list'],
  ['POST', /^repos\/[^/]+\/[^/]+\/pulls\/\d+\/comments$/, 'pr.review_comments.create'],
  ['POST', /^repos\/[^/]+\/[^/]+\/pulls\/\d+\/reviews$/, 'pr.reviews.submit'],
  ['POST', /^repos\/[^/]+\/[^/]+\/pulls\/\d+\/requested_reviewers$/, 'pr.reviews.request'],
  ['PUT', /^repos\/[^/]+\/[^/]+\/pulls\/\d+\/merge$/, 'pr.merge'],
  ['PUT', /^repos\/[^/]+\/[^/]+\/pulls\/\d+\/update-branch$/, 'pr.branch.update'],
  ['GET', /^repos\/[^/]+\/[^/]+\/commits\/[^/]+\/check-runs$/, 'pr.checks.list'],
  ['DELETE', /^repos\/[^/]+\/[^/]+\/git\/refs\/heads\/.+$/, 'repo.branches.delete'],
  ['GET', /^repos\/[^/]+\/[^/]+\/releases$/, 'release.list'],
  ['POST', /^repos\/[^/]+\/[^/]+\/releases$/, 'release.create'],
  ['PATCH', /^repos\/[^/]+\/[^/]+\/releases\/\d+$/, 'release.update'],
  ['GET', /^repos\/[^/]+\/[^/]+\/actions\/workflows$/, 'workflow.list'],
  ['GET', /^repos\/[^/]+\/[^/]+\/actions\/workflows\/[^/]+$/, 'workflow.view'],
  ['POST', /^repos\/[^/]+\/[^/]+\/actions\/workflows\/[^/]+\/dispatches$/, 'workflow.dispatch'],
  ['GET', /^repos\/[^/]+\/[^/]+\/actions\/runs\/\d+$/, 'workflow.run.view'],
  ['GET', /^repos\/[^/]+\/[^/]+\/actions\/runs\/\d+\/artifacts$/, 'workflow.run.artifacts.list'],
  ['POST', /^repos\/[^/]+\/[^/]+\/actions\/runs\/\d+\/cancel$/, 'workflow.run.cancel'],
  ['POST', /^repos\/[^/]+\/[^/]+\/actions\/runs\/\d+\/rerun$/, 'workflow.run.rerun.all'],
  ['POST', /^repos\/[^/]+\/[^/]+\/actions\/runs\/\d+\/rerun-failed-jobs$/, 'workflow.run.rerun.failed'],
  ['GET', /^repos\/[^/]+\/[^/]+\/actions\/jobs\/\d+\/logs$/, 'workflow.job.logs.view'],
]

/** GraphQL fields and mutations -> operation; the first that appears in the query wins. */
const GRAPHQL_FIELDS: Array<[RegExp, string]> = [
  [/addPullRequestReviewThreadReply/, 'pr.threads.reply'],
  [/unresolveReviewThread/, 'pr.threads.unresolve'],
  [/resolveReviewThread/, 'pr.threads.resolve'],
  [/updateProjectV2ItemFieldValue/, 'project_v2.items.field.update'],
  [/addProjectV2ItemById/, 'project_v2.items.issue.add'],
  [/reviewThreads/, 'pr.threads.list'],
  [/closedByPullRequestsReferences/, 'issue.relations.prs.list'],
  [/projectV2\s*\([^)]*\)\s*\{\s*items/, 'project_v2.items.list'],
  [/projectV2\s*\([^)]*\)\s*\{\s*fields/, 'project_v2.fields.list'],
  [/subIssues|parent\s*\{/, 'issue.relations.view'],
  [/projectV2\s*\(/, 'project_v2.user.view'],
]

/** Tools of GitHub MCP servers -> operation; update_issue is refined by its arguments. */
const MCP_TOOLS: Record<string, string | ((args: Record<string, unknown>) => string)> = {
  get_issue: 'issue.view',
  list_issues: 'issue.list',
  search_issues: 'issue.search',
  create_issue: 'issue.create',
  add_issue_comment: 'issue.comments.create',
  update_issue: (args) =>
    args.state === 'closed'
      ? 'issue.close'
      : args.state === 'open'
        ? 'issue.reopen'
        : args.labels
          ? 'issue.labels.set'
          : args.assignees
            ? 'issue.assignees.set'
            : args.milestone !== undefined
              ? 'issue.milestone.set'
              : 'issue.update',
  get_pull_request: 'pr.view',
  list_pull_requests: 'pr.list',
  create_pull_request: 'pr.create',
  get_pull_request_files: 'pr.diff.files',
  get_pull_request_reviews: 'pr.reviews.list',
  create_pull_request_review: 'pr.reviews.submit',
  merge_pull_request: 'pr.merge',
  update_pull_request_branch: 'pr.branch.update',
  get_pull_request_status: 'pr.status.view',
  get_pull_request_comments: 'pr.review_comments.list',
  // GitHub's official server (github-mcp-server) folds several operations into one tool with a `method`.
  issue_read: (args) =>
    ({
      get: 'issue.view',
      get_comments: 'issue.comments.list',
      get_labels: 'issue.labels.list',
      get_sub_issues: 'issue.relations.view',
    })[String(args.method)] ?? 'issue.view',
  issue_write: (args) =>
    args.method === 'create' ? 'issue.create' : args.state === 'closed' ? 'issue.close' : 'issue.update',
  pull_request_read: (args) =>
    ({
      get: 'pr.view',
      get_diff: 'pr.diff.view',
      get_files: 'pr.diff.files',
      get_reviews: 'pr.reviews.list',
      get_review_comments: 'pr.threads.list',
      get_status: 'pr.checks.list',
      get_comments: 'pr.comments.list',
    })[String(args.method)] ?? 'pr.view',
  // method create without an event only opens a pending review; submit_pending (or create with an event) submits it.
  pull_request_review_write: (args) =>
    args.method === 'delete_pending'
      ? 'pr.reviews.delete_pending'
      : args.method === 'create' && !args.event
        ? 'pr.reviews.create_pending'
        : 'pr.reviews.submit',
  add_comment_to_pending_review: 'pr.reviews.comment',
  update_pull_request: 'pr.update',
  request_copilot_review: 'pr.reviews.request',
  list_workflow_runs: 'workflow.runs.list',
  get_workflow_run: 'workflow.run.view',
  get_job_logs: 'workflow.job.logs.view',
  rerun_failed_jobs: 'workflow.run.rerun.failed',
  rerun_workflow_run: 'workflow.run.rerun.all',
  cancel_workflow_run: 'workflow.run.cancel',
  run_workflow: 'workflow.dispatch',
  list_workflows: 'workflow.list',
  list_releases: 'release.list',
  get_latest_release: 'release.view',
  get_label: 'repo.labels.view',
}

/** The operations of one gh command: one, or for `gh issue edit --remove-label a --add-label b` each that a flag names. */
export function ghOperations(args: readonly string[], text: string): string[] {
  if (args[0] === 'api') {
    const method = (
      args.find((a, i) => (args[i - 1] === '-X' || args[i - 1] === '--method') && a) ??
      args.find((a) => /^(--method=|-X)./.test(a))?.replace(/^(--method=|-X)/, '') ??
      ''
    ).toUpperCase()
    const valued = [
      '-X',
      '--method',
      '-f',
      '-F',
      '--jq',
      '-q',
      '--input',
      '-H',
      '--header',
      '--field',
      '--raw-field',
      '-t',
      '--template',
      '-p',
      '--preview',
      '--hostname',
      '--cache',
    ]
    const target = args.slice(1).find((a, i) => !a.startsWith('-') && !valued.includes(args[i]!))
    if (target === 'graphql') {
      // A mutation's selection may read fields a query pattern names (addSubIssue { issue { parent { … } } }): only a change names it.
      const changes = /\bmutation\b/.test(text)
      return [
        GRAPHQL_FIELDS.find(([pattern, operation]) => pattern.test(text) && (!changes || isMutation(operation)))?.[1] ??
          (changes ? 'graphql.mutation' : 'graphql.other'),
      ]
    }
    if (!target) return []
    const path = target.replace(/^\/+/, '').replace(/\?.*$/, '')
    const hasFields = args.some(
      (a) => a === '-f' || a === '-F' || a === '--field' || a === '--raw-field' || a === '--input',
    )
    const verb = method || (hasFields ? 'POST' : 'GET')
    return [REST_ROUTES.find(([m, pattern]) => m === verb && pattern.test(path))?.[2] ?? `rest.${verb.toLowerCase()}`]
  }
  const entry = GH_COMMANDS[`${args[0]} ${args[1]}`]
  if (entry === undefined) return []
  if (typeof entry === 'string') return [entry]
  // Flags only: a --body that mentions --add-label is no flag.
  const flags = args.filter((a) => a.startsWith('-'))
  const flagged = entry
    .filter(([flag]) => flag !== null && flags.some((a) => flag.test(a)))
    .map(([, operation]) => operation)
  return flagged.length > 0 ? flagged : entry.filter(([flag]) => flag === null).map(([, operation]) => operation)
}

/** The operation of a GitHub MCP server's tool call; `mcp.<tool>` for a tool not mapped. */
export function mcpOperation(tool: string, args: Record<string, unknown>): string {
  const mapped = MCP_TOOLS[tool]
  return typeof mapped === 'function' ? mapped(args) : (mapped ?? `mcp.${tool}`)
}
