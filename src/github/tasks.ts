/**
 * The built-in checkpoint read tasks, named by the ghx capability ids scenarios use, implemented with
 * Octokit — never through ghx, the system under test (the predecessors verified ghx with ghx). List
 * tasks return arrays, object tasks return objects; the shapes are documented in docs/tasks.md, which
 * is generated from these definitions. The module's default export is the built-in plugin
 * `read-tasks-core`: the loader registers these tasks exactly as it registers a plugin's `readTasks`.
 */
import {definePlugin, type JsonSchema, type ReadTask} from '../plugins/api.js'

/** A built-in task documents itself in full (docs/tasks.md). */
export type BuiltInReadTask = ReadTask & Required<Pick<ReadTask, 'description' | 'kind' | 'shape'>>

const text = {type: 'string', minLength: 1} as const
/** A task's parameters: exactly these properties, the `required` ones required. */
const params = (properties: Record<string, unknown>, required: string[]): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
})
/** A repository's task: owner and name, then its own parameters. */
const input = (properties: Record<string, unknown>, required: string[]): JsonSchema =>
  params({owner: text, name: text, ...properties}, ['owner', 'name', ...required])
const positive = {type: 'integer', minimum: 1} as const
const repoOf = (i: Record<string, unknown>) => ({owner: String(i.owner), repo: String(i.name)})
const upper = (value: string | null | undefined) => (value ? value.toUpperCase() : null)
const login = (user: {login: string} | null | undefined) => user?.login ?? null

interface ThreadNode {
  id: string
  path: string
  line: number | null
  isResolved: boolean
  isOutdated: boolean
  resolvedBy: {login: string} | null
  comments: {nodes: Array<{id: string; body: string; author: {login: string} | null; createdAt: string}>}
}

interface ThreadsPage {
  repository: {
    pullRequest: {
      reviewThreads: {nodes: ThreadNode[]; pageInfo: {hasNextPage: boolean; endCursor: string | null}}
    } | null
  }
}

const RELEASE_SHAPE = {
  id: 'release id',
  ids: '[REST id, node id]: either names it (gh release view --json id gives the node id)',
  tagName: 'tag',
  name: 'title or null',
  body: 'notes or null',
  isDraft: 'boolean',
  isPrerelease: 'boolean',
  publishedAt: 'ISO time or null',
  url: 'web URL',
}

export const READ_TASKS: BuiltInReadTask[] = [
  {
    name: 'repo.view',
    description: 'The repository.',
    paramsSchema: input({}, []),
    kind: 'object',
    shape: {
      name: 'repository name',
      owner: 'owner login',
      fullName: 'owner/name',
      defaultBranch: 'default branch',
      description: 'description or null',
      url: 'web URL',
    },
    async run(octokit, i) {
      const {data} = await octokit.rest.repos.get(repoOf(i))
      return {
        name: data.name,
        owner: data.owner.login,
        fullName: data.full_name,
        defaultBranch: data.default_branch,
        description: data.description,
        url: data.html_url,
      }
    },
  },
  {
    name: 'repo.labels.list',
    description: 'Every label of the repository.',
    paramsSchema: input({}, []),
    kind: 'list',
    shape: {name: 'label name', color: 'hex colour', description: 'description or null'},
    async run(octokit, i) {
      const labels = await octokit.paginate(octokit.rest.issues.listLabelsForRepo, {...repoOf(i), per_page: 100})
      return labels.map((l) => ({name: l.name, color: l.color, description: l.description}))
    },
  },
  {
    name: 'repo.issue_types.list',
    description: 'The issue types the repository offers (GraphQL `repository.issueTypes`), in creation order.',
    paramsSchema: input({}, []),
    kind: 'list',
    shape: {
      id: 'node id',
      name: 'type name',
      color: 'colour name',
      description: 'description or null',
      isEnabled: 'boolean',
    },
    async run(octokit, i) {
      const data = await octokit.graphql<{
        repository: {
          issueTypes: {
            nodes: Array<{id: string; name: string; color: string; description: string | null; isEnabled: boolean}>
          } | null
        } | null
      }>(
        'query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { issueTypes(first: 100) { nodes { id name color description isEnabled } } } }',
        {owner: String(i.owner), name: String(i.name)},
      )
      return (data.repository?.issueTypes?.nodes ?? []).map((t) => ({
        id: t.id,
        name: t.name,
        color: t.color,
        description: t.description,
        isEnabled: t.isEnabled,
      }))
    },
  },
  {
    name: 'repo.branches.list',
    description: 'Every branch of the repository.',
    paramsSchema: input({}, []),
    kind: 'list',
    shape: {name: 'branch name', sha: 'its head commit'},
    async run(octokit, i) {
      const branches = await octokit.paginate(octokit.rest.repos.listBranches, {...repoOf(i), per_page: 100})
      return branches.map((b) => ({name: b.name, sha: b.commit.sha}))
    },
  },
  {
    name: 'repo.file.view',
    description:
      'A file’s text at a ref (a branch, tag or commit), or null when the ref has no such file: what a change pushed there left in the code.',
    paramsSchema: input({path: text, ref: text}, ['path', 'ref']),
    kind: 'object',
    shape: {
      path: 'file path',
      sha: 'its blob id',
      content: 'its text, exactly (UTF-8)',
      lines: 'its lines, without line ends',
    },
    async run(octokit, i) {
      const found = await octokit.rest.repos.getContent({...repoOf(i), path: String(i.path), ref: String(i.ref)}).then(
        (r) => r.data,
        (error: {status?: number}) => {
          if (error.status === 404) return null
          throw error
        },
      )
      if (!found || Array.isArray(found) || found.type !== 'file') return null
      const content = Buffer.from(found.content, 'base64').toString('utf8')
      return {path: found.path, sha: found.sha, content, lines: content.replace(/\n$/, '').split('\n')}
    },
  },
  {
    name: 'repo.compare',
    description:
      'What changed from one commit to another (compare base...head: from their merge base): the files, their patches, and each file’s added and removed lines.',
    paramsSchema: input({base: text, head: text}, ['base', 'head']),
    kind: 'object',
    shape: {
      status: 'identical, ahead, behind or diverged',
      aheadBy: 'commits of head not in base',
      behindBy: 'commits of base not in head',
      files:
        '[{path, status, additions, deletions, patch, added, removed}]: added and removed are the patch’s + and - lines, without the marker',
    },
    async run(octokit, i) {
      const {data} = await octokit.rest.repos.compareCommitsWithBasehead({
        ...repoOf(i),
        basehead: `${String(i.base)}...${String(i.head)}`,
      })
      return {
        status: data.status,
        aheadBy: data.ahead_by,
        behindBy: data.behind_by,
        files: (data.files ?? []).map((f) => {
          const patch = f.patch ?? ''
          const changed = (marker: string) =>
            patch
              .split('\n')
              .filter((line) => line.startsWith(marker))
              .map((line) => line.slice(1))
          return {
            path: f.filename,
            status: f.status,
            additions: f.additions,
            deletions: f.deletions,
            patch,
            added: changed('+'),
            removed: changed('-'),
          }
        }),
      }
    },
  },
  {
    name: 'issue.view',
    description: 'One issue.',
    paramsSchema: input({issueNumber: positive}, ['issueNumber']),
    kind: 'object',
    shape: {
      number: 'issue number',
      title: 'title',
      body: 'body or null',
      state: 'OPEN or CLOSED',
      stateReason: 'COMPLETED, NOT_PLANNED, REOPENED, DUPLICATE or null',
      labels: 'label names, in the order GitHub lists them',
      assignees: 'assignee logins',
      milestone: '{number, title} or null',
      author: 'author login',
      url: 'web URL',
    },
    async run(octokit, i) {
      const {data} = await octokit.rest.issues.get({...repoOf(i), issue_number: Number(i.issueNumber)})
      return {
        number: data.number,
        title: data.title,
        body: data.body ?? null,
        state: upper(data.state),
        stateReason: upper(data.state_reason),
        labels: data.labels.map((l) => (typeof l === 'string' ? l : l.name)),
        assignees: (data.assignees ?? []).map((a) => a.login),
        milestone: data.milestone ? {number: data.milestone.number, title: data.milestone.title} : null,
        author: login(data.user),
        url: data.html_url,
      }
    },
  },
  {
    name: 'issue.list',
    description: 'Issues of the repository (pull requests left out), newest first, by state (open by default).',
    paramsSchema: input(
      {
        state: {enum: ['open', 'closed', 'all', 'OPEN', 'CLOSED', 'ALL']},
        first: {type: 'integer', minimum: 1, maximum: 100},
      },
      [],
    ),
    kind: 'list',
    shape: {number: 'issue number', title: 'title', state: 'OPEN or CLOSED', labels: 'label names', url: 'web URL'},
    async run(octokit, i) {
      const state = (typeof i.state === 'string' ? i.state.toLowerCase() : 'open') as 'open' | 'closed' | 'all'
      const issues = (
        await octokit.paginate(octokit.rest.issues.listForRepo, {...repoOf(i), state, per_page: 100})
      ).filter((issue) => !issue.pull_request)
      return issues.slice(0, Number(i.first ?? issues.length)).map((issue) => ({
        number: issue.number,
        title: issue.title,
        state: upper(issue.state),
        labels: issue.labels.map((l) => (typeof l === 'string' ? l : l.name)),
        url: issue.html_url,
      }))
    },
  },
  {
    name: 'issue.comments.list',
    description: 'The comments of an issue (or pull request conversation), oldest first.',
    paramsSchema: input({issueNumber: positive}, ['issueNumber']),
    kind: 'list',
    shape: {id: 'comment id', body: 'text', author: 'author login', createdAt: 'ISO time', url: 'web URL'},
    async run(octokit, i) {
      const comments = await octokit.paginate(octokit.rest.issues.listComments, {
        ...repoOf(i),
        issue_number: Number(i.issueNumber),
        per_page: 100,
      })
      return comments.map((c) => ({
        id: c.id,
        body: c.body ?? '',
        author: login(c.user),
        createdAt: c.created_at,
        url: c.html_url,
      }))
    },
  },
  {
    name: 'issue.relations.prs.list',
    description: 'Pull requests that close the issue (closing keywords such as "Fixes #N").',
    paramsSchema: input({issueNumber: positive}, ['issueNumber']),
    kind: 'list',
    shape: {number: 'pull request number', title: 'title', state: 'OPEN, CLOSED or MERGED', url: 'web URL'},
    async run(octokit, i) {
      const data = await octokit.graphql<{
        repository: {
          issue: {
            closedByPullRequestsReferences: {nodes: Array<{number: number; title: string; state: string; url: string}>}
          } | null
        }
      }>(
        'query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { issue(number: $number) { closedByPullRequestsReferences(first: 50) { nodes { number title state url } } } } }',
        {owner: String(i.owner), name: String(i.name), number: Number(i.issueNumber)},
      )
      return data.repository.issue?.closedByPullRequestsReferences.nodes ?? []
    },
  },
  {
    name: 'issue.relations.view',
    description: 'The parent, sub-issues and dependencies (blocked by, blocking) of an issue.',
    paramsSchema: input({issueNumber: positive}, ['issueNumber']),
    kind: 'object',
    shape: {
      number: 'issue number',
      id: 'node id',
      parent: '{number, id, title} or null',
      children: 'sub-issues: [{number, id, title}]',
      blockedBy: 'issues it is blocked by: [{number, id, title}]',
      blocking: 'issues it blocks: [{number, id, title}]',
    },
    async run(octokit, i) {
      type Related = {number: number; id: string; title: string}
      const params = {...repoOf(i), issue_number: Number(i.issueNumber), per_page: 100}
      const data = await octokit.graphql<{
        repository: {issue: {number: number; id: string; parent: Related | null; subIssues: {nodes: Related[]}} | null}
      }>(
        'query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { issue(number: $number) { number id parent { number id title } subIssues(first: 100) { nodes { number id title } } } } }',
        {owner: String(i.owner), name: String(i.name), number: Number(i.issueNumber)},
      )
      const issue = data.repository.issue
      if (!issue) return null
      // Dependencies through REST, as the seeding reads them (GraphQL's blockedBy is newer than many schemas).
      const [blockedBy, blocking] = await Promise.all([
        octokit.paginate(octokit.rest.issues.listDependenciesBlockedBy, params),
        octokit.paginate(octokit.rest.issues.listDependenciesBlocking, params),
      ])
      const related = (list: Array<{number: number; node_id: string; title: string}>) =>
        list.map((r) => ({number: r.number, id: r.node_id, title: r.title}))
      return {
        number: issue.number,
        id: issue.id,
        parent: issue.parent,
        children: issue.subIssues.nodes,
        blockedBy: related(blockedBy),
        blocking: related(blocking),
      }
    },
  },
  {
    name: 'pr.view',
    description: 'One pull request.',
    paramsSchema: input({prNumber: positive}, ['prNumber']),
    kind: 'object',
    shape: {
      number: 'number',
      title: 'title',
      body: 'body or null',
      state: 'OPEN, CLOSED or MERGED',
      isDraft: 'boolean',
      headRefName: 'head branch',
      baseRefName: 'base branch',
      headRefOid: 'head commit',
      author: 'author login',
      labels: 'label names',
      requestedReviewers: 'logins whose review is requested',
      additions: 'lines added',
      deletions: 'lines removed',
      changedFiles: 'files changed',
      mergeableState: 'clean, behind, dirty, unknown, ...',
      url: 'web URL',
    },
    async run(octokit, i) {
      const {data} = await octokit.rest.pulls.get({...repoOf(i), pull_number: Number(i.prNumber)})
      return {
        number: data.number,
        title: data.title,
        body: data.body ?? null,
        state: data.merged ? 'MERGED' : upper(data.state),
        isDraft: data.draft ?? false,
        headRefName: data.head.ref,
        baseRefName: data.base.ref,
        headRefOid: data.head.sha,
        author: login(data.user),
        labels: data.labels.map((l) => l.name),
        requestedReviewers: (data.requested_reviewers ?? []).map((r) => r.login),
        additions: data.additions,
        deletions: data.deletions,
        changedFiles: data.changed_files,
        mergeableState: data.mergeable_state,
        url: data.html_url,
      }
    },
  },
  {
    name: 'pr.list',
    description:
      'Pull requests, newest first, filtered by state, head branch and base branch; first keeps the newest ones.',
    paramsSchema: input(
      {
        state: {type: 'string', enum: ['open', 'closed', 'all']},
        head: {type: 'string'},
        base: {type: 'string'},
        first: {type: 'integer', minimum: 1, maximum: 100},
      },
      [],
    ),
    kind: 'list',
    shape: {
      number: 'number',
      title: 'title',
      body: 'body or null',
      state: 'OPEN, CLOSED or MERGED',
      headRefName: 'head branch',
      baseRefName: 'base branch',
      author: 'author login',
      requestedReviewers: 'logins whose review is requested',
      url: 'web URL',
    },
    async run(octokit, i) {
      const {owner} = repoOf(i)
      const pulls = await octokit.paginate(octokit.rest.pulls.list, {
        ...repoOf(i),
        state: (i.state as 'open' | 'closed' | 'all' | undefined) ?? 'open',
        ...(typeof i.head === 'string' ? {head: `${owner}:${i.head}`} : {}),
        ...(typeof i.base === 'string' ? {base: i.base} : {}),
        per_page: 100,
      })
      return pulls.slice(0, Number(i.first ?? pulls.length)).map((p) => ({
        number: p.number,
        title: p.title,
        body: p.body ?? null,
        state: p.merged_at ? 'MERGED' : upper(p.state),
        headRefName: p.head.ref,
        baseRefName: p.base.ref,
        author: login(p.user),
        requestedReviewers: (p.requested_reviewers ?? []).map((r) => r.login),
        url: p.html_url,
      }))
    },
  },
  {
    name: 'pr.diff.files',
    description: 'The files a pull request changes, with their patches.',
    paramsSchema: input({prNumber: positive}, ['prNumber']),
    kind: 'list',
    shape: {
      path: 'file path',
      status: 'added, removed, modified, renamed',
      additions: 'lines added',
      deletions: 'lines removed',
      patch: 'unified diff of the file',
    },
    async run(octokit, i) {
      const files = await octokit.paginate(octokit.rest.pulls.listFiles, {
        ...repoOf(i),
        pull_number: Number(i.prNumber),
        per_page: 100,
      })
      return files.map((f) => ({
        path: f.filename,
        status: f.status,
        additions: f.additions,
        deletions: f.deletions,
        patch: f.patch ?? '',
      }))
    },
  },
  {
    name: 'pr.reviews.list',
    description: 'Submitted reviews of a pull request, oldest first.',
    paramsSchema: input({prNumber: positive}, ['prNumber']),
    kind: 'list',
    shape: {
      id: 'review id',
      state: 'APPROVED, CHANGES_REQUESTED, COMMENTED or DISMISSED',
      body: 'text',
      author: 'reviewer login',
      submittedAt: 'ISO time',
      commitId: 'reviewed commit',
    },
    async run(octokit, i) {
      const reviews = await octokit.paginate(octokit.rest.pulls.listReviews, {
        ...repoOf(i),
        pull_number: Number(i.prNumber),
        per_page: 100,
      })
      return reviews
        .filter((r) => r.state !== 'PENDING')
        .map((r) => ({
          id: r.id,
          state: r.state,
          body: r.body,
          author: login(r.user),
          submittedAt: r.submitted_at ?? null,
          commitId: r.commit_id,
        }))
    },
  },
  {
    name: 'pr.threads.list',
    description: 'Review threads of a pull request in creation order; unresolvedOnly keeps the unresolved ones.',
    paramsSchema: input({prNumber: positive, unresolvedOnly: {type: 'boolean'}}, ['prNumber']),
    kind: 'list',
    shape: {
      id: 'thread id',
      path: 'file path',
      line: 'line, or null for a file comment',
      isResolved: 'boolean',
      isOutdated: 'boolean',
      resolvedBy: 'login or null',
      comments: 'the thread’s comments [{id, body, author, createdAt}], oldest first',
    },
    async run(octokit, i) {
      const threads: ThreadNode[] = []
      let after: string | null = null
      for (;;) {
        const page: ThreadsPage = await octokit.graphql<ThreadsPage>(
          'query($owner: String!, $name: String!, $number: Int!, $after: String) { repository(owner: $owner, name: $name) { pullRequest(number: $number) { reviewThreads(first: 100, after: $after) { nodes { id path line isResolved isOutdated resolvedBy { login } comments(first: 100) { nodes { id body author { login } createdAt } } } pageInfo { hasNextPage endCursor } } } } }',
          {owner: String(i.owner), name: String(i.name), number: Number(i.prNumber), after},
        )
        const connection = page.repository.pullRequest?.reviewThreads
        if (!connection) return []
        threads.push(...connection.nodes)
        if (!connection.pageInfo.hasNextPage) break
        after = connection.pageInfo.endCursor
      }
      return threads
        .filter((t) => i.unresolvedOnly !== true || !t.isResolved)
        .map((t) => ({
          id: t.id,
          path: t.path,
          line: t.line,
          isResolved: t.isResolved,
          isOutdated: t.isOutdated,
          resolvedBy: login(t.resolvedBy),
          comments: t.comments.nodes.map((c) => ({
            id: c.id,
            body: c.body,
            author: login(c.author),
            createdAt: c.createdAt,
          })),
        }))
    },
  },
  {
    name: 'pr.merge.status',
    description:
      'Whether a pull request can merge (GraphQL’s mergeability, merge state and review decision) and, once merged, its merge commit.',
    paramsSchema: input({prNumber: positive}, ['prNumber']),
    kind: 'object',
    shape: {
      state: 'OPEN, CLOSED or MERGED',
      isDraft: 'boolean',
      mergeable: 'MERGEABLE, CONFLICTING or UNKNOWN',
      mergeStateStatus: 'CLEAN, BEHIND, BLOCKED, DIRTY, DRAFT, UNSTABLE, HAS_HOOKS or UNKNOWN',
      reviewDecision: 'APPROVED, CHANGES_REQUESTED, REVIEW_REQUIRED or null',
      mergeCommit: '{sha, parents} once merged: parents is 1 for a squash or rebase, 2 for a merge commit; else null',
    },
    async run(octokit, i) {
      const data = await octokit.graphql<{
        repository: {
          pullRequest: {
            state: string
            isDraft: boolean
            mergeable: string
            mergeStateStatus: string
            reviewDecision: string | null
          }
        }
      }>(
        'query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { pullRequest(number: $number) { state isDraft mergeable mergeStateStatus reviewDecision } } }',
        {owner: String(i.owner), name: String(i.name), number: Number(i.prNumber)},
      )
      const {data: pull} = await octokit.rest.pulls.get({...repoOf(i), pull_number: Number(i.prNumber)})
      const sha = pull.merged ? pull.merge_commit_sha : null
      const commit = sha ? (await octokit.rest.git.getCommit({...repoOf(i), commit_sha: sha})).data : null
      const {state, isDraft, mergeable, mergeStateStatus, reviewDecision} = data.repository.pullRequest
      return {
        state,
        isDraft,
        mergeable,
        mergeStateStatus,
        reviewDecision: reviewDecision || null,
        mergeCommit: commit ? {sha: commit.sha, parents: commit.parents.length} : null,
      }
    },
  },
  {
    name: 'pr.branch.status',
    description:
      'How a pull request’s head branch stands against its base branch (compare base...head): behindBy 0 means every commit of the base is in the head.',
    paramsSchema: input({prNumber: positive}, ['prNumber']),
    kind: 'object',
    shape: {
      baseRefName: 'base branch',
      headRefName: 'head branch',
      headSha: 'the head branch’s commit',
      status: 'identical, ahead, behind or diverged',
      aheadBy: 'commits of the head not in the base',
      behindBy: 'commits of the base not in the head',
      upToDate: 'boolean: behindBy is 0',
    },
    async run(octokit, i) {
      const {data: pull} = await octokit.rest.pulls.get({...repoOf(i), pull_number: Number(i.prNumber)})
      const {data} = await octokit.rest.repos.compareCommitsWithBasehead({
        ...repoOf(i),
        basehead: `${pull.base.ref}...${pull.head.ref}`,
        per_page: 1,
      })
      return {
        baseRefName: pull.base.ref,
        headRefName: pull.head.ref,
        headSha: pull.head.sha,
        status: data.status,
        aheadBy: data.ahead_by,
        behindBy: data.behind_by,
        upToDate: data.behind_by === 0,
      }
    },
  },
  {
    name: 'pr.checks.list',
    description:
      'The checks of a pull request’s head commit, as `gh pr checks` lists them: its check runs and the latest commit status of each context.',
    paramsSchema: input({prNumber: positive}, ['prNumber']),
    kind: 'list',
    shape: {
      name: 'check run name, or status context',
      kind: 'check_run or status',
      headSha: 'the commit it reports on (the pull request’s head)',
      state: 'upper case: a check run’s conclusion (its status while it runs), a status’s state',
      url: 'details URL or null',
    },
    async run(octokit, i) {
      const {data: pull} = await octokit.rest.pulls.get({...repoOf(i), pull_number: Number(i.prNumber)})
      const ref = pull.head.sha
      const runs = await octokit.paginate(octokit.rest.checks.listForRef, {...repoOf(i), ref, per_page: 100})
      const {data: combined} = await octokit.rest.repos.getCombinedStatusForRef({...repoOf(i), ref, per_page: 100})
      return [
        ...runs.map((r) => ({
          name: r.name,
          kind: 'check_run',
          headSha: r.head_sha,
          state: upper(r.conclusion ?? r.status),
          url: r.details_url ?? r.html_url ?? null,
        })),
        ...combined.statuses.map((s) => ({
          name: s.context,
          kind: 'status',
          headSha: combined.sha,
          state: upper(s.state),
          url: s.target_url ?? null,
        })),
      ]
    },
  },
  {
    name: 'workflow.run.view',
    description: 'A workflow run, its latest attempt, and that attempt’s jobs.',
    paramsSchema: input({runId: positive}, ['runId']),
    kind: 'object',
    shape: {
      id: 'run id',
      name: 'workflow name',
      status: 'queued, in_progress or completed',
      conclusion: 'success, failure, cancelled, ... or null',
      attempt: 'the latest attempt number',
      displayTitle: 'title',
      headBranch: 'branch',
      headSha: 'commit',
      event: 'trigger',
      jobs: '[{id, name, status, conclusion, attempt}] of the latest attempt (a job carried over by a rerun of the failed jobs keeps the attempt it ran in)',
      url: 'web URL',
    },
    async run(octokit, i) {
      const {data: run} = await octokit.rest.actions.getWorkflowRun({...repoOf(i), run_id: Number(i.runId)})
      const jobs = await octokit.paginate(octokit.rest.actions.listJobsForWorkflowRun, {
        ...repoOf(i),
        run_id: Number(i.runId),
        per_page: 100,
      })
      return {
        id: run.id,
        name: run.name ?? null,
        status: run.status,
        conclusion: run.conclusion,
        attempt: run.run_attempt ?? 1,
        displayTitle: run.display_title,
        headBranch: run.head_branch,
        headSha: run.head_sha,
        event: run.event,
        jobs: jobs.map((j) => ({
          id: j.id,
          name: j.name,
          status: j.status,
          conclusion: j.conclusion,
          attempt: j.run_attempt ?? 1,
        })),
        url: run.html_url,
      }
    },
  },
  {
    name: 'workflow.runs.list',
    description:
      'Runs of a workflow (by id or file name), or of every workflow of the repository without workflowId, newest first.',
    paramsSchema: input({workflowId: {type: ['string', 'integer']}}, []),
    kind: 'list',
    shape: {
      id: 'run id',
      status: 'queued, in_progress or completed',
      conclusion: 'conclusion or null',
      attempt: 'latest attempt number',
      displayTitle: 'title',
      event: 'trigger',
      headBranch: 'branch',
      createdAt: 'ISO time',
    },
    async run(octokit, i) {
      const runs =
        i.workflowId === undefined
          ? await octokit.paginate(octokit.rest.actions.listWorkflowRunsForRepo, {...repoOf(i), per_page: 100})
          : await octokit.paginate(octokit.rest.actions.listWorkflowRuns, {
              ...repoOf(i),
              workflow_id: i.workflowId as string | number,
              per_page: 100,
            })
      return runs.map((r) => ({
        id: r.id,
        status: r.status,
        conclusion: r.conclusion,
        attempt: r.run_attempt ?? 1,
        displayTitle: r.display_title,
        event: r.event,
        headBranch: r.head_branch,
        createdAt: r.created_at,
      }))
    },
  },
  {
    name: 'workflow.job.logs.view',
    description: 'The log of one job, and its error lines.',
    paramsSchema: input({jobId: positive}, ['jobId']),
    kind: 'object',
    shape: {
      jobId: 'job id',
      log: 'the whole log text',
      errorLines: 'the lines marked ##[error] or saying "error", without their timestamp and marker',
    },
    async run(octokit, i) {
      const response = await octokit.rest.actions.downloadJobLogsForWorkflowRun({...repoOf(i), job_id: Number(i.jobId)})
      const log = String(response.data)
      return {jobId: Number(i.jobId), log, errorLines: errorLinesOf(log)}
    },
  },
  {
    name: 'workflow.job.view',
    description: 'One job of a workflow run (of any attempt), with its steps.',
    paramsSchema: input({jobId: positive}, ['jobId']),
    kind: 'object',
    shape: {
      id: 'job id',
      runId: 'run id',
      name: 'job name',
      status: 'queued, in_progress or completed',
      conclusion: 'conclusion or null',
      attempt: 'the attempt it ran in',
      steps: '[{number, name, status, conclusion}]',
      failedSteps: 'names of the steps that failed',
    },
    async run(octokit, i) {
      const {data: job} = await octokit.rest.actions.getJobForWorkflowRun({...repoOf(i), job_id: Number(i.jobId)})
      const steps = (job.steps ?? []).map((s) => ({
        number: s.number,
        name: s.name,
        status: s.status,
        conclusion: s.conclusion ?? null,
      }))
      return {
        id: job.id,
        runId: job.run_id,
        name: job.name,
        status: job.status,
        conclusion: job.conclusion,
        attempt: job.run_attempt ?? 1,
        steps,
        failedSteps: steps.filter((s) => s.conclusion === 'failure').map((s) => s.name),
      }
    },
  },
  {
    name: 'workflow.list',
    description: 'Every workflow of the repository.',
    paramsSchema: input({}, []),
    kind: 'list',
    shape: {
      id: 'workflow id',
      name: 'name',
      path: 'file path',
      state: 'active, disabled_manually, ...',
      url: 'web URL',
    },
    async run(octokit, i) {
      const workflows = await octokit.paginate(octokit.rest.actions.listRepoWorkflows, {...repoOf(i), per_page: 100})
      return workflows.map(workflowShape)
    },
  },
  {
    name: 'workflow.view',
    description: 'One workflow, by id or file name.',
    paramsSchema: input({workflowId: {type: ['string', 'integer']}}, ['workflowId']),
    kind: 'object',
    shape: {
      id: 'workflow id',
      name: 'name',
      path: 'file path',
      state: 'active, disabled_manually, ...',
      url: 'web URL',
    },
    async run(octokit, i) {
      const {data} = await octokit.rest.actions.getWorkflow({
        ...repoOf(i),
        workflow_id: i.workflowId as string | number,
      })
      return workflowShape(data)
    },
  },
  {
    name: 'workflow.run.artifacts.list',
    description: 'The artifacts a workflow run uploaded.',
    paramsSchema: input({runId: positive}, ['runId']),
    kind: 'list',
    shape: {id: 'artifact id', name: 'name', sizeInBytes: 'size', expired: 'boolean'},
    async run(octokit, i) {
      const artifacts = await octokit.paginate(octokit.rest.actions.listWorkflowRunArtifacts, {
        ...repoOf(i),
        run_id: Number(i.runId),
        per_page: 100,
      })
      return artifacts.map((a) => ({id: a.id, name: a.name, sizeInBytes: a.size_in_bytes, expired: a.expired}))
    },
  },
  {
    name: 'release.view',
    description: 'One release, found by tag (drafts included).',
    paramsSchema: input({tagName: {type: 'string', minLength: 1}}, ['tagName']),
    kind: 'object',
    shape: RELEASE_SHAPE,
    async run(octokit, i) {
      // A draft has no tag yet on GitHub, so get-by-tag misses it: search the list.
      const releases = await octokit.paginate(octokit.rest.repos.listReleases, {...repoOf(i), per_page: 100})
      const release = releases.find((r) => r.tag_name === i.tagName)
      if (!release) return null
      return releaseShape(release)
    },
  },
  {
    name: 'release.list',
    description: 'Releases, newest first, drafts included.',
    paramsSchema: input({}, []),
    kind: 'list',
    shape: RELEASE_SHAPE,
    async run(octokit, i) {
      const releases = await octokit.paginate(octokit.rest.repos.listReleases, {...repoOf(i), per_page: 100})
      return releases.map(releaseShape)
    },
  },
  {
    name: 'project_v2.items.list',
    description: 'Items of a user’s Projects v2 board, with their single-select field values by field name.',
    paramsSchema: params({owner: text, projectNumber: positive, name: {type: 'string'}}, ['owner', 'projectNumber']),
    kind: 'list',
    shape: {
      id: 'item id',
      type: 'ISSUE or PULL_REQUEST',
      number: 'issue or pull request number',
      title: 'title',
      fields: 'field name -> single-select option name',
      optionIds: 'ids of the single-select options set on the item',
    },
    async run(octokit, i) {
      const data = await octokit.graphql<{
        user: {
          projectV2: {
            items: {
              nodes: Array<{
                id: string
                type: string
                content: {number: number; title: string} | null
                fieldValues: {nodes: Array<{name?: string; optionId?: string; field?: {name: string}}>}
              }>
            }
          } | null
        } | null
      }>(
        'query($owner: String!, $number: Int!) { user(login: $owner) { projectV2(number: $number) { items(first: 100) { nodes { id type content { ... on Issue { number title } ... on PullRequest { number title } } fieldValues(first: 20) { nodes { ... on ProjectV2ItemFieldSingleSelectValue { name optionId field { ... on ProjectV2SingleSelectField { name } } } } } } } } } }',
        {owner: String(i.owner), number: Number(i.projectNumber)},
      )
      return (data.user?.projectV2?.items.nodes ?? []).map((item) => ({
        id: item.id,
        type: item.type,
        number: item.content?.number ?? null,
        title: item.content?.title ?? null,
        fields: Object.fromEntries(
          item.fieldValues.nodes.filter((v) => v.field && v.name).map((v) => [v.field!.name, v.name!]),
        ),
        optionIds: item.fieldValues.nodes.flatMap((v) => (v.optionId ? [v.optionId] : [])),
      }))
    },
  },
  {
    name: 'project_v2.fields.list',
    description: 'The fields of a user’s Projects v2 board, with the options of the single-select ones.',
    paramsSchema: params({owner: text, projectNumber: positive}, ['owner', 'projectNumber']),
    kind: 'list',
    shape: {
      id: 'field id',
      name: 'field name',
      dataType: 'TEXT, SINGLE_SELECT, TITLE, ...',
      options: '[{id, name}] of a single-select field, else null',
    },
    async run(octokit, i) {
      const data = await octokit.graphql<{
        user: {
          projectV2: {
            fields: {
              nodes: Array<{id: string; name: string; dataType: string; options?: Array<{id: string; name: string}>}>
            }
          } | null
        } | null
      }>(
        'query($owner: String!, $number: Int!) { user(login: $owner) { projectV2(number: $number) { fields(first: 100) { nodes { ... on ProjectV2FieldCommon { id name dataType } ... on ProjectV2SingleSelectField { options { id name } } } } } } }',
        {owner: String(i.owner), number: Number(i.projectNumber)},
      )
      return (data.user?.projectV2?.fields.nodes ?? []).map((f) => ({
        id: f.id,
        name: f.name,
        dataType: f.dataType,
        options: f.options?.map((o) => ({id: o.id, name: o.name})) ?? null,
      }))
    },
  },
  {
    name: 'project_v2.user.view',
    description: 'A user’s Projects v2 board.',
    paramsSchema: params({user: text, projectNumber: positive}, ['user', 'projectNumber']),
    kind: 'object',
    shape: {
      id: 'project node id',
      number: 'number',
      title: 'title',
      shortDescription: 'short description or null',
      public: 'boolean',
      closed: 'boolean',
      url: 'web URL',
    },
    async run(octokit, i) {
      const data = await octokit.graphql<{
        user: {
          projectV2: {
            id: string
            number: number
            title: string
            shortDescription: string | null
            public: boolean
            closed: boolean
            url: string
          } | null
        } | null
      }>(
        'query($user: String!, $number: Int!) { user(login: $user) { projectV2(number: $number) { id number title shortDescription public closed url } } }',
        {user: String(i.user), number: Number(i.projectNumber)},
      )
      const p = data.user?.projectV2
      return p
        ? {
            id: p.id,
            number: p.number,
            title: p.title,
            shortDescription: p.shortDescription,
            public: p.public,
            closed: p.closed,
            url: p.url,
          }
        : null
    },
  },
]

function workflowShape(w: {id: number; name: string; path: string; state: string; html_url: string}) {
  return {id: w.id, name: w.name, path: w.path, state: w.state, url: w.html_url}
}

/** A log's error lines as a reader quotes them: marked `##[error]` or saying "error", without the timestamp and the marker. */
function errorLinesOf(log: string): string[] {
  return log
    .split(/\r?\n/)
    .map((line) => line.replace(/^\d{4}-\d\d-\d\dT[\d:.]+Z\s?/, ''))
    .filter((line) => line.includes('##[error]') || /\berror\b/i.test(line))
    .map((line) => line.replace('##[error]', '').trim())
    .filter((line) => line.length > 0)
}

function releaseShape(r: {
  id: number
  node_id: string
  tag_name: string
  name: string | null
  body?: string | null
  draft: boolean
  prerelease: boolean
  published_at: string | null
  html_url: string
}) {
  return {
    id: r.id,
    ids: [r.id, r.node_id],
    tagName: r.tag_name,
    name: r.name,
    body: r.body ?? null,
    isDraft: r.draft,
    isPrerelease: r.prerelease,
    publishedAt: r.published_at,
    url: r.html_url,
  }
}

export default definePlugin({apiVersion: 1, name: 'read-tasks-core', version: '1.0.0', readTasks: READ_TASKS})

/** docs/tasks.md, generated from the definitions above (npm run docs:tasks; a test checks it is current). */
export function renderTasksDoc(): string {
  const lines = [
    '# Checkpoint read tasks',
    '',
    'A checkpoint runs one of these tasks against GitHub with ghx-bench’s own Octokit client — never through the',
    'tool layer under test — and judges its result with a condition. **List tasks return an array** (count',
    'conditions apply to it directly; there is no envelope); object tasks return an object (or null when the',
    'thing does not exist). Generated from `src/github/tasks.ts`.',
    '',
  ]
  for (const task of READ_TASKS) {
    const properties = (
      task.paramsSchema as {properties: Record<string, {type?: unknown; enum?: unknown[]}>; required: string[]}
    ).properties
    const required = new Set((task.paramsSchema as {required: string[]}).required)
    lines.push(`## \`${task.name}\``, '', task.description, '')
    lines.push(
      `Input: ${Object.entries(properties)
        .map(
          ([name, schema]) =>
            `\`${name}\`${required.has(name) ? '' : '?'} (${schema.enum ? schema.enum.join(' | ') : Array.isArray(schema.type) ? schema.type.join(' | ') : String(schema.type)})`,
        )
        .join(', ')}`,
      '',
    )
    lines.push(task.kind === 'list' ? 'Result: an **array**; each element:' : 'Result: an **object**:', '')
    lines.push(
      '| field | value |',
      '|---|---|',
      ...Object.entries(task.shape).map(([field, meaning]) => `| \`${field}\` | ${meaning} |`),
      '',
    )
  }
  return lines.join('\n')
}
