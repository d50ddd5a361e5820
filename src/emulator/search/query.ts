/**
 * GitHub's search over the sandbox's state, for REST (`/search/issues`, `/search/repositories`,
 * `/search/code`, `/search/commits`, `/search/users`: routes.ts) and GraphQL (`Query.search`:
 * graphql.ts). This module is the query language and what every kind of search shares; each kind
 * (issues.ts, repositories.ts, code.ts, commits.ts, users.ts) knows its own qualifiers.
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
import type {Repo, User} from '../core/state.js'
import type {Store} from '../store.js'

export type Expr =
  | {kind: 'and'; items: Expr[]}
  | {kind: 'or'; items: Expr[]}
  | {kind: 'not'; item: Expr}
  | {kind: 'text'; text: string}
  | {kind: 'qualifier'; key: string; value: string}

type Token =
  | {type: 'lparen' | 'rparen' | 'and' | 'or' | 'not'}
  | {type: 'atom'; negated: boolean; key?: string; value: string; raw: string}

/** A repository or user a query names that does not exist: GitHub's 422. */
export class SearchInvalid extends Error {
  constructor(
    message: string,
    readonly code = 'invalid',
  ) {
    super(message)
  }
}

const REPOS_INVALID =
  'The listed users and repositories cannot be searched either because the resources do not exist or you do not have permission to view them.'
const USERS_INVALID =
  'The listed users cannot be searched either because the users do not exist or you do not have permission to view the users.'

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
    const unquote = (v: string) =>
      v.startsWith('"') ? v.slice(1, v.length > 1 && v.endsWith('"') ? -1 : undefined) : v
    if (qualifier)
      tokens.push({type: 'atom', negated, key: qualifier[1]!.toLowerCase(), value: unquote(qualifier[2]!), raw})
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
    const expr: Expr =
      token.key && keys.has(token.key)
        ? {kind: 'qualifier', key: token.key, value: token.value}
        : {kind: 'text', text: (token.key ? token.raw.replace(/^-/, '') : token.value).toLowerCase()}
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
export function legacyScopes(expr: Expr): Expr {
  if (expr.kind !== 'and' && expr.kind !== 'qualifier') return expr
  const items = expr.kind === 'and' ? expr.items : [expr]
  const scope = (e: Expr) => e.kind === 'qualifier' && ['repo', 'user', 'org', 'owner'].includes(e.key)
  const scopes = items.filter(scope)
  if (scopes.length < 2) return expr
  return {kind: 'and', items: [...items.filter((e) => !scope(e)), {kind: 'or', items: scopes}]}
}

export function evaluate(expr: Expr, test: (e: Extract<Expr, {kind: 'text' | 'qualifier'}>) => boolean): boolean {
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

export function shapeOf(expr: Expr): Shape {
  const shape: Shape = {words: [], fields: new Set(), qualifiers: []}
  walk(expr, (e, negated) => {
    if (e.kind === 'text' && !negated) shape.words.push(e.text)
    if (e.kind !== 'qualifier') return
    shape.qualifiers.push({key: e.key, value: e.value, negated})
    if (e.key === 'in') for (const field of e.value.toLowerCase().split(',')) shape.fields.add(field)
    if (e.key === 'sort') {
      const [field, direction] = /^(.*?)(?:-(asc|desc))?$/.exec(e.value.toLowerCase())!.slice(1) as [
        string,
        string | undefined,
      ]
      shape.sort = {field, direction: direction === 'asc' ? 'asc' : 'desc'}
    }
  })
  return shape
}

// ---- values: users, ranges, dates ---------------------------------------------------------------

export const lower = (s: string | null | undefined) => (s ?? '').toLowerCase()
export const anyOf = (value: string) =>
  value
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean)

/** A range qualifier's test: `N`, `>N`, `>=N`, `<N`, `<=N`, `A..B` (`*` open), for numbers or dates. */
export function inRange(value: string, actual: number | string | null, kind: 'number' | 'date'): boolean {
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
    return (
      (lo === '*' || x >= toNumber(lo)) &&
      (hi === '*' || (kind === 'date' && dateOnly(hi) ? x < toNumber(hi, true) : x <= toNumber(hi)))
    )
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
      return kind === 'date' && dateOnly(bound)
        ? x >= toNumber(bound) && x < toNumber(bound, true)
        : x === toNumber(bound)
  }
}

export const contains = (text: string | null | undefined, word: string) => lower(text).includes(word)
export const occurrences = (text: string | null | undefined, word: string) =>
  word ? lower(text).split(word).length - 1 : 0

// ---- scopes: repositories and users a query names -----------------------------------------------

const USER_KEYS = [
  'author',
  'assignee',
  'mentions',
  'commenter',
  'involves',
  'reviewed-by',
  'review-requested',
  'user-review-requested',
  'committer',
]

/** The viewer for @me; a login that does not exist, or a repository, is GitHub's 422. */
export function checkNames(store: Store, viewer: string, shape: Shape): void {
  for (const {key, value} of shape.qualifiers) {
    const names = key === 'repo' ? [value] : anyOf(value)
    if (key === 'repo' && !Object.keys(store.state.repos).some((full) => full.toLowerCase() === value.toLowerCase()))
      throw new SearchInvalid(REPOS_INVALID)
    if (['user', 'org', 'owner'].includes(key) && names.some((n) => !userNamed(store, viewer, n)))
      throw new SearchInvalid(REPOS_INVALID)
    if (USER_KEYS.includes(key) && !value.startsWith('app/') && names.some((n) => !userNamed(store, viewer, n)))
      throw new SearchInvalid(USERS_INVALID)
  }
}

function userNamed(store: Store, viewer: string, name: string): User | undefined {
  const login = name === '@me' ? viewer : name
  return Object.values(store.state.users).find((u) => u.login.toLowerCase() === login.toLowerCase())
}

export const isLogin = (viewer: string, value: string, login: string | null): boolean =>
  login !== null && anyOf(value).some((v) => (v === '@me' ? viewer : v).toLowerCase() === login.toLowerCase())

export function scopeTest(repo: Repo, key: string, value: string): boolean | undefined {
  if (key === 'repo') return `${repo.owner}/${repo.name}`.toLowerCase() === value.toLowerCase()
  if (key === 'user' || key === 'org' || key === 'owner') return anyOf(value).includes(repo.owner.toLowerCase())
  return undefined
}
