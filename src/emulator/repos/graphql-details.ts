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

export function repositoryDetails(ctx: Context, repo: Repo): Obj {
  const fullName = `${repo.owner}/${repo.name}`
  const web = `${ctx.links.html}/${fullName}`
  const tree = () => defaultTree(repo)
  const pushed = pushedAt(repo)
  const forks = () => forksOf(ctx.store.state.repos, repo)
  const email = `${ctx.viewer}@users.noreply.github.localhost`
  const licenseNode = () => {
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
      body: tree()[found.path] ?? '',
    }
  }
  return {
    resourcePath: `/${fullName}`,
    homepageUrl: repo.homepage ?? null,
    mirrorUrl: null,
    sshUrl: `git@github.localhost:${fullName}.git`,
    pushedAt: pushed,
    updatedAt: pushed,
    diskUsage: () => diskUsage(repo),
    forkCount: () => forks().length,
    forks: (args: Args) =>
      connection(
        forks().map((r) => ctx.nodes.Repository(ctx, r)),
        args,
      ),
    forkingAllowed: true,
    templateRepository: null,
    openGraphImageUrl: `https://opengraph.githubassets.com/1/${fullName}`,
    usesCustomOpenGraphImage: false,
    codeOfConduct: () => {
      const code = codeOfConduct(repo)
      return code
        ? {
            __typename: 'CodeOfConduct',
            id: `COC_kw${Buffer.from(code.key).toString('base64url')}`,
            key: code.key,
            name: code.name,
            body: code.body,
            resourcePath: `/${fullName}/blob/${repo.default_branch}/${code.path}`,
            url: `${web}/blob/${repo.default_branch}/${code.path}`,
          }
        : null
    },
    contactLinks: () => contactLinks(repo),
    fundingLinks: () => fundingLinks(repo),
    isBlankIssuesEnabled: () => blankIssuesEnabled(repo),
    isSecurityPolicyEnabled: () => securityPolicy(repo) !== null,
    securityPolicyUrl: () => (securityPolicy(repo) ? `${web}/security/policy` : null),
    isUserConfigurationRepository: repo.name.toLowerCase() === repo.owner.toLowerCase(),
    issueTemplates: () =>
      issueTemplates(repo).map((t) => ({
        name: t.name,
        about: t.about,
        title: t.title,
        body: t.body,
        filename: t.filename,
      })),
    pullRequestTemplates: () =>
      pullRequestTemplates(repo).map((t) => ({
        filename: t.filename,
        body: t.body,
        repository: () => ctx.nodes.Repository(ctx, repo),
      })),
    languages: (args: Args) => {
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
    },
    primaryLanguage: () => {
      const primary = primaryLanguage(repo)
      return primary
        ? {
            __typename: 'Language',
            id: `LANG_kw${Buffer.from(primary.name).toString('base64url')}`,
            name: primary.name,
            color: primary.color,
          }
        : null
    },
    licenseInfo: licenseNode,
    repositoryTopics: (args: Args) =>
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
    // Projects (classic) are gone from GitHub: none.
    projects: (args: Args) => connection([], args),
    projectsResourcePath: `/${fullName}/projects`,
    projectsUrl: `${web}/projects`,
    viewerCanAdminister: true,
    viewerCanCreateProjects: true,
    viewerCanSubscribe: true,
    viewerCanUpdateTopics: true,
    viewerDefaultCommitEmail: email,
    viewerPossibleCommitEmails: [email],
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
    descriptionHTML: `<div>${repo.description ?? ''}</div>`,
    shortDescriptionHTML: repo.description ?? '',
    collaborators: (args: Args) => {
      const page = connection(knownUsers(ctx, args), args)
      return {...page, edges: (page.edges as Obj[]).map((e) => ({...e, permission: 'ADMIN', permissionSources: []}))}
    },
  }
}
