/**
 * GitHub's search over the sandbox's state, for REST (`/search/issues`, `/search/repositories`,
 * `/search/code`, `/search/commits`, `/search/users`: rest-search.ts) and GraphQL (`Query.search`).
 *
 * The query language is GitHub's: words and "quoted phrases" (case-insensitive; a word matches where
 * the text contains it), `key:value` qualifiers (`label:"good first issue"`, a comma list such as
 * `label:bug,docs` is any of them), `-key:value` and `NOT` to exclude, `AND`, `OR` and parentheses
 * (advanced search; legacy search ORs adjacent `repo:`/`user:`/`org:` qualifiers, advanced search
 * ANDs them), `@me` for the viewer, `in:` to choose the fields words match, and `sort:`. A word that
 * looks like a qualifier GitHub does not know (`foo:bar`) is a word, as on GitHub. A qualifier GitHub
 * knows and the sandbox cannot answer (teams) answers 501. A repository or user that does not
 * exist is GitHub's 422 in REST (`SearchInvalid`); GraphQL answers no results.
 *
 * Best match (the default order) ranks by how often the words occur (a title counts double), then
 * newest first; without words, newest first.
 */
import {mentionedLogins} from './events.js'
import {notModelled} from './errors.js'
import {blobSha} from './git-objects.js'
import {defaultTree, primaryLanguage} from './repo-meta.js'
import type {Store} from './store.js'
import type {Commit, Issue, Pull, Repo, User} from './state.js'

// ---- the query language -----------------------------------------------------------------------

export type Expr =
  | {kind: 'and'; items: Expr[]}
  | {kind: 'or'; items: Expr[]}
  | {kind: 'not'; item: Expr}
  | {kind: 'text'; text: string}
  | {kind: 'qualifier'; key: string; value: string}

type Token = {type: 'lparen' | 'rparen' | 'and' | 'or' | 'not'} | {type: 'atom'; negated: boolean; key?: string; value: string; raw: string}

/** A repository or user a query names that does not exist: GitHub's 422. */
export class SearchInvalid extends Error {
  constructor(
    message: string,
    readonly code = 'invalid',
  ) {
    super(message)
  }
}

const REPOS_INVALID = 'The listed users and repositories cannot be searched either because the resources do not exist or you do not have permission to view them.'
const USERS_INVALID = 'The listed users cannot be searched either because the users do not exist or you do not have permission to view the users.'

function tokenize(query: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < query.length) {
    const c = query[i]!
    if (/\s/.test(c)) {
      i++
      continue
    }
    if (c === '(' || c === ')') {
      tokens.push({type: c === '(' ? 'lparen' : 'rparen'})
      i++
      continue
    }
    let raw = ''
    while (i < query.length && !/\s/.test(query[i]!) && query[i] !== ')') {
      if (query[i] === '"') {
        const end = query.indexOf('"', i + 1)
        const stop = end === -1 ? query.length : end + 1
        raw += query.slice(i, stop)
        i = stop
      } else raw += query[i++]
    }
    if (raw === 'AND' || raw === 'OR' || raw === 'NOT') {
      tokens.push({type: raw.toLowerCase() as 'and' | 'or' | 'not'})
      continue
    }
    const negated = raw.startsWith('-') && raw.length > 1
    const body = negated ? raw.slice(1) : raw
    const qualifier = /^([A-Za-z][A-Za-z_-]*):(.+)$/s.exec(body)
    const unquote = (v: string) => (v.startsWith('"') ? v.slice(1, v.length > 1 && v.endsWith('"') ? -1 : undefined) : v)
    if (qualifier) tokens.push({type: 'atom', negated, key: qualifier[1]!.toLowerCase(), value: unquote(qualifier[2]!), raw})
    else tokens.push({type: 'atom', negated, value: unquote(body), raw})
  }
  return tokens
}

/** Parses a query; `keys` are the qualifiers this kind of search knows (others are words). */
export function parseQuery(query: string, keys: ReadonlySet<string>): Expr {
  const tokens = tokenize(query)
  let at = 0
  const peek = () => tokens[at]
  const atom = (token: Extract<Token, {type: 'atom'}>): Expr => {
    const expr: Expr = token.key && keys.has(token.key) ? {kind: 'qualifier', key: token.key, value: token.value} : {kind: 'text', text: (token.key ? token.raw.replace(/^-/, '') : token.value).toLowerCase()}
    return token.negated ? {kind: 'not', item: expr} : expr
  }
  const unary = (): Expr => {
    const token = tokens[at++]!
    if (token.type === 'not') return peek() ? {kind: 'not', item: unary()} : {kind: 'text', text: 'not'}
    if (token.type === 'lparen') {
      const inner = or()
      if (peek()?.type === 'rparen') at++
      return inner
    }
    if (token.type === 'atom') return atom(token)
    // A stray AND, OR or ')' is a word, as GitHub reads it.
    return {kind: 'text', text: token.type === 'rparen' ? ')' : token.type}
  }
  const and = (): Expr => {
    const items: Expr[] = []
    while (at < tokens.length && peek()!.type !== 'or' && peek()!.type !== 'rparen') {
      if (peek()!.type === 'and') {
        at++
        continue
      }
      items.push(unary())
    }
    return items.length === 1 ? items[0]! : {kind: 'and', items}
  }
  const or = (): Expr => {
    const items = [and()]
    while (peek()?.type === 'or') {
      at++
      items.push(and())
    }
    return items.length === 1 ? items[0]! : {kind: 'or', items}
  }
  const items: Expr[] = []
  while (at < tokens.length) {
    items.push(or())
    if (peek()?.type === 'rparen') at++
  }
  return items.length === 1 ? items[0]! : {kind: 'and', items}
}

function walk(expr: Expr, visit: (e: Expr, negated: boolean) => void, negated = false): void {
  visit(expr, negated)
  if (expr.kind === 'and' || expr.kind === 'or') for (const item of expr.items) walk(item, visit, negated)
  if (expr.kind === 'not') walk(expr.item, visit, !negated)
}

/** Legacy search ORs the repo:, user: and org: qualifiers of a query's top level together. */
function legacyScopes(expr: Expr): Expr {
  if (expr.kind !== 'and' && expr.kind !== 'qualifier') return expr
  const items = expr.kind === 'and' ? expr.items : [expr]
  const scope = (e: Expr) => e.kind === 'qualifier' && ['repo', 'user', 'org', 'owner'].includes(e.key)
  const scopes = items.filter(scope)
  if (scopes.length < 2) return expr
  return {kind: 'and', items: [...items.filter((e) => !scope(e)), {kind: 'or', items: scopes}]}
}

function evaluate(expr: Expr, test: (e: Extract<Expr, {kind: 'text' | 'qualifier'}>) => boolean): boolean {
  switch (expr.kind) {
    case 'and':
      return expr.items.every((e) => evaluate(e, test))
    case 'or':
      return expr.items.some((e) => evaluate(e, test))
    case 'not':
      return !evaluate(expr.item, test)
    default:
      return test(expr)
  }
}

/** What a query holds besides its filter: the words (for ranking), in:, sort:, and the qualifiers that scope it. */
interface Shape {
  words: string[]
  fields: Set<string>
  sort?: {field: string; direction: 'asc' | 'desc'}
  qualifiers: Array<{key: string; value: string; negated: boolean}>
}

function shapeOf(expr: Expr): Shape {
  const shape: Shape = {words: [], fields: new Set(), qualifiers: []}
  walk(expr, (e, negated) => {
    if (e.kind === 'text' && !negated) shape.words.push(e.text)
    if (e.kind !== 'qualifier') return
    shape.qualifiers.push({key: e.key, value: e.value, negated})
    if (e.key === 'in') for (const field of e.value.toLowerCase().split(',')) shape.fields.add(field)
    if (e.key === 'sort') {
      const [field, direction] = /^(.*?)(?:-(asc|desc))?$/.exec(e.value.toLowerCase())!.slice(1) as [string, string | undefined]
      shape.sort = {field, direction: direction === 'asc' ? 'asc' : 'desc'}
    }
  })
  return shape
}

// ---- values: users, ranges, dates ---------------------------------------------------------------

const lower = (s: string | null | undefined) => (s ?? '').toLowerCase()
const anyOf = (value: string) => value.split(',').map((v) => v.trim().toLowerCase()).filter(Boolean)

/** A range qualifier's test: `N`, `>N`, `>=N`, `<N`, `<=N`, `A..B` (`*` open), for numbers or dates. */
function inRange(value: string, actual: number | string | null, kind: 'number' | 'date'): boolean {
  if (actual === null) return false
  const dateOnly = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v)
  const toNumber = (v: string, end = false): number => {
    if (kind === 'number') return Number(v)
    const t = Date.parse(dateOnly(v) ? `${v}T00:00:00Z` : v)
    return end && dateOnly(v) ? t + 86_400_000 : t
  }
  const x = kind === 'number' ? Number(actual) : Date.parse(String(actual))
  const range = /^(.+?)\.\.(.+)$/.exec(value)
  if (range) {
    const [lo, hi] = [range[1]!, range[2]!]
    return (lo === '*' || x >= toNumber(lo)) && (hi === '*' || (kind === 'date' && dateOnly(hi) ? x < toNumber(hi, true) : x <= toNumber(hi)))
  }
  const op = /^(>=|<=|>|<)?(.+)$/.exec(value)!
  const bound = op[2]!
  switch (op[1]) {
    case '>':
      return kind === 'date' && dateOnly(bound) ? x >= toNumber(bound, true) : x > toNumber(bound)
    case '>=':
      return x >= toNumber(bound)
    case '<':
      return x < toNumber(bound)
    case '<=':
      return kind === 'date' && dateOnly(bound) ? x < toNumber(bound, true) : x <= toNumber(bound)
    default:
      return kind === 'date' && dateOnly(bound) ? x >= toNumber(bound) && x < toNumber(bound, true) : x === toNumber(bound)
  }
}

const contains = (text: string | null | undefined, word: string) => lower(text).includes(word)
const occurrences = (text: string | null | undefined, word: string) => (word ? lower(text).split(word).length - 1 : 0)

// ---- scopes: repositories and users a query names -----------------------------------------------

const USER_KEYS = ['author', 'assignee', 'mentions', 'commenter', 'involves', 'reviewed-by', 'review-requested', 'user-review-requested', 'committer']

/** The viewer for @me; a login that does not exist, or a repository, is GitHub's 422. */
function checkNames(store: Store, viewer: string, shape: Shape): void {
  for (const {key, value} of shape.qualifiers) {
    const names = key === 'repo' ? [value] : anyOf(value)
    if (key === 'repo' && !Object.keys(store.state.repos).some((full) => full.toLowerCase() === value.toLowerCase())) throw new SearchInvalid(REPOS_INVALID)
    if (['user', 'org', 'owner'].includes(key) && names.some((n) => !userNamed(store, viewer, n))) throw new SearchInvalid(REPOS_INVALID)
    if (USER_KEYS.includes(key) && !value.startsWith('app/') && names.some((n) => !userNamed(store, viewer, n))) throw new SearchInvalid(USERS_INVALID)
  }
}

function userNamed(store: Store, viewer: string, name: string): User | undefined {
  const login = name === '@me' ? viewer : name
  return Object.values(store.state.users).find((u) => u.login.toLowerCase() === login.toLowerCase())
}

const isLogin = (viewer: string, value: string, login: string | null): boolean => login !== null && anyOf(value).some((v) => (v === '@me' ? viewer : v).toLowerCase() === login.toLowerCase())

function scopeTest(repo: Repo, key: string, value: string): boolean | undefined {
  if (key === 'repo') return `${repo.owner}/${repo.name}`.toLowerCase() === value.toLowerCase()
  if (key === 'user' || key === 'org' || key === 'owner') return anyOf(value).includes(repo.owner.toLowerCase())
  return undefined
}

// ---- issues and pull requests -------------------------------------------------------------------

const ISSUE_KEYS = new Set([
  'repo', 'user', 'org', 'owner', 'is', 'type', 'state', 'reason', 'author', 'assignee', 'mentions', 'commenter', 'involves', 'label', 'milestone',
  'no', 'has', 'in', 'sort', 'draft', 'review', 'reviewed-by', 'review-requested', 'user-review-requested', 'team-review-requested', 'team', 'head', 'base',
  'status', 'comments', 'interactions', 'reactions', 'created', 'updated', 'closed', 'merged', 'linked', 'language', 'archived', 'project', 'parent-issue',
])
/** Qualifiers GitHub has that need what the sandbox does not model (teams). */
const ISSUE_NOT_MODELLED = new Set(['team', 'team-review-requested'])

export interface IssueHit {
  repo: Repo
  issue: Issue
  score: number
}

export interface IssueSearchContext {
  store: Store
  viewer: string
  /** A pull request's review decision as GraphQL's reviewDecision gives it. */
  reviewDecision: (repo: Repo, pull: Pull) => string | null
}

/**
 * What `status:` reads: a commit's check runs (its workflow runs' jobs) and latest commit statuses
 * combined — any failure or error fails it, anything unfinished leaves it pending; null without any.
 */
export function commitState(store: Store, repo: Repo, sha: string): 'success' | 'failure' | 'pending' | null {
  const states: string[] = []
  for (const run of Object.values(repo.runs).filter((r) => r.head_sha === sha)) {
    const attempt = store.latestAttempt(run)
    for (const job of attempt.jobs) {
      const status = store.jobStatus(attempt, job)
      states.push(status.status !== 'completed' ? 'pending' : ['success', 'neutral', 'skipped'].includes(status.conclusion ?? '') ? 'success' : 'failure')
    }
  }
  for (const status of store.latestStatuses(repo, sha)) states.push(status.state === 'error' ? 'failure' : status.state)
  if (states.length === 0) return null
  if (states.includes('failure')) return 'failure'
  return states.includes('pending') ? 'pending' : 'success'
}

export function searchIssues(ctx: IssueSearchContext, query: string, options: {advanced?: boolean; sort?: string | null; order?: string | null} = {}): IssueHit[] {
  const {store, viewer} = ctx
  let expr = parseQuery(query, ISSUE_KEYS)
  if (!options.advanced) expr = legacyScopes(expr)
  const shape = shapeOf(expr)
  for (const q of shape.qualifiers) if (ISSUE_NOT_MODELLED.has(q.key)) throw notModelled(`the search qualifier ${q.key}: (the sandbox has no teams)`)
  checkNames(store, viewer, shape)
  const fields = shape.fields.size > 0 ? shape.fields : new Set(['title', 'body', 'comments'])
  const hits: IssueHit[] = []
  for (const repo of Object.values(store.state.repos)) {
    for (const issue of Object.values(repo.issues)) {
      const pull = issue.is_pull ? repo.pulls[issue.number] : undefined
      const comments = () => issue.comments.map((id) => repo.comments[id]!).filter(Boolean)
      const textOf = (word: string) =>
        (fields.has('title') && contains(issue.title, word)) || (fields.has('body') && contains(issue.body, word)) || (fields.has('comments') && comments().some((c) => contains(c.body, word)))
      const matches = evaluate(expr, (e) => (e.kind === 'text' ? textOf(e.text) : issueQualifier(ctx, repo, issue, pull, e.key, e.value)))
      if (!matches) continue
      const score = shape.words.reduce((n, w) => n + (fields.has('title') ? 2 * occurrences(issue.title, w) : 0) + (fields.has('body') ? occurrences(issue.body, w) : 0) + (fields.has('comments') ? comments().reduce((m, c) => m + occurrences(c.body, w), 0) : 0), 0)
      hits.push({repo, issue, score: shape.words.length ? score : 1})
    }
  }
  const sort = options.sort ? {field: options.sort, direction: options.order === 'asc' ? 'asc' : 'desc'} : shape.sort
  const key = (hit: IssueHit): number | string => {
    const reactions = () => store.reactions(hit.repo, {kind: 'issue', id: hit.issue.id})
    switch (sort?.field) {
      case 'created':
        return hit.issue.created_at
      case 'updated':
        return hit.issue.updated_at
      case 'comments':
        return hit.issue.comments.length
      case 'interactions':
        return hit.issue.comments.length + reactions().length
      case 'reactions':
        return reactions().length
      default: {
        const content = REACTION_SORTS[sort?.field ?? '']
        return content ? reactions().filter((r) => r.content === content).length : hit.score
      }
    }
  }
  const sign = sort && sort.direction === 'asc' ? 1 : -1
  const created = (hit: IssueHit) => `${hit.issue.created_at}:${String(hit.issue.id).padStart(12, '0')}`
  return hits.sort((a, b) => {
    const [x, y] = [key(a), key(b)]
    const primary = x < y ? -1 : x > y ? 1 : 0
    if (primary !== 0) return primary * sign
    // Ties (the same second, the same count) in creation order: the sort's direction, else newest first.
    return (created(a) < created(b) ? -1 : created(a) > created(b) ? 1 : 0) * sign
  })
}

const REACTION_SORTS: Record<string, string> = {'reactions-+1': '+1', 'reactions--1': '-1', 'reactions-smile': 'laugh', 'reactions-thinking_face': 'confused', 'reactions-heart': 'heart', 'reactions-tada': 'hooray'}

function issueQualifier(ctx: IssueSearchContext, repo: Repo, issue: Issue, pull: Pull | undefined, key: string, value: string): boolean {
  const {store, viewer} = ctx
  const v = value.toLowerCase()
  const scoped = scopeTest(repo, key, value)
  if (scoped !== undefined) return scoped
  const comments = () => issue.comments.map((id) => repo.comments[id]!).filter(Boolean)
  const reviewComments = () => (pull ? Object.values(repo.review_comments).filter((c) => c.pull === issue.number) : [])
  const reviews = () => (pull ? Object.values(repo.reviews).filter((r) => r.pull === issue.number && r.state !== 'PENDING') : [])
  const mentions = (login: string) => [issue.body, ...comments().map((c) => c.body)].some((text) => mentionedLogins(text).some((m) => m.toLowerCase() === login.toLowerCase()))
  const commented = (login: string) => [...comments(), ...reviewComments()].some((c) => c.user.toLowerCase() === login.toLowerCase())
  const users = (test: (login: string) => boolean) => anyOf(value).some((name) => test(name === '@me' ? viewer : name))
  const merged = pull?.merged_at ?? null
  switch (key) {
    case 'is':
      switch (v) {
        case 'issue':
          return !issue.is_pull
        case 'pr':
        case 'pull-request':
          return issue.is_pull
        case 'open':
        case 'closed':
          return issue.state === v
        case 'merged':
          return merged !== null
        case 'unmerged':
          return issue.is_pull && merged === null && issue.state === 'closed'
        case 'draft':
          return pull?.draft === true
        case 'locked':
          return issue.locked
        case 'unlocked':
          return !issue.locked
        case 'public':
          return !repo.private
        case 'private':
          return repo.private
        case 'blocked':
          return issue.blocked_by.length > 0
        case 'blocking':
          return store.blocking(repo, issue.number).length > 0
        default:
          // is:queued (merge queues) and the like: nothing in the sandbox is.
          return false
      }
    case 'type':
      if (v === 'issue') return !issue.is_pull
      if (v === 'pr' || v === 'pull-request') return issue.is_pull
      return !issue.is_pull && lower(issue.issue_type) === v
    case 'state':
      return issue.state === v
    case 'reason':
      return lower(issue.state_reason).replace('_', ' ') === v.replace('_', ' ')
    case 'author':
      if (v.startsWith('app/')) return lower(issue.user) === `${v.slice(4)}[bot]`
      return isLogin(viewer, value, issue.user)
    case 'assignee':
      return users((login) => issue.assignees.some((a) => a.toLowerCase() === login.toLowerCase()))
    case 'mentions':
      return users(mentions)
    case 'commenter':
      return users(commented)
    case 'involves':
      return users((login) => lower(issue.user) === login.toLowerCase() || issue.assignees.some((a) => a.toLowerCase() === login.toLowerCase()) || mentions(login) || commented(login))
    case 'label':
      return anyOf(value).some((name) => issue.labels.some((l) => l.toLowerCase() === name))
    case 'milestone': {
      const milestone = issue.milestone === null ? undefined : repo.milestones.find((m) => m.number === issue.milestone)
      return milestone !== undefined && anyOf(value).includes(milestone.title.toLowerCase())
    }
    case 'no':
    case 'has': {
      const has = v === 'label' ? issue.labels.length > 0 : v === 'milestone' ? issue.milestone !== null : v === 'assignee' ? issue.assignees.length > 0 : v === 'project' ? projectsOf(store, repo, issue).length > 0 : v === 'type' ? issue.issue_type !== null : v === 'parent-issue' ? issue.parent !== null : v === 'sub-issues' ? issue.sub_issues.length > 0 : undefined
      if (has === undefined) return false
      return key === 'has' ? has : !has
    }
    case 'in':
    case 'sort':
      return true
    case 'draft':
      return pull !== undefined && pull.draft === (v === 'true')
    case 'review': {
      if (!pull) return false
      if (v === 'none') return reviews().length === 0
      // review:required, approved, changes_requested: the pull request's review decision (REVIEW_REQUIRED, …).
      const decision = ctx.reviewDecision(repo, pull)
      return decision !== null && decision.toLowerCase() === (v === 'required' ? 'review_required' : v)
    }
    case 'reviewed-by':
      return users((login) => reviews().some((r) => r.user.toLowerCase() === login.toLowerCase()))
    case 'review-requested':
    case 'user-review-requested':
      return pull !== undefined && users((login) => pull.requested_reviewers.some((r) => r.toLowerCase() === login.toLowerCase()))
    case 'head':
      return pull !== undefined && pull.head.toLowerCase() === v
    case 'base':
      return pull !== undefined && pull.base.toLowerCase() === v
    case 'status': {
      if (!pull) return false
      return commitState(store, repo, store.headSha(repo, pull)) === v
    }
    case 'comments':
      return inRange(value, issue.comments.length, 'number')
    case 'reactions':
      return inRange(value, store.reactions(repo, {kind: 'issue', id: issue.id}).length, 'number')
    case 'interactions':
      return inRange(value, issue.comments.length + store.reactions(repo, {kind: 'issue', id: issue.id}).length, 'number')
    case 'created':
      return inRange(value, issue.created_at, 'date')
    case 'updated':
      return inRange(value, issue.updated_at, 'date')
    case 'closed':
      return inRange(value, issue.closed_at, 'date')
    case 'merged':
      return inRange(value, merged, 'date')
    case 'linked': {
      // An issue is linked to the pull requests whose body closes it; a pull request to those issues.
      const closing = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s+#(\d+)\b/gi
      if (v === 'pr') return !issue.is_pull && Object.values(repo.pulls).some((p) => [...(repo.issues[p.number]!.body ?? '').matchAll(closing)].some((m) => Number(m[1]) === issue.number))
      if (v === 'issue') return issue.is_pull && [...(issue.body ?? '').matchAll(closing)].some((m) => repo.issues[Number(m[1])]?.is_pull === false)
      return false
    }
    case 'language':
      return lower(primaryLanguage(repo)?.name) === v
    case 'archived':
      return v === 'false'
    case 'project':
      return projectsOf(store, repo, issue).some((p) => `${p.owner}/${p.number}`.toLowerCase() === v)
    case 'parent-issue': {
      const match = /^(?:([^/#\s]+\/[^#\s]+))?#(\d+)$/.exec(value)
      if (!match || issue.parent === null) return false
      return Number(match[2]) === issue.parent && (!match[1] || match[1].toLowerCase() === `${repo.owner}/${repo.name}`.toLowerCase())
    }
    default:
      return false
  }
}

function projectsOf(store: Store, repo: Repo, issue: Issue) {
  const key = `${repo.owner}/${repo.name}`
  return store.state.projects.filter((p) => p.items.some((i) => i.content.repo === key && i.content.number === issue.number))
}

// ---- repositories -------------------------------------------------------------------------------

const REPO_KEYS = new Set(['repo', 'user', 'org', 'owner', 'in', 'sort', 'language', 'topic', 'topics', 'is', 'fork', 'archived', 'stars', 'forks', 'size', 'created', 'pushed', 'license', 'mirror', 'template', 'good-first-issues', 'help-wanted-issues'])

export interface RepoHit {
  repo: Repo
  score: number
}

export function searchRepos(store: Store, viewer: string, query: string, options: {sort?: string | null; order?: string | null} = {}): RepoHit[] {
  const expr = legacyScopes(parseQuery(query, REPO_KEYS))
  const shape = shapeOf(expr)
  checkNames(store, viewer, shape)
  const fields = shape.fields.size > 0 ? shape.fields : new Set(['name', 'description', 'topics'])
  const forkRule = shape.qualifiers.find((q) => q.key === 'fork' && !q.negated)?.value.toLowerCase()
  const readme = (repo: Repo) => Object.entries(defaultTree(repo)).find(([path]) => /^readme(\.[a-z]+)?$/i.test(path))?.[1] ?? ''
  const textOf = (repo: Repo, word: string) =>
    (fields.has('name') && (contains(repo.name, word) || contains(`${repo.owner}/${repo.name}`, word))) ||
    (fields.has('description') && contains(repo.description, word)) ||
    (fields.has('topics') && (repo.topics ?? []).some((t) => contains(t, word))) ||
    (fields.has('readme') && contains(readme(repo), word))
  const hits: RepoHit[] = []
  for (const repo of Object.values(store.state.repos)) {
    const fork = repo.fork_of !== undefined
    if (forkRule === 'only' ? !fork : forkRule !== 'true' && fork) continue
    const matches = evaluate(expr, (e) => (e.kind === 'text' ? textOf(repo, e.text) : repoQualifier(store, repo, e.key, e.value)))
    if (!matches) continue
    const score = shape.words.reduce((n, w) => n + 2 * occurrences(repo.name, w) + occurrences(repo.description, w) + (repo.topics ?? []).filter((t) => contains(t, w)).length, 0)
    hits.push({repo, score: shape.words.length ? score : 1})
  }
  const sort = options.sort ? {field: options.sort, direction: options.order === 'asc' ? 'asc' : 'desc'} : shape.sort
  const key = (hit: RepoHit): number | string => {
    switch (sort?.field) {
      case 'stars':
      case 'help-wanted-issues':
        return 0
      case 'forks':
        return forksOf(store, hit.repo)
      case 'updated':
        return pushedAt(hit.repo)
      default:
        return hit.score
    }
  }
  const sign = sort?.direction === 'asc' ? 1 : -1
  return hits.sort((a, b) => {
    const [x, y] = [key(a), key(b)]
    return (x < y ? -1 : x > y ? 1 : 0) * sign || a.repo.id - b.repo.id
  })
}

const forksOf = (store: Store, repo: Repo) => Object.values(store.state.repos).filter((r) => r.fork_of === `${repo.owner}/${repo.name}`).length
const pushedAt = (repo: Repo) => Object.values(repo.commits).reduce((latest, c) => (c.date > latest ? c.date : latest), repo.created_at)

function repoQualifier(store: Store, repo: Repo, key: string, value: string): boolean {
  const v = value.toLowerCase()
  const scoped = scopeTest(repo, key, value)
  if (scoped !== undefined) return scoped
  switch (key) {
    case 'in':
    case 'sort':
    case 'fork':
      return true
    case 'language':
      return lower(primaryLanguage(repo)?.name) === v
    case 'topic':
      return (repo.topics ?? []).some((t) => t.toLowerCase() === v)
    case 'topics':
      return inRange(value, (repo.topics ?? []).length, 'number')
    case 'is':
      return v === 'public' ? !repo.private : v === 'private' ? repo.private : v === 'fork' ? repo.fork_of !== undefined : false
    case 'archived':
    case 'mirror':
    case 'template':
      return v === 'false'
    case 'stars':
    case 'good-first-issues':
    case 'help-wanted-issues':
      // No stars in the sandbox, and no label searches of that kind: every count is 0.
      return inRange(value, 0, 'number')
    case 'forks':
      return inRange(value, forksOf(store, repo), 'number')
    case 'size':
      return inRange(value, Math.ceil(Object.values(defaultTree(repo)).reduce((n, c) => n + Buffer.byteLength(c), 0) / 1024), 'number')
    case 'created':
      return inRange(value, repo.created_at, 'date')
    case 'pushed':
      return inRange(value, pushedAt(repo), 'date')
    default:
      return false
  }
}

// ---- code ---------------------------------------------------------------------------------------

const CODE_KEYS = new Set(['repo', 'user', 'org', 'owner', 'in', 'path', 'filename', 'extension', 'language', 'size', 'fork'])

/** Languages by file extension, as code search's language: qualifier reads them. */
const CODE_LANGUAGES: Record<string, string[]> = {
  typescript: ['.ts', '.tsx', '.mts', '.cts'], javascript: ['.js', '.jsx', '.mjs', '.cjs'], python: ['.py'], go: ['.go'], rust: ['.rs'], java: ['.java'],
  ruby: ['.rb'], shell: ['.sh', '.bash'], markdown: ['.md', '.markdown'], yaml: ['.yml', '.yaml'], json: ['.json'], html: ['.html', '.htm'], css: ['.css'],
  c: ['.c', '.h'], 'c++': ['.cpp', '.cc', '.hpp'], 'c#': ['.cs'], php: ['.php'], kotlin: ['.kt'], swift: ['.swift'], text: ['.txt'],
}

export interface CodeHit {
  repo: Repo
  path: string
  sha: string
  commit: string
  content: string
  score: number
}

export function searchCode(store: Store, viewer: string, query: string): CodeHit[] {
  const expr = legacyScopes(parseQuery(query, CODE_KEYS))
  const shape = shapeOf(expr)
  checkNames(store, viewer, shape)
  if (shape.words.length === 0) throw new SearchInvalid('Must include at least one search term.', 'missing')
  const fields = shape.fields.size > 0 ? shape.fields : new Set(['file'])
  const forkRule = shape.qualifiers.find((q) => q.key === 'fork' && !q.negated)?.value.toLowerCase()
  const hits: CodeHit[] = []
  for (const repo of Object.values(store.state.repos)) {
    const fork = repo.fork_of !== undefined
    if (forkRule === 'only' ? !fork : forkRule !== 'true' && fork) continue
    const commit = repo.branches[repo.default_branch]
    if (!commit) continue
    for (const [path, content] of Object.entries(repo.commits[commit]!.tree)) {
      // GitHub indexes files smaller than 384 KB.
      if (Buffer.byteLength(content) >= 384 * 1024) continue
      const textOf = (word: string) => (fields.has('file') && contains(content, word)) || (fields.has('path') && contains(path, word))
      const matches = evaluate(expr, (e) => (e.kind === 'text' ? textOf(e.text) : codeQualifier(repo, path, content, e.key, e.value)))
      if (!matches) continue
      const score = shape.words.reduce((n, w) => n + occurrences(content, w) + 2 * occurrences(path, w), 0)
      hits.push({repo, path, sha: blobSha(content), commit, content, score})
    }
  }
  return hits.sort((a, b) => b.score - a.score || a.repo.id - b.repo.id || a.path.localeCompare(b.path))
}

function codeQualifier(repo: Repo, path: string, content: string, key: string, value: string): boolean {
  const v = value.toLowerCase()
  const scoped = scopeTest(repo, key, value)
  if (scoped !== undefined) return scoped
  const name = path.split('/').pop()!.toLowerCase()
  switch (key) {
    case 'in':
    case 'fork':
      return true
    case 'path': {
      // path:src matches under src/; a glob or a path with a file name matches the path itself.
      const pattern = v.replace(/^\//, '')
      if (/[*?]/.test(pattern)) {
        const escape = (text: string) => text.replace(/[.+^${}()|[\]\\]/g, '\\$&')
        const glob = pattern.split('**').map((part) => part.split('*').map((p) => p.split('?').map(escape).join('[^/]')).join('[^/]*')).join('.*')
        return new RegExp(`^${glob}$`).test(path.toLowerCase())
      }
      return pattern === '' || path.toLowerCase() === pattern || path.toLowerCase().startsWith(`${pattern.replace(/\/$/, '')}/`)
    }
    case 'filename':
      return name === v || name.startsWith(`${v}.`)
    case 'extension':
      return name.endsWith(`.${v.replace(/^\./, '')}`)
    case 'language':
      return (CODE_LANGUAGES[v] ?? []).some((ext) => name.endsWith(ext))
    case 'size':
      return inRange(value, Buffer.byteLength(content), 'number')
    default:
      return false
  }
}

// ---- commits ------------------------------------------------------------------------------------

const COMMIT_KEYS = new Set(['repo', 'user', 'org', 'owner', 'author', 'committer', 'author-name', 'committer-name', 'author-email', 'committer-email', 'author-date', 'committer-date', 'merge', 'hash', 'parent', 'tree', 'is', 'sort'])

export interface CommitHit {
  repo: Repo
  commit: Commit
  score: number
}

export function searchCommits(store: Store, viewer: string, query: string, options: {sort?: string | null; order?: string | null; treeOf?: (commit: Commit) => string} = {}): CommitHit[] {
  const expr = legacyScopes(parseQuery(query, COMMIT_KEYS))
  const shape = shapeOf(expr)
  checkNames(store, viewer, shape)
  const hits: CommitHit[] = []
  for (const repo of Object.values(store.state.repos)) {
    const head = repo.branches[repo.default_branch]
    if (!head) continue
    // Commit search covers the default branch.
    const onDefault = new Set<string>()
    const stack = [head]
    while (stack.length) {
      const sha = stack.pop()!
      if (onDefault.has(sha) || !repo.commits[sha]) continue
      onDefault.add(sha)
      stack.push(...repo.commits[sha].parents)
    }
    for (const sha of onDefault) {
      const commit = repo.commits[sha]!
      const matches = evaluate(expr, (e) => (e.kind === 'text' ? contains(commit.message, e.text) : commitQualifier(repo, commit, viewer, e.key, e.value, options.treeOf)))
      if (matches) hits.push({repo, commit, score: shape.words.length ? shape.words.reduce((n, w) => n + occurrences(commit.message, w), 0) : 1})
    }
  }
  const sort = options.sort ? {field: options.sort, direction: options.order === 'asc' ? 'asc' : 'desc'} : shape.sort
  const sign = sort?.direction === 'asc' ? 1 : -1
  const order = (hit: CommitHit) => `${hit.commit.date}:${String(hit.commit.seq ?? 0).padStart(12, '0')}`
  return hits.sort((a, b) => {
    if (sort?.field === 'author-date' || sort?.field === 'committer-date') return (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0) * sign
    return b.score - a.score || (order(a) < order(b) ? 1 : order(a) > order(b) ? -1 : 0)
  })
}

function commitQualifier(repo: Repo, commit: Commit, viewer: string, key: string, value: string, treeOf?: (commit: Commit) => string): boolean {
  const v = value.toLowerCase()
  const scoped = scopeTest(repo, key, value)
  if (scoped !== undefined) return scoped
  const author = commit.author_git ?? {name: commit.author, email: `${commit.author}@users.noreply.github.localhost`}
  const committer = commit.committer_git ?? author
  switch (key) {
    case 'sort':
      return true
    case 'author':
    case 'committer':
      return isLogin(viewer, value, commit.author)
    case 'author-name':
      return lower(author.name).includes(v)
    case 'committer-name':
      return lower(committer.name).includes(v)
    case 'author-email':
      return lower(author.email) === v
    case 'committer-email':
      return lower(committer.email) === v
    case 'author-date':
    case 'committer-date':
      return inRange(value, commit.date, 'date')
    case 'merge':
      return (commit.parents.length > 1) === (v === 'true')
    case 'hash':
      return v.length >= 7 && commit.sha.startsWith(v)
    case 'parent':
      return v.length >= 7 && commit.parents.some((p) => p.startsWith(v))
    case 'tree':
      return v.length >= 7 && treeOf !== undefined && treeOf(commit).startsWith(v)
    case 'is':
      return v === 'public' ? !repo.private : v === 'private' ? repo.private : false
    default:
      return false
  }
}

// ---- users --------------------------------------------------------------------------------------

const USER_SEARCH_KEYS = new Set(['type', 'in', 'repos', 'followers', 'created', 'sort', 'user', 'org', 'location', 'language'])

export function searchUsers(store: Store, query: string, options: {sort?: string | null; order?: string | null} = {}): User[] {
  const expr = parseQuery(query, USER_SEARCH_KEYS)
  const shape = shapeOf(expr)
  const fields = shape.fields.size > 0 ? shape.fields : new Set(['login', 'name'])
  const repos = (user: User) => Object.values(store.state.repos).filter((r) => r.owner === user.login).length
  const users = Object.values(store.state.users).filter((user) =>
    evaluate(expr, (e) => {
      if (e.kind === 'text') return (fields.has('login') && contains(user.login, e.text)) || (fields.has('name') && contains(user.name, e.text))
      const v = e.value.toLowerCase()
      switch (e.key) {
        case 'type':
          return v === 'org' ? user.type === 'Organization' : v === 'user' ? user.type === 'User' : false
        case 'user':
        case 'org':
          return user.login.toLowerCase() === v
        case 'repos':
          return inRange(e.value, repos(user), 'number')
        case 'followers':
          return inRange(e.value, 0, 'number')
        case 'in':
        case 'sort':
          return true
        default:
          // location:, language:, created: — the sandbox's users have no profile to match.
          return false
      }
    }),
  )
  const sort = options.sort ?? shape.sort?.field
  const sign = (options.order ?? shape.sort?.direction) === 'asc' ? 1 : -1
  return users.sort((a, b) => (sort === 'repositories' ? (repos(a) - repos(b)) * sign : 0) || (sort === 'joined' ? (a.id - b.id) * sign : 0) || a.login.localeCompare(b.login))
}

// ---- text matches -------------------------------------------------------------------------------

export interface TextMatch {
  property: string
  fragment: string
  highlights: Array<{text: string; indices: [number, number]}>
}

/** GitHub's text-match metadata: for each property a query word occurs in, the text and where. */
export function textMatches(query: string, properties: Record<string, string | null | undefined>): TextMatch[] {
  const words = shapeOf(parseQuery(query, new Set([...ISSUE_KEYS, ...REPO_KEYS, ...CODE_KEYS, ...COMMIT_KEYS]))).words
  const matches: TextMatch[] = []
  for (const [property, value] of Object.entries(properties)) {
    if (!value) continue
    const fragment = value.slice(0, 500)
    const highlights: TextMatch['highlights'] = []
    for (const word of words) {
      let at = lower(fragment).indexOf(word)
      while (word && at !== -1) {
        highlights.push({text: fragment.slice(at, at + word.length), indices: [at, at + word.length]})
        at = lower(fragment).indexOf(word, at + word.length)
      }
    }
    if (highlights.length) matches.push({property, fragment, highlights: highlights.sort((a, b) => a.indices[0] - b.indices[0])})
  }
  return matches
}

// ---- GraphQL's issue filters --------------------------------------------------------------------

/** GraphQL's `Repository.issues(filterBy:)` (IssueFilters), as GitHub documents each field. */
export function matchesIssueFilters(repo: Repo, issue: Issue, filterBy: Record<string, unknown> | undefined): boolean {
  if (!filterBy) return true
  const given = (key: string) => key in filterBy && filterBy[key] !== undefined
  const milestoneTest = (value: unknown, by: 'id' | 'number') => {
    // null: no milestone; '*': any milestone; else the milestone's database id (milestone) or number (milestoneNumber).
    if (value === null) return issue.milestone === null
    if (value === '*') return issue.milestone !== null
    const milestone = repo.milestones.find((m) => m.number === issue.milestone)
    return milestone !== undefined && (typeof value === 'string' || typeof value === 'number') && String(by === 'id' ? milestone.id : milestone.number) === String(value)
  }
  if (given('assignee')) {
    const assignee = filterBy.assignee
    if (assignee === null ? issue.assignees.length > 0 : assignee === '*' ? issue.assignees.length === 0 : !issue.assignees.some((a) => typeof assignee === 'string' && a.toLowerCase() === assignee.toLowerCase())) return false
  }
  if (typeof filterBy.createdBy === 'string' && issue.user.toLowerCase() !== filterBy.createdBy.toLowerCase()) return false
  if (Array.isArray(filterBy.labels) && !(filterBy.labels as string[]).every((l) => issue.labels.some((n) => n.toLowerCase() === l.toLowerCase()))) return false
  if (typeof filterBy.mentioned === 'string') {
    const login = filterBy.mentioned.toLowerCase()
    const texts = [issue.body, ...issue.comments.map((id) => repo.comments[id]?.body ?? null)]
    if (!texts.some((text) => mentionedLogins(text).some((m) => m.toLowerCase() === login))) return false
  }
  if (given('milestone') && !milestoneTest(filterBy.milestone, 'id')) return false
  if (given('milestoneNumber') && !milestoneTest(filterBy.milestoneNumber, 'number')) return false
  if (typeof filterBy.since === 'string' && Date.parse(issue.updated_at) < Date.parse(filterBy.since)) return false
  if (Array.isArray(filterBy.states) && !(filterBy.states as string[]).includes(issue.state.toUpperCase())) return false
  if (filterBy.viewerSubscribed === true) throw notModelled('IssueFilters.viewerSubscribed (subscriptions)')
  return true
}
