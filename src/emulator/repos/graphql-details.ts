/**
 * The rest of a repository's GraphQL fields (`gh repo view --json` asks for all of them): what
 * GitHub derives from the files on the default branch (meta.ts), forks, topics, and the viewer's
 * relation to the repository.
 */
import {connection, type Args, type Context, type Obj} from '../core/graphql-objects.js'
import type {Repo} from '../core/state.js'
import {knownUsers} from '../users/graphql.js'
import {
  blankIssuesEnabled,
  codeOfConduct,
  contactLinks,
  defaultTree,
  diskUsage,
  forksOf,
  fundingLinks,
  issueTemplates,
  languages,
  license,
  primaryLanguage,
  pullRequestTemplates,
  pushedAt,
  securityPolicy,
} from './meta.js'

/** What a Repository object reads its fields from (a symbol: GraphQL's field names are strings). */
export const REPO_OF = Symbol('repository')
interface RepoOf {
  ctx: Context
  repo: Repo
}

/** A field of a Repository object: what `read` makes of its context and repository, and the field's arguments. */
export const repoField = (read: (of: RepoOf, args: Args) => unknown) =>
  function (this: {[REPO_OF]: RepoOf}, args: Args) {
    return read(this[REPO_OF], args)
  }
const field = repoField

const fullName = (repo: Repo) => `${repo.owner}/${repo.name}`
const web = (ctx: Context, repo: Repo) => `${ctx.links.html}/${fullName(repo)}`
const forks = (ctx: Context, repo: Repo) => forksOf(ctx.store.state.repos, repo)
const email = (ctx: Context) => `${ctx.viewer}@users.noreply.github.localhost`

function licenseNode(repo: Repo): Obj | null {
  const found = license(repo)
  if (!found) return null
  return {
    __typename: 'License',
    id: `L_kw${Buffer.from(found.key).toString('base64url')}`,
    key: found.key,
    name: found.name,
    nickname: null,
    spdxId: found.spdx_id,
    url: found.key === 'other' ? null : `http://choosealicense.com/licenses/${found.key}/`,
    pseudoLicense: found.key === 'other',
    featured: ['mit', 'apache-2.0', 'gpl-3.0'].includes(found.key),
    hidden: false,
    body: defaultTree(repo)[found.path] ?? '',
  }
}

/** These fields of the Repository objects' prototype (repos/graphql.ts). */
export const REPOSITORY_DETAILS: Obj = {
  resourcePath: field(({repo}) => `/${fullName(repo)}`),
  homepageUrl: field(({repo}) => repo.homepage ?? null),
  mirrorUrl: null,
  sshUrl: field(({repo}) => `git@github.localhost:${fullName(repo)}.git`),
  pushedAt: field(({repo}) => pushedAt(repo)),
  updatedAt: field(({repo}) => pushedAt(repo)),
  diskUsage: field(({repo}) => diskUsage(repo)),
  forkCount: field(({ctx, repo}) => forks(ctx, repo).length),
  forks: field(({ctx, repo}, args) =>
    connection(
      forks(ctx, repo).map((r) => ctx.nodes.Repository(ctx, r)),
      args,
    ),
  ),
  forkingAllowed: true,
  templateRepository: null,
  openGraphImageUrl: field(({repo}) => `https://opengraph.githubassets.com/1/${fullName(repo)}`),
  usesCustomOpenGraphImage: false,
  codeOfConduct: field(({ctx, repo}) => {
    const code = codeOfConduct(repo)
    return code
      ? {
          __typename: 'CodeOfConduct',
          id: `COC_kw${Buffer.from(code.key).toString('base64url')}`,
          key: code.key,
          name: code.name,
          body: code.body,
          resourcePath: `/${fullName(repo)}/blob/${repo.default_branch}/${code.path}`,
          url: `${web(ctx, repo)}/blob/${repo.default_branch}/${code.path}`,
        }
      : null
  }),
  contactLinks: field(({repo}) => contactLinks(repo)),
  fundingLinks: field(({repo}) => fundingLinks(repo)),
  isBlankIssuesEnabled: field(({repo}) => blankIssuesEnabled(repo)),
  isSecurityPolicyEnabled: field(({repo}) => securityPolicy(repo) !== null),
  securityPolicyUrl: field(({ctx, repo}) => (securityPolicy(repo) ? `${web(ctx, repo)}/security/policy` : null)),
  isUserConfigurationRepository: field(({repo}) => repo.name.toLowerCase() === repo.owner.toLowerCase()),
  issueTemplates: field(({repo}) =>
    issueTemplates(repo).map((t) => ({
      name: t.name,
      about: t.about,
      title: t.title,
      body: t.body,
      filename: t.filename,
    })),
  ),
  pullRequestTemplates: field(({ctx, repo}) =>
    pullRequestTemplates(repo).map((t) => ({
      filename: t.filename,
      body: t.body,
      repository: () => ctx.nodes.Repository(ctx, repo),
    })),
  ),
  languages: field(({repo}, args) => {
    const list = languages(repo)
    const orderBy = (args.orderBy ?? {}) as {field?: string; direction?: string}
    const ordered = orderBy.direction === 'ASC' ? [...list].reverse() : list
    const nodes = ordered.map((l) => ({
      __typename: 'Language',
      id: `LANG_kw${Buffer.from(l.name).toString('base64url')}`,
      name: l.name,
      color: l.color,
    }))
    const page = connection(nodes, args)
    const sizes = new Map(list.map((l) => [l.name, l.size]))
    return {
      ...page,
      edges: (page.edges as Array<{node: {name: string}; cursor: string}>).map((e) => ({
        ...e,
        size: sizes.get(e.node.name),
      })),
      totalSize: list.reduce((n, l) => n + l.size, 0),
    }
  }),
  primaryLanguage: field(({repo}) => {
    const primary = primaryLanguage(repo)
    return primary
      ? {
          __typename: 'Language',
          id: `LANG_kw${Buffer.from(primary.name).toString('base64url')}`,
          name: primary.name,
          color: primary.color,
        }
      : null
  }),
  licenseInfo: field(({repo}) => licenseNode(repo)),
  repositoryTopics: field(({ctx, repo}, args) =>
    connection(
      (repo.topics ?? []).map((name) => ({
        __typename: 'RepositoryTopic',
        id: `RT_kw${Buffer.from(`${repo.id}:${name}`).toString('base64url')}`,
        resourcePath: `/topics/${name}`,
        url: `${ctx.links.html}/topics/${name}`,
        topic: {__typename: 'Topic', id: `TO_kw${Buffer.from(name).toString('base64url')}`, name},
      })),
      args,
    ),
  ),
  // Projects (classic) are gone from GitHub: none.
  projects: (args: Args) => connection([], args),
  projectsResourcePath: field(({repo}) => `/${fullName(repo)}/projects`),
  projectsUrl: field(({ctx, repo}) => `${web(ctx, repo)}/projects`),
  viewerCanAdminister: true,
  viewerCanCreateProjects: true,
  viewerCanSubscribe: true,
  viewerCanUpdateTopics: true,
  viewerDefaultCommitEmail: field(({ctx}) => email(ctx)),
  viewerPossibleCommitEmails: field(({ctx}) => [email(ctx)]),
  viewerDefaultMergeMethod: 'MERGE',
  // Watching is not modelled: nobody watches, as REST's subscribers_count says.
  viewerSubscription: 'UNSUBSCRIBED',
  watchers: (args: Args) => connection([], args),
  hasSponsorshipsEnabled: false,
  hasVulnerabilityAlertsEnabled: false,
  autoMergeAllowed: false,
  allowUpdateBranch: false,
  webCommitSignoffRequired: false,
  squashPrTitleUsedAsDefault: false,
  archivedAt: null,
  lockReason: null,
  descriptionHTML: field(({repo}) => `<div>${repo.description ?? ''}</div>`),
  shortDescriptionHTML: field(({repo}) => repo.description ?? ''),
  collaborators: field(({ctx}, args) => {
    const page = connection(knownUsers(ctx, args), args)
    return {...page, edges: (page.edges as Obj[]).map((e) => ({...e, permission: 'ADMIN', permissionSources: []}))}
  }),
}
