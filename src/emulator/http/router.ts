/**
 * A small router over GitHub's path templates (`/repos/{owner}/{repo}/issues/{issue_number}`).
 * Templates are compiled once into segment matchers; `{path}` and `{ref}` in a last position may
 * span slashes, as file paths and git refs do.
 */
import githubRoutes from '../github-routes.json' with {type: 'json'}

export interface Match<T> {
  value: T
  params: Record<string, string>
}

interface Compiled<T> {
  method: string
  segments: string[]
  literals: number
  value: T
}

// Also a compare's `{basehead}` and a tree or README directory, which name refs and paths.
const SPANNING = new Set(['{path}', '{ref}', '{archive_format}', '{basehead}', '{tree_sha}', '{dir}'])

export class Router<T> {
  private readonly routes: Compiled<T>[] = []
  // A request is matched against its method's templates of its own length, then against those whose last
  // segment spans slashes: GitHub has 1,200 routes and every request is matched twice (ours, then GitHub's).
  private readonly byLength = new Map<string, Compiled<T>[]>()
  private readonly spanningByMethod = new Map<string, Compiled<T>[]>()

  add(method: string, template: string, value: T): void {
    const segments = template.split('/').filter(Boolean)
    const route = {method, segments, literals: segments.filter((s) => !s.startsWith('{')).length, value}
    this.routes.push(route)
    bucket(this.byLength, `${method} ${segments.length}`).push(route)
    if (SPANNING.has(segments.at(-1) ?? '')) bucket(this.spanningByMethod, method).push(route)
  }

  match(method: string, path: string): Match<T> | undefined {
    return this.matches(method, path)[0]
  }

  /**
   * Every template that matches best, in the order they were added: a template that matches segment
   * for segment wins over one whose last parameter spans slashes (commits/{ref}/check-runs is not the
   * commit "SHA/check-runs"); among those, the ones with more literal segments (issues/events is not
   * the issue "events"). Ties are templates a path cannot tell apart (compare/{base}...{head} and
   * compare/{basehead}).
   */
  matches(method: string, path: string): Array<Match<T>> {
    const parts = path
      .split('/')
      .filter(Boolean)
      .map((p) => decodeURIComponent(p))
    const candidates: Array<[Compiled<T>[] | undefined, boolean]> = [
      [this.byLength.get(`${method} ${parts.length}`), false],
      [this.spanningByMethod.get(method), true],
    ]
    for (const [routes, spanning] of candidates) {
      let best: {matches: Array<Match<T>>; literals: number} | undefined
      for (const route of routes ?? []) {
        const params = matchSegments(route.segments, parts, spanning)
        if (!params) continue
        if (!best || route.literals > best.literals)
          best = {matches: [{value: route.value, params}], literals: route.literals}
        else if (route.literals === best.literals) best.matches.push({value: route.value, params})
      }
      if (best) return best.matches
    }
    return []
  }

  /** Whether any route has this path, whatever its method (405 vs 404). */
  hasPath(path: string): boolean {
    const parts = path.split('/').filter(Boolean)
    return this.routes.some((route) => matchSegments(route.segments, parts, true) !== undefined)
  }
}

function bucket<K, V>(map: Map<K, V[]>, key: K): V[] {
  let values = map.get(key)
  if (!values) map.set(key, (values = []))
  return values
}

function matchSegments(segments: string[], parts: string[], spanning: boolean): Record<string, string> | undefined {
  const params: Record<string, string> = {}
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!
    if (spanning && i === segments.length - 1 && SPANNING.has(segment) && parts.length > i) {
      params[segment.slice(1, -1)] = parts.slice(i).join('/')
      return params
    }
    const part = parts[i]
    if (part === undefined) return undefined
    if (segment.startsWith('{') && segment.endsWith('}')) params[segment.slice(1, -1)] = part
    else if (segment !== part) return undefined
  }
  return segments.length === parts.length ? params : undefined
}

/** Every REST route GitHub has (from its OpenAPI description), to tell "not modelled" from "no such route". */
let github: Router<string> | undefined
function githubRouter(): Router<string> {
  if (!github) {
    github = new Router()
    for (const [m, template, operationId] of githubRoutes.routes as Array<[string, string, string]>)
      github.add(m, template, operationId)
  }
  return github
}

// GitHub's routes never change, and clients ask for the same paths again and again (an agent polls a run).
const operationsByRequest = new Map<string, string[]>()
const OPERATIONS_REMEMBERED = 10_000

/** The operations GitHub's routes give a request: one, or those whose templates the path cannot tell apart. */
export function githubOperations(method: string, path: string): string[] {
  const key = `${method} ${path}`
  let operations = operationsByRequest.get(key)
  if (!operations) {
    if (operationsByRequest.size >= OPERATIONS_REMEMBERED) operationsByRequest.clear()
    operations = githubRouter()
      .matches(method, path)
      .map((m) => m.value)
    operationsByRequest.set(key, operations)
  }
  return operations
}
