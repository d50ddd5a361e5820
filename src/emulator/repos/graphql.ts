/** GraphQL's repositories, their refs and commits, the repository query, and creating one. */
import {GraphQLError} from 'graphql'
import {
  connection,
  objectsOn,
  pageOf,
  input,
  mutationId,
  NotModelled,
  notFoundError,
  ordered,
  text,
  upper,
  type Args,
  type Context,
  type Obj,
} from '../core/graphql-objects.js'
import {commitPeople, type GitIdentity} from '../core/git-objects.js'
import type {Issue, Repo} from '../core/state.js'
import {nodeId} from '../core/store-core.js'
import type {Tree} from '../core/state.js'
import {blobSha, directoryEntries, isDirectory, treeSha} from '../core/git-objects.js'
import {resolveCommitish} from '../core/rest-support.js'
import {checkContexts, rollupState} from '../actions/graphql.js'
import {matchesIssueFilters} from '../issues/filters.js'
import {knownUsers, userLogin} from '../users/graphql.js'
import {repoField as field, REPO_OF, REPOSITORY_DETAILS} from './graphql-details.js'
import {history, touches} from './history.js'
import {repositoryName} from './store.js'

/** A branch (or, with its prefix, a tag) as a Ref. */
function refNode(ctx: Context, repo: Repo, name: string, prefix: 'refs/heads/' | 'refs/tags/' = 'refs/heads/'): Obj {
  const sha = prefix === 'refs/heads/' ? repo.branches[name]! : ctx.store.git.tagRefs(repo)[name]!
  return {
    __typename: 'Ref',
    id: `REF_kw${Buffer.from(`${repo.id}:${prefix.slice(5)}${name}`).toString('base64url')}`,
    name,
    prefix,
    // No branch protection in the sandbox: no ref has a rule.
    branchProtectionRule: null,
    target: () => commitNode(ctx, repo, sha),
    repository: () => repositoryNode(ctx, repo),
    associatedPullRequests: (args: Args) => {
      const states = Array.isArray(args.states) ? (args.states as string[]) : undefined
      const pulls = Object.values(repo.pulls).filter(
        (p) =>
          p.head === name && (!states || states.includes(p.merged_at ? 'MERGED' : upper(repo.issues[p.number]!.state))),
      )
      return connection(
        pulls.map((p) => ctx.nodes.PullRequest(ctx, repo, repo.issues[p.number]!, p)),
        args,
      )
    },
  }
}

export function commitNode(ctx: Context, repo: Repo, sha: string): Obj {
  const commit = ctx.store.git.commit(repo, sha)
  const [headline, ...rest] = commit.message.split('\n')
  const contexts = checkContexts(ctx, repo, sha)
  const statusContexts = contexts.filter((c) => c.__typename === 'StatusContext')
  const people = commitPeople(commit)
  const gitActor = (identity: GitIdentity) => ({
    name: identity.name,
    email: identity.email,
    date: commit.date,
    user: ctx.nodes.Actor(ctx, commit.author),
  })
  return {
    __typename: 'Commit',
    id: `C_kw${Buffer.from(commit.sha.slice(0, 16)).toString('base64url')}`,
    oid: commit.sha,
    abbreviatedOid: commit.sha.slice(0, 7),
    message: commit.message,
    messageHeadline: headline ?? '',
    messageBody: rest.join('\n').trim(),
    committedDate: commit.date,
    authoredDate: commit.date,
    url: `${ctx.links.html}/${repo.owner}/${repo.name}/commit/${commit.sha}`,
    author: gitActor(people.author),
    committer: gitActor(people.committer),
    authors: (args: Args) => connection([gitActor(people.author)], args),
    parents: (args: Args) =>
      connection(
        commit.parents.map((parent) => commitNode(ctx, repo, parent)),
        args,
      ),
    // The commits reachable from this one, newest first; `path` keeps those that changed it, since/until bound their dates.
    history: (args: Args) =>
      connection(
        history(repo, sha)
          .filter(
            (c) =>
              (typeof args.path !== 'string' || touches(repo, c, args.path)) &&
              (typeof args.since !== 'string' || Date.parse(c.date) >= Date.parse(args.since)) &&
              (typeof args.until !== 'string' || Date.parse(c.date) <= Date.parse(args.until)),
          )
          .map((c) => commitNode(ctx, repo, c.sha)),
        args,
      ),
    statusCheckRollup:
      contexts.length === 0
        ? null
        : {
            id: `SCR_kw${Buffer.from(commit.sha.slice(0, 16)).toString('base64url')}`,
            state: rollupState(contexts),
            contexts: (args: Args) => connection(contexts, args),
            commit: () => commitNode(ctx, repo, sha),
          },
    // The legacy combined status: commit statuses only, null when there are none.
    status:
      statusContexts.length === 0
        ? null
        : {
            id: `ST_kw${Buffer.from(commit.sha.slice(0, 16)).toString('base64url')}`,
            state: rollupState(statusContexts),
            contexts: statusContexts,
            context: ({name}: Args) => statusContexts.find((c) => c.context === name) ?? null,
            combinedContexts: (args: Args) => connection(contexts, args),
            commit: () => commitNode(ctx, repo, sha),
          },
  }
}

/** A blob or a directory of a commit's tree, as GraphQL's Blob and Tree; null for a path the tree does not have. */
function gitObjectAt(ctx: Context, repo: Repo, tree: Tree, path: string): Obj | null {
  const abbreviated = (oid: string) => oid.slice(0, 7)
  const content = tree[path]
  if (content !== undefined) {
    const oid = blobSha(content)
    return {
      __typename: 'Blob',
      id: `B_kw${Buffer.from(oid.slice(0, 16)).toString('base64url')}`,
      oid,
      abbreviatedOid: abbreviated(oid),
      byteSize: Buffer.byteLength(content),
      isBinary: false,
      isTruncated: false,
      text: content,
      repository: () => repositoryNode(ctx, repo),
    }
  }
  if (!isDirectory(tree, path)) return null
  const oid = treeSha(tree, path)
  return {
    __typename: 'Tree',
    id: `T_kw${Buffer.from(oid.slice(0, 16)).toString('base64url')}`,
    oid,
    abbreviatedOid: abbreviated(oid),
    repository: () => repositoryNode(ctx, repo),
    entries: directoryEntries(tree, path).map((entry) => {
      const name = entry.path.split('/').pop()!
      const dot = name.lastIndexOf('.')
      return {
        name,
        path: entry.path,
        type: entry.type,
        // GraphQL gives the mode as a number: 0o100644 and 0o040000.
        mode: entry.type === 'blob' ? 0o100644 : 0o40000,
        oid: entry.sha,
        extension: entry.type === 'blob' && dot > 0 ? name.slice(dot) : null,
        isGenerated: false,
        size: entry.size ?? 0,
        lineCount:
          entry.type === 'blob'
            ? tree[entry.path]!.split('\n').length - (tree[entry.path]!.endsWith('\n') ? 1 : 0)
            : null,
        object: () => gitObjectAt(ctx, repo, tree, entry.path),
        repository: () => repositoryNode(ctx, repo),
      }
    }),
  }
}

/**
 * Repository.object: `expression` is a revision (a Commit) or `revision:path` (a Blob or a Tree), as
 * git's rev-parse reads it; `oid` a commit, tree or blob id. Null for what does not resolve, as GitHub answers.
 */
function objectOf(ctx: Context, repo: Repo, args: Args): Obj | null {
  if (typeof args.oid === 'string') {
    const oid = args.oid
    if (repo.commits[oid]) return ctx.nodes.Commit(ctx, repo, oid)
    for (const commit of Object.values(repo.commits)) {
      const path = Object.keys(commit.tree).find((p) => blobSha(commit.tree[p]!) === oid)
      if (path !== undefined) return gitObjectAt(ctx, repo, commit.tree, path)
    }
    try {
      const {tree, dir} = ctx.store.git.tree(repo, oid)
      return gitObjectAt(ctx, repo, tree, dir)
    } catch {
      return null
    }
  }
  const expression = text(args.expression)
  const colon = expression.indexOf(':')
  const revision = colon < 0 ? expression : expression.slice(0, colon)
  let sha: string
  try {
    sha = resolveCommitish(
      repo,
      revision === '' || revision === 'HEAD' ? repo.default_branch : revision,
      ctx.store.git.tagRefs(repo),
    )
  } catch {
    return null
  }
  if (colon < 0) return ctx.nodes.Commit(ctx, repo, sha)
  return gitObjectAt(
    ctx,
    repo,
    ctx.store.git.commit(repo, sha).tree,
    expression.slice(colon + 1).replace(/^\/+|\/+$/g, ''),
  )
}

/** A repository's issues (`pulls` false) or pull requests that `keep` keeps, in the order the connection's arguments ask. */
function listed(repo: Repo, pulls: boolean, args: Args, keep: (issue: Issue) => boolean): Issue[] {
  const list: Issue[] = []
  for (const issue of Object.values(repo.issues)) if (issue.is_pull === pulls && keep(issue)) list.push(issue)
  // By creation (the default) or update, ties by number.
  const orderBy = args.orderBy as {field?: string; direction?: string} | undefined
  const key = orderBy?.field === 'UPDATED_AT' ? 'updated_at' : 'created_at'
  const sign = orderBy?.direction === 'DESC' ? -1 : 1
  return list.sort((a, b) => (a[key] < b[key] ? -sign : a[key] > b[key] ? sign : (a.number - b.number) * sign))
}

/**
 * A Repository's fields, as the prototype of every Repository object (`{__proto__: REPOSITORY, [REPO_OF]:
 * {ctx, repo}}`), each a function of the object it is read on (as Issue's, issues/graphql.ts): a query
 * reads a few of its some hundred fields, and building them all (closures, the owner, the default
 * branch's ref, the last push) for every repository object took a tenth of a small query's time.
 */
const REPOSITORY: Obj = {
  __typename: 'Repository',
  id: field(({repo}) => nodeId('repo', repo.id)),
  databaseId: field(({repo}) => repo.id),
  name: field(({repo}) => repo.name),
  nameWithOwner: field(({repo}) => `${repo.owner}/${repo.name}`),
  owner: field(({ctx, repo}) => ctx.nodes.Actor(ctx, repo.owner)),
  description: field(({repo}) => repo.description),
  url: field(({ctx, repo}) => `${ctx.links.html}/${repo.owner}/${repo.name}`),
  isPrivate: field(({repo}) => repo.private),
  isArchived: false,
  isFork: field(({repo}) => repo.fork_of !== undefined),
  hasIssuesEnabled: true,
  hasProjectsEnabled: true,
  hasWikiEnabled: false,
  hasDiscussionsEnabled: false,
  isTemplate: false,
  isMirror: false,
  isEmpty: field(({repo}) => Object.keys(repo.branches).length === 0),
  isLocked: false,
  isDisabled: false,
  isInOrganization: false,
  parent: field(({ctx, repo}) => {
    const parent = repo.fork_of ? ctx.store.state.repos[repo.fork_of] : undefined
    return parent ? repositoryNode(ctx, parent) : null
  }),
  mergeCommitAllowed: true,
  squashMergeAllowed: true,
  rebaseMergeAllowed: true,
  deleteBranchOnMerge: false,
  visibility: field(({repo}) => (repo.private ? 'PRIVATE' : 'PUBLIC')),
  viewerPermission: 'ADMIN',
  // The sandbox models no stars (REST's stargazers_count is 0 too).
  stargazerCount: 0,
  stargazers: (args: Args) => connection([], args),
  viewerHasStarred: false,
  ...REPOSITORY_DETAILS,
  assignableUsers: field(({ctx}, args) => connection(knownUsers(ctx, args), args)),
  mentionableUsers: field(({ctx}, args) => connection(knownUsers(ctx, args), args)),
  createdAt: field(({repo}) => repo.created_at),
  // An empty repository has no default branch yet.
  defaultBranchRef: field(({ctx, repo}) =>
    repo.branches[repo.default_branch] ? refNode(ctx, repo, repo.default_branch) : null,
  ),
  ref: field(({ctx, repo}, {qualifiedName}) => {
    const qualified = String(qualifiedName)
    if (qualified.startsWith('refs/tags/')) {
      const tag = qualified.slice('refs/tags/'.length)
      return ctx.store.git.tagRefs(repo)[tag] ? refNode(ctx, repo, tag, 'refs/tags/') : null
    }
    const name = qualified.replace(/^refs\/heads\//, '')
    return repo.branches[name] ? refNode(ctx, repo, name) : null
  }),
  refs: field(({ctx, repo}, args) => {
    const {store} = ctx
    const prefix = String(args.refPrefix)
    if (prefix !== 'refs/heads/' && prefix !== 'refs/tags/')
      throw new NotModelled(`ghx-bench sandbox models refs of refs/heads/ and refs/tags/, not ${prefix}`)
    const query = typeof args.query === 'string' ? args.query : ''
    const names = Object.keys(prefix === 'refs/heads/' ? repo.branches : store.git.tagRefs(repo)).filter((n) =>
      n.includes(query),
    )
    const sorted = ordered(
      names,
      args.orderBy,
      {
        ALPHABETICAL: (n) => n,
        TAG_COMMIT_DATE: (n) => store.git.commit(repo, store.git.tagRefs(repo)[n] ?? repo.branches[n]!).date,
      },
      'ALPHABETICAL',
    )
    return connection(
      sorted.map((n) => refNode(ctx, repo, n, prefix)),
      args,
    )
  }),
  object: field(({ctx, repo}, args) => objectOf(ctx, repo, args)),
  pinnedIssues: field(({ctx, repo}, args) =>
    connection(
      (repo.pinned_issues ?? []).map((pin) => {
        const issue = repo.issues[pin.number]!
        return {
          __typename: 'PinnedIssue',
          // Named after the issue: an issue is pinned at most once.
          id: `PIN_kw${Buffer.from(String(issue.id)).toString('base64url')}`,
          databaseId: issue.id,
          issue: ctx.nodes.Issue(ctx, repo, issue),
          pinnedBy: ctx.nodes.Actor(ctx, pin.by),
          repository: () => repositoryNode(ctx, repo),
        }
      }),
      args,
    ),
  ),
  issue: field(({ctx, repo}, {number}) => {
    const issue = repo.issues[Number(number)]
    if (!issue || issue.is_pull)
      throw notFoundError(`Could not resolve to an Issue with the number of ${String(number)}.`)
    return ctx.nodes.Issue(ctx, repo, issue)
  }),
  issueOrPullRequest: field(({ctx, repo}, {number}) => {
    const issue = repo.issues[Number(number)]
    if (!issue)
      throw notFoundError(`Could not resolve to an issue or pull request with the number of ${String(number)}.`)
    return ctx.nodes.Issue(ctx, repo, issue)
  }),
  pullRequest: field(({ctx, repo}, {number}) => {
    const pull = repo.pulls[Number(number)]
    if (!pull) throw notFoundError(`Could not resolve to a PullRequest with the number of ${String(number)}.`)
    return ctx.nodes.PullRequest(ctx, repo, repo.issues[pull.number]!, pull)
  }),
  issues: field(({ctx, repo}, args) => {
    const states = Array.isArray(args.states) ? (args.states as string[]) : undefined
    const labels = Array.isArray(args.labels) ? (args.labels as string[]) : undefined
    const filterBy = args.filterBy as Record<string, unknown> | undefined
    const list = listed(
      repo,
      false,
      args,
      (i) =>
        (!states || states.includes(upper(i.state))) &&
        (!labels || labels.every((l) => i.labels.includes(l))) &&
        matchesIssueFilters(repo, i, filterBy),
    )
    return pageOf(list, args, (i) => ctx.nodes.Issue(ctx, repo, i))
  }),
  pullRequests: field(({ctx, repo}, args) => {
    const states = Array.isArray(args.states) ? (args.states as string[]) : undefined
    const list = listed(repo, true, args, (i) => {
      const pull = repo.pulls[i.number]!
      const state = pull.merged_at ? 'MERGED' : upper(i.state)
      return (
        (!states || states.includes(state)) &&
        (!args.headRefName || pull.head === args.headRefName) &&
        (!args.baseRefName || pull.base === args.baseRefName)
      )
    })
    return pageOf(list, args, (i) => ctx.nodes.Issue(ctx, repo, i))
  }),
  labels: field(({ctx, repo}, args) => {
    // GitHub searches names and descriptions; the default order is creation, oldest first.
    const query = typeof args.query === 'string' ? args.query.toLowerCase() : ''
    const matching = Object.values(repo.labels).filter(
      (l) => l.name.toLowerCase().includes(query) || (l.description ?? '').toLowerCase().includes(query),
    )
    return connection(
      ordered(matching, args.orderBy, {CREATED_AT: (l) => l.id, NAME: (l) => l.name}, 'CREATED_AT').map((l) =>
        ctx.nodes.Label(ctx, repo, l.name),
      ),
      args,
    )
  }),
  label: field(({ctx, repo}, {name}) =>
    Object.values(repo.labels).some((l) => l.name.toLowerCase() === String(name).toLowerCase())
      ? ctx.nodes.Label(ctx, repo, String(name))
      : null,
  ),
  milestones: field(({ctx, repo}, args) => {
    const states = Array.isArray(args.states) ? (args.states as string[]) : undefined
    return connection(
      repo.milestones
        .filter((m) => !states || states.includes(upper(m.state)))
        .map((m) => ctx.nodes.Milestone(ctx, repo, m.number)),
      args,
    )
  }),
  milestone: field(({ctx, repo}, {number}) =>
    repo.milestones.some((m) => m.number === Number(number)) ? ctx.nodes.Milestone(ctx, repo, Number(number)) : null,
  ),
  releases: field(({ctx, repo}, args) => {
    const list = args.orderBy
      ? ordered(
          Object.values(repo.releases),
          args.orderBy,
          {CREATED_AT: (r) => r.id, NAME: (r) => r.name ?? r.tag_name},
          'CREATED_AT',
        )
      : Object.values(repo.releases).sort((a, b) => b.id - a.id)
    return connection(
      list.map((r) => ctx.nodes.Release(ctx, repo, r)),
      args,
    )
  }),
  release: field(({ctx, repo}, {tagName}) => {
    const release = Object.values(repo.releases).find((r) => r.tag_name === tagName)
    return release ? ctx.nodes.Release(ctx, repo, release) : null
  }),
  latestRelease: field(({ctx, repo}) => {
    const latest = Object.values(repo.releases)
      .filter((r) => !r.draft && !r.prerelease)
      .sort((a, b) => (b.published_at ?? '').localeCompare(a.published_at ?? '') || b.id - a.id)[0]
    return latest ? ctx.nodes.Release(ctx, repo, latest) : null
  }),
  projectsV2: field(({ctx, repo}, args) =>
    connection(
      ctx.store.state.projects
        .filter((p) => p.items.some((i) => i.content.repo === `${repo.owner}/${repo.name}`))
        .map((p) => ctx.nodes.ProjectV2(ctx, p)),
      args,
    ),
  ),
  // Schema extension (core/graphql-schema-extension.ts).
  issueTypes: field(({ctx, repo}, args) =>
    connection(
      ordered(repo.issue_types, args.orderBy, {CREATED_AT: (t) => t.id, NAME: (t) => t.name}, 'CREATED_AT').map(
        (type) => ctx.nodes.IssueType(type),
      ),
      args,
    ),
  ),
  issueType: field(({ctx, repo}, {name}) => {
    const type = repo.issue_types.find((t) => t.name.toLowerCase() === String(name).toLowerCase())
    return type ? ctx.nodes.IssueType(type) : null
  }),
}

const makeRepository = objectsOn<{ctx: Context; repo: Repo}>(REPOSITORY, REPO_OF)

export function repositoryNode(ctx: Context, repo: Repo): Obj {
  return makeRepository({ctx, repo})
}

/** Query's repository field. */
export function repoQueries(ctx: Context): Obj {
  const {store} = ctx
  return {
    repository: ({owner, name}: Args) => {
      const repo = store.state.repos[`${String(owner)}/${String(name)}`]
      if (!repo)
        throw notFoundError(`Could not resolve to a Repository with the name '${String(owner)}/${String(name)}'.`)
      return repositoryNode(ctx, repo)
    },
  }
}

/** Mutation's fields on repositories. */
export function repoMutations(ctx: Context): Obj {
  const {store} = ctx
  return {
    // A new repository of the viewer's (the sandbox has no organizations), empty as GitHub makes it: no commit, no branch.
    createRepository: (args: Args) => {
      const i = input(args)
      const owner = i.ownerId === undefined || i.ownerId === null ? ctx.viewer : userLogin(store, i.ownerId)
      if (owner !== ctx.viewer)
        throw new NotModelled(
          'ghx-bench sandbox does not model creating a repository for another owner (organizations)',
        )
      if (i.template === true) throw new NotModelled('ghx-bench sandbox does not model template repositories')
      const name = repositoryName(text(i.name))
      if (store.state.repos[`${owner}/${name}`])
        throw new GraphQLError('Name already exists on this account', {extensions: {type: 'UNPROCESSABLE'}})
      const repo = store.repos.create(owner, name, {
        description: (i.description as string | undefined) ?? null,
        homepage: (i.homepageUrl as string | undefined) ?? null,
        private: i.visibility !== 'PUBLIC',
        files: null,
      })
      repo.issue_types = []
      return {...mutationId(args), repository: repositoryNode(ctx, repo)}
    },
  }
}
