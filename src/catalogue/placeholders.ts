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

/**
 * Variables only checkpoints have, bound once the agent is done: `answer` (an atomic scenario's envelope
 * data, or a workflow's final text), `final_text` (the agent's last message) and `input` (an atomic
 * scenario's input, placeholders filled). A checkpoint compares GitHub's state with them, so a run
 * passes on the truth of its answer, not its shape.
 */
export const CHECK_VARIABLES = ['answer', 'final_text', 'input'] as const

/** `{{name}}` or `{{name.field.0}}`: a variable, or a dotted path into one. */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_-]+)*)\s*\}\}/g
const WHOLE_PLACEHOLDER = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_-]+)*)\s*\}\}$/

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

/** A variable's value along a dotted path (`.0` indexes arrays); null where the path leads nowhere. */
function lookUp(variables: Record<string, unknown>, name: string, path: string): unknown {
  let value = variables[name]
  for (const segment of path.split('.').slice(1)) {
    value =
      value !== null && typeof value === 'object' && Object.hasOwn(value, segment)
        ? (value as Record<string, unknown>)[segment]
        : null
  }
  return value ?? null
}

/** A value as text inside a longer string: objects as JSON. */
const asText = (value: unknown) => (value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value))

/**
 * Fills placeholders. A string that is exactly one placeholder takes the variable's native type
 * (a PR number stays a number, an answer's list stays a list); inside longer strings values are
 * interpolated as text.
 */
export function fillPlaceholders<T>(value: T, variables: Record<string, unknown>): T {
  if (typeof value === 'string') {
    const whole = WHOLE_PLACEHOLDER.exec(value)
    if (whole && Object.hasOwn(variables, whole[1]!)) return lookUp(variables, whole[1]!, whole[2]!) as T
    return value.replace(PLACEHOLDER, (text, name: string, path: string) =>
      Object.hasOwn(variables, name) ? asText(lookUp(variables, name, path)) : text,
    ) as T
  }
  if (Array.isArray(value)) return value.map((item) => fillPlaceholders(item, variables)) as T
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillPlaceholders(v, variables)])) as T
  }
  return value
}
