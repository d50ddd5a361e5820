/** What a fixture kind works with: the repository, both identities, and the seed's labels. */
import type {GithubClient} from '../github/client.js'
import type {GitHubTarget} from '../github/target.js'

export interface SeedOptions {
  agentLogin: string
  reviewerLogin: string
  defaultBranch: string
  /** Suffix for per-iteration resources (seed_per_iteration). */
  suffix?: string
  workflowPollMs?: number
}

export interface FixtureContext {
  owner: string
  name: string
  seedId: string
  /** The agent's identity. */
  agent: GithubClient
  /** A second identity (reviewer, commenter, pull request author), so the agent can review others' work. */
  second: GithubClient
  /** Who and when a seeded commit of a login says it is (GitHubTarget.fixtures.commitAs); absent: GitHub's own. */
  commitAs?: (login: string) => {name: string; email: string; date: string}
}

/**
 * One seeding's view of a target: its fixture repository and identities (the target's, or those of one
 * run's GitHub: GitHubTarget.openRun), and the seed id.
 */
export function fixtureContext(
  target: GitHubTarget,
  seedId: string,
  identities: Pick<GitHubTarget, 'agent' | 'second'> = target,
): FixtureContext {
  return {
    owner: target.repo.owner,
    name: target.repo.name,
    seedId,
    agent: identities.agent,
    second: identities.second,
    ...(target.fixtures.commitAs ? {commitAs: (login: string) => target.fixtures.commitAs!(login)} : {}),
  }
}

/** The committer a seeded commit by `client` names, when the target dates seeded commits (FixtureContext.commitAs). */
export async function seededCommitter(
  ctx: FixtureContext,
  client: GithubClient,
): Promise<{committer?: {name: string; email: string; date: string}}> {
  return ctx.commitAs ? {committer: ctx.commitAs(await loginOf(client))} : {}
}

/** What a manifest records of a target (who the identities are, the default branch), and how seeding polls there. */
export function seedOptionsOn(target: GitHubTarget): SeedOptions {
  return {
    agentLogin: target.logins.agent,
    reviewerLogin: target.logins.reviewer,
    defaultBranch: target.repo.defaultBranch,
    ...(target.fixtures.workflowPollMs === undefined ? {} : {workflowPollMs: target.fixtures.workflowPollMs}),
  }
}

export const FIXTURE_LABEL = {name: 'bench-fixture', color: '5319e7', description: 'created by ghx-bench fixtures'}

export function seedLabel(seedId: string): {name: string; color: string; description: string} {
  return {name: `bench-seed:${seedId}`, color: '1d76db', description: 'one ghx-bench seeding'}
}

export function repoParams(ctx: FixtureContext): {owner: string; repo: string} {
  return {owner: ctx.owner, repo: ctx.name}
}

/** Creates the labels that do not exist yet (idempotent). */
export async function ensureLabels(
  ctx: FixtureContext,
  labels: Array<{name: string; color: string; description?: string}>,
): Promise<void> {
  const existing = new Set(
    (await ctx.agent.paginate(ctx.agent.rest.issues.listLabelsForRepo, {...repoParams(ctx), per_page: 100})).map((l) =>
      l.name.toLowerCase(),
    ),
  )
  for (const label of labels) {
    if (!existing.has(label.name.toLowerCase())) await ctx.agent.rest.issues.createLabel({...repoParams(ctx), ...label})
  }
}

const logins = new WeakMap<GithubClient, Promise<string>>()

/** The login behind a client (asked once); for the agent, whose token is a user's. */
export function loginOf(client: GithubClient): Promise<string> {
  let value = logins.get(client)
  if (!value) {
    value = client.rest.users.getAuthenticated().then(
      (r) => r.data.login,
      (error: unknown) => {
        logins.delete(client)
        throw error
      },
    )
    logins.set(client, value)
  }
  return value
}

/** The identity that can undo what `login` did: the agent for its own work, else the second identity. */
export async function clientFor(ctx: FixtureContext, login: string | null | undefined): Promise<GithubClient> {
  return login === (await loginOf(ctx.agent)) ? ctx.agent : ctx.second
}

/** An issue or pull request as a reader names it: `#12` in the fixture repository, `owner/repo#12` elsewhere. */
export function issueRef(ctx: FixtureContext, number: number, nameWithOwner?: string | null): string {
  return !nameWithOwner || nameWithOwner.toLowerCase() === `${ctx.owner}/${ctx.name}`.toLowerCase()
    ? `#${number}`
    : `${nameWithOwner}#${number}`
}

/** owner/name from a REST repository_url (…/repos/owner/name). */
export function repoOfUrl(url: string | undefined, ctx: FixtureContext): {owner: string; repo: string} {
  const match = url ? /\/repos\/([^/]+)\/([^/]+)$/.exec(url) : null
  return match ? {owner: match[1]!, repo: match[2]!} : repoParams(ctx)
}

/** A reaction as the snapshot records it: `THUMBS_UP by login`. */
export function reactionText(reaction: {content: string; user: {login: string} | null}): string {
  return `${reaction.content} by ${reaction.user?.login ?? 'ghost'}`
}

/** A comment as the snapshot records it: `login: body` (ids and times change when it is re-made). */
export function commentText(comment: {
  user?: {login: string} | null
  author?: {login: string} | null
  body?: string | null
}): string {
  return `${comment.user?.login ?? comment.author?.login ?? 'ghost'}: ${comment.body ?? ''}`
}
