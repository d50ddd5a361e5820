/**
 * REST routes about repositories themselves: get and update, create (for the authenticated user),
 * forks, the user's repositories, topics, languages, the license, assignees and collaborators;
 * branches, a commit, the branches whose head a commit is, and its comments. Contents, refs, the git
 * database, commit lists, tags and comparisons are in git-routes.ts.
 * The sandbox has no organizations: a repository belongs to a user, and every user it knows may be
 * assigned and collaborates (with admin rights, as the agent has on its fixture repository).
 */
import {notFound, notModelled, SandboxError, unprocessable} from '../core/errors.js'
import {diffTrees, renderDiff} from '../core/git.js'
import {checkRequired, checkTypes} from '../core/request-schema.js'
import {commitOf, num, repoOf, str, type RestContext, type RouteDef} from '../core/rest-support.js'
import type {Repo} from '../core/state.js'
import {forksOf, languages, license, pushedAt} from './meta.js'
import {repositoryName} from './store.js'
import {contentEntry} from './serialize-git.js'

/** GET /repos/{o}/{r}: the repository, and for a fork its parent and the network's source. */
function fullRepo(ctx: RestContext, repo: Repo): Record<string, unknown> {
  const body = ctx.ser.repos.repo(repo)
  if (!repo.fork_of) return body
  const parent = ctx.store.state.repos[repo.fork_of]
  if (!parent) return body
  let source = parent
  while (source.fork_of && ctx.store.state.repos[source.fork_of]) source = ctx.store.state.repos[source.fork_of]!
  return {...body, parent: ctx.ser.repos.repo(parent), source: ctx.ser.repos.repo(source)}
}

/** The users of the sandbox who can be assigned and collaborate: every user (not a bot), by login. */
function collaborators(ctx: RestContext): string[] {
  return Object.values(ctx.store.state.users)
    .filter((u) => u.type === 'User')
    .map((u) => u.login)
    .sort((a, b) => a.localeCompare(b))
}

const isCollaborator = (ctx: RestContext, login: string) =>
  collaborators(ctx).some((l) => l.toLowerCase() === login.toLowerCase())

function ownedBy(ctx: RestContext, login: string): Repo[] {
  const sort = ctx.query.get('sort') ?? 'full_name'
  const direction = ctx.query.get('direction') ?? (sort === 'full_name' ? 'asc' : 'desc')
  const key = (r: Repo) =>
    sort === 'created' ? r.created_at : sort === 'full_name' ? `${r.owner}/${r.name}` : pushedAt(r)
  const sign = direction === 'asc' ? 1 : -1
  return Object.values(ctx.store.state.repos)
    .filter((r) => r.owner === login)
    .sort((a, b) => key(a).localeCompare(key(b)) * sign)
}

function permission(ctx: RestContext, login: string): Record<string, unknown> {
  return {
    permission: 'admin',
    role_name: 'admin',
    user: {
      ...ctx.ser.users.user(login),
      permissions: {admin: true, maintain: true, push: true, triage: true, pull: true},
      role_name: 'admin',
    },
  }
}

export const repoRoutes: RouteDef[] = [
  ['GET', '/repos/{owner}/{repo}', 'repos/get', (ctx) => ({body: fullRepo(ctx, repoOf(ctx))})],
  [
    'PATCH',
    '/repos/{owner}/{repo}',
    'repos/update',
    (ctx) => {
      const repo = repoOf(ctx)
      checkTypes(
        ctx.body,
        {
          name: 'a string',
          description: 'a string',
          homepage: 'a string',
          private: 'a boolean',
          default_branch: 'a string',
          archived: 'a boolean',
        },
        ['description', 'homepage'],
      )
      if (str(ctx.body, 'name') !== undefined && str(ctx.body, 'name') !== repo.name)
        throw notModelled('renaming a repository (PATCH /repos/{owner}/{repo} name)')
      if (ctx.body.archived === true) throw notModelled('archiving a repository')
      if (str(ctx.body, 'default_branch') !== undefined) {
        const branch = str(ctx.body, 'default_branch')!
        if (!repo.branches[branch])
          throw unprocessable(
            `The branch ${branch} was not found. Please push that ref first or create it via the Git Data API.`,
            'default_branch',
            'Repository',
          )
        repo.default_branch = branch
      }
      if ('description' in ctx.body) repo.description = str(ctx.body, 'description') ?? null
      if ('homepage' in ctx.body) repo.homepage = str(ctx.body, 'homepage') ?? null
      if (typeof ctx.body.private === 'boolean') repo.private = ctx.body.private
      return {body: fullRepo(ctx, repo)}
    },
  ],
  ['GET', '/repos/{owner}/{repo}/topics', 'repos/get-all-topics', (ctx) => ({body: {names: repoOf(ctx).topics ?? []}})],
  [
    'PUT',
    '/repos/{owner}/{repo}/topics',
    'repos/replace-all-topics',
    (ctx) => {
      const repo = repoOf(ctx)
      checkRequired(ctx.body, ['names'])
      checkTypes(ctx.body, {names: 'an array'})
      const names = (ctx.body.names as unknown[]).map((n) => String(n).toLowerCase())
      const invalid = names.find((n) => !/^[a-z0-9][a-z0-9-]{0,49}$/.test(n))
      if (invalid !== undefined)
        throw unprocessable(
          `${invalid} is not a valid topic. Topics must start with a lowercase letter or number, consist of 50 characters or less, and can include hyphens.`,
          'names',
          'Repository',
        )
      repo.topics = [...new Set(names)]
      return {body: {names: repo.topics}}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/languages',
    'repos/list-languages',
    (ctx) => ({body: Object.fromEntries(languages(repoOf(ctx)).map((l) => [l.name, l.size]))}),
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/license',
    'licenses/get-for-repo',
    (ctx) => {
      const repo = repoOf(ctx)
      const found = license(repo)
      if (!found) throw notFound()
      const file = contentEntry(
        ctx.ser,
        repo,
        repo.default_branch,
        found.path,
        repo.commits[repo.branches[repo.default_branch]!]!.tree[found.path]!,
      )
      return {
        body: {
          ...file,
          license: {
            key: found.key,
            name: found.name,
            spdx_id: found.spdx_id,
            url: found.key === 'other' ? null : `${ctx.ser.links.api}/licenses/${found.key}`,
            node_id: `L_kw${Buffer.from(found.key).toString('base64url')}`,
          },
        },
      }
    },
  ],

  // creating repositories and forks
  [
    'POST',
    '/user/repos',
    'repos/create-for-authenticated-user',
    (ctx) => {
      checkRequired(ctx.body, ['name'])
      checkTypes(ctx.body, {
        name: 'a string',
        description: 'a string',
        homepage: 'a string',
        private: 'a boolean',
        auto_init: 'a boolean',
      })
      const name = repositoryName(str(ctx.body, 'name')!)
      const description = str(ctx.body, 'description') ?? null
      const repo = ctx.store.repos.create(ctx.viewer, name, {
        description,
        homepage: str(ctx.body, 'homepage') ?? null,
        private: ctx.body.private === true,
        // Without auto_init, GitHub makes an empty repository: no commit, no branch.
        files:
          ctx.body.auto_init === true ? {'README.md': `# ${name}\n${description ? `${description}\n` : ''}`} : null,
      })
      repo.issue_types = []
      return {status: 201, body: fullRepo(ctx, repo)}
    },
  ],
  [
    'GET',
    '/user/repos',
    'repos/list-for-authenticated-user',
    (ctx) => ({list: ownedBy(ctx, ctx.viewer).map((r) => ctx.ser.repos.repo(r))}),
  ],
  [
    'GET',
    '/users/{username}/repos',
    'repos/list-for-user',
    (ctx) => {
      if (!ctx.store.state.users[ctx.params.username!]) throw notFound()
      return {list: ownedBy(ctx, ctx.params.username!).map((r) => ctx.ser.repos.repo(r))}
    },
  ],
  [
    'POST',
    '/repos/{owner}/{repo}/forks',
    'repos/create-fork',
    (ctx) => {
      const repo = repoOf(ctx)
      checkTypes(ctx.body, {organization: 'a string', name: 'a string', default_branch_only: 'a boolean'})
      const organization = str(ctx.body, 'organization') ?? ctx.query.get('organization') ?? undefined
      if (organization) throw notModelled('forking into an organization (the sandbox has no organizations)')
      if (repo.owner === ctx.viewer) throw unprocessable('You cannot fork a repository you own', 'owner', 'Repository')
      const asked = str(ctx.body, 'name')
      const base = asked === undefined ? repo.name : repositoryName(asked)
      let name = base
      const taken = (n: string) =>
        ctx.store.state.repos[`${ctx.viewer}/${n}`] !== undefined &&
        ctx.store.state.repos[`${ctx.viewer}/${n}`]!.fork_of !== `${repo.owner}/${repo.name}`
      // A name the user already has gets a number, as GitHub names a second fork.
      for (let i = 1; taken(name); i++) name = `${base}-${i}`
      const fork = ctx.store.repos.fork(repo, ctx.viewer, name, ctx.body.default_branch_only === true)
      return {status: 202, body: fullRepo(ctx, fork)}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/forks',
    'repos/list-forks',
    (ctx) => {
      const repo = repoOf(ctx)
      const forks = forksOf(ctx.store.state.repos, repo)
      const order = ctx.query.get('sort') === 'oldest' ? 1 : -1
      return {list: forks.sort((a, b) => (a.id - b.id) * order).map((r) => ctx.ser.repos.repo(r))}
    },
  ],

  // assignees and collaborators
  [
    'GET',
    '/repos/{owner}/{repo}/assignees',
    'issues/list-assignees',
    (ctx) => {
      repoOf(ctx)
      return {list: collaborators(ctx).map((login) => ctx.ser.users.user(login))}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/assignees/{assignee}',
    'issues/check-user-can-be-assigned',
    (ctx) => {
      repoOf(ctx)
      if (!isCollaborator(ctx, ctx.params.assignee!)) throw notFound()
      return {status: 204}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/issues/{issue_number}/assignees/{assignee}',
    'issues/check-user-can-be-assigned-to-issue',
    (ctx) => {
      ctx.store.issues.get(repoOf(ctx), num(ctx.params.issue_number, 'issue_number'))
      if (!isCollaborator(ctx, ctx.params.assignee!)) throw notFound()
      return {status: 204}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/contributors',
    'repos/list-contributors',
    (ctx) => {
      const repo = repoOf(ctx)
      const head = repo.branches[repo.default_branch]
      // An empty repository has no contributors: GitHub answers 204.
      if (!head) return {status: 204}
      // The authors of the default branch's commits, most commits first (ties by login).
      const counts = new Map<string, number>()
      for (const sha of ctx.store.git.ancestors(repo, head)) {
        const author = ctx.store.git.commit(repo, sha).author
        counts.set(author, (counts.get(author) ?? 0) + 1)
      }
      const ranked = [...counts].sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
      return {list: ranked.map(([login, contributions]) => ({...ctx.ser.users.user(login), contributions}))}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/collaborators',
    'repos/list-collaborators',
    (ctx) => {
      repoOf(ctx)
      const affiliation = ctx.query.get('affiliation') ?? 'all'
      if (!['all', 'direct', 'outside'].includes(affiliation))
        throw unprocessable('affiliation must be outside, direct or all', 'affiliation')
      // No organizations: nobody is an outside collaborator.
      const logins = affiliation === 'outside' ? [] : collaborators(ctx)
      return {
        list: logins.map((login) => ({
          ...ctx.ser.users.user(login),
          permissions: {admin: true, maintain: true, push: true, triage: true, pull: true},
          role_name: 'admin',
        })),
      }
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/collaborators/{username}',
    'repos/check-collaborator',
    (ctx) => {
      repoOf(ctx)
      if (!isCollaborator(ctx, ctx.params.username!)) throw notFound()
      return {status: 204}
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/collaborators/{username}/permission',
    'repos/get-collaborator-permission-level',
    (ctx) => {
      repoOf(ctx)
      const user = ctx.store.state.users[ctx.params.username!]
      if (!user) throw notFound()
      if (!isCollaborator(ctx, user.login))
        return {body: {permission: 'none', role_name: 'none', user: ctx.ser.users.user(user.login)}}
      return {body: permission(ctx, user.login)}
    },
  ],
  [
    'PUT',
    '/repos/{owner}/{repo}/collaborators/{username}',
    'repos/add-collaborator',
    (ctx) => {
      repoOf(ctx)
      if (!ctx.store.state.users[ctx.params.username!]) throw new SandboxError(404, 'Not Found')
      // Everyone the sandbox knows already collaborates: GitHub answers 204 for an existing collaborator.
      return {status: 204}
    },
  ],

  // branches and commits
  [
    'GET',
    '/repos/{owner}/{repo}/branches',
    'repos/list-branches',
    (ctx) => {
      const repo = repoOf(ctx)
      return {
        list: Object.entries(repo.branches)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([name, sha]) => ({
            name,
            commit: {sha, url: `${ctx.ser.links.api}/repos/${repo.owner}/${repo.name}/commits/${sha}`},
            protected: false,
          })),
      }
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/branches/{branch}',
    'repos/get-branch',
    (ctx) => {
      const repo = repoOf(ctx)
      const sha = ctx.store.git.branchSha(repo, ctx.params.branch!)
      const api = `${ctx.ser.links.api}/repos/${repo.owner}/${repo.name}/branches/${ctx.params.branch}`
      return {
        body: {
          name: ctx.params.branch,
          commit: ctx.ser.repos.commit(repo, ctx.store.git.commit(repo, sha)),
          _links: {self: api, html: `${ctx.ser.links.html}/${repo.owner}/${repo.name}/tree/${ctx.params.branch}`},
          protected: false,
          protection: {enabled: false, required_status_checks: {enforcement_level: 'off', contexts: [], checks: []}},
          protection_url: `${api}/protection`,
        },
      }
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/commits/{ref}',
    'repos/get-commit',
    (ctx) => {
      const repo = repoOf(ctx)
      const commit = ctx.store.git.commit(repo, commitOf(ctx, repo, ctx.params.ref!))
      // One commit, unlike a list's, carries its changes against its first parent (a root commit's, every file).
      const parent = commit.parents[0]
      const changes = diffTrees(parent ? ctx.store.git.commit(repo, parent).tree : {}, commit.tree)
      if (/diff|patch/.test(ctx.accept)) return {text: renderDiff(changes), contentType: 'text/plain; charset=utf-8'}
      const additions = changes.reduce((sum, change) => sum + change.additions, 0)
      const deletions = changes.reduce((sum, change) => sum + change.deletions, 0)
      return {
        body: {
          ...ctx.ser.repos.commit(repo, commit),
          stats: {total: additions + deletions, additions, deletions},
          files: changes.map((change) => ctx.ser.repos.diffEntry(repo, commit.sha, change)),
        },
      }
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/commits/{commit_sha}/branches-where-head',
    'repos/list-branches-for-head-commit',
    (ctx) => {
      const repo = repoOf(ctx)
      const sha = commitOf(ctx, repo, ctx.params.commit_sha!)
      const api = `${ctx.ser.links.api}/repos/${repo.owner}/${repo.name}`
      return {
        body: Object.entries(repo.branches)
          .filter(([, head]) => head === sha)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([name]) => ({name, commit: {sha, url: `${api}/commits/${sha}`}, protected: false})),
      }
    },
  ],
  [
    'GET',
    '/repos/{owner}/{repo}/commits/{commit_sha}/comments',
    'repos/list-comments-for-commit',
    (ctx) => {
      const repo = repoOf(ctx)
      commitOf(ctx, repo, ctx.params.commit_sha!)
      // The sandbox models no commit comments (creating one answers 501): a commit has none.
      return {list: []}
    },
  ],
]
