/**
 * `{{name}}` placeholders in prompts and inputs. Names come from a scenario's fixture bindings and
 * a few variables every run has; anything else is an unbound placeholder, caught at validation.
 */

/**
 * Variables every run binds: the fixture repository, the run id, the fixtures' seed id (seeded
 * labels carry it: bench-seed:<seed_id>), and run_nonce, a short token unique to each attempt, for
 * names that must never collide (a release tag, across iterations and retries).
 */
export const BUILT_IN_VARIABLES = ['owner', 'repo', 'repo_full_name', 'run_id', 'seed_id', 'run_nonce'] as const

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g
const WHOLE_PLACEHOLDER = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/

export interface PlaceholderUse {
  /** Path of the string inside the scanned value. */
  path: Array<string | number>
  name: string
  /** The placeholder exactly as written, to find it in the source. */
  text: string
}

/** Every placeholder in strings of a value, walking objects and arrays. */
export function findPlaceholders(value: unknown, path: Array<string | number> = []): PlaceholderUse[] {
  if (typeof value === 'string') {
    return [...value.matchAll(PLACEHOLDER)].map((m) => ({path, name: m[1]!, text: m[0]}))
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => findPlaceholders(item, [...path, i]))
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => findPlaceholders(item, [...path, key]))
  }
  return []
}

/**
 * Fills placeholders. A string that is exactly one placeholder takes the variable's native type
 * (a PR number stays a number); inside longer strings values are interpolated as text.
 */
export function fillPlaceholders<T>(value: T, variables: Record<string, unknown>): T {
  if (typeof value === 'string') {
    const whole = WHOLE_PLACEHOLDER.exec(value)
    if (whole && Object.hasOwn(variables, whole[1]!)) return variables[whole[1]!] as T
    return value.replace(PLACEHOLDER, (text, name: string) =>
      Object.hasOwn(variables, name) ? String(variables[name]) : text,
    ) as T
  }
  if (Array.isArray(value)) return value.map((item) => fillPlaceholders(item, variables)) as T
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillPlaceholders(v, variables)])) as T
  }
  return value
}
