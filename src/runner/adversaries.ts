/**
 * What each adversary model plays (scripted-model-names.ts): the proof that a run passes because it
 * did the work. `liar` and `empty` play the plan's reads, then answer a well-formed result (made up
 * from the task's input and the answer's asked-for shape, or empty); `wrong_target` plays the reference plan
 * with the fixture bindings moved to another resource of the fixture (another issue, the other
 * thread); `read_only` plays the plan's reads and skips every step that changes GitHub. A scenario
 * one of them passes has checks that accept work not done.
 */
import type {AdversaryName} from '../agent/scripted-model-names.js'
import type {Script, ScriptStep} from '../agent/scripted-models.js'
import {isCapability, isMutation} from '../catalogue/capabilities.js'
import type {Mode} from '../plugins/api.js'
import type {AtomicScenario, Scenario} from '../schemas/scenario.js'
import type {Manifest} from '../seeding/manifest.js'
import {fillPlaceholders} from '../catalogue/placeholders.js'
import {renderPrompt} from './prompt.js'
import {accountToolCalls} from '../tool-accounting/accounting.js'

export interface AdversaryContext {
  scenario: Scenario
  /** The mode plugin: its accounting hook reads its tool layer's commands (is `ghx run X` a read?). */
  mode: Pick<Mode, 'accounting'>
  /** The run's placeholder values (bindings and built-ins). */
  variables: Record<string, unknown>
  manifest: Manifest
  /** The scenario's reference plan for the mode, placeholders filled with the given variables. */
  plan: (variables: Record<string, unknown>) => {steps: ScriptStep[]; answer?: unknown} | undefined
}

/** The script an adversary plays in one run. */
export function adversaryScript(model: AdversaryName, context: AdversaryContext): Omit<Script, 'model'> {
  const {scenario, variables} = context
  const atomic = scenario.type === 'atomic'
  const envelopeFinal = (answer?: unknown): Script['final'] => ({kind: atomic ? 'envelope' : 'text', answer})
  // The plan's reads: what liar and empty play before they answer, so that a minimum of tool calls does not unmask them.
  const reads = () => (context.plan(variables)?.steps ?? []).filter((step) => !changesGithub(step, context.mode))
  switch (model) {
    case 'liar':
      return {
        steps: reads(),
        final: {
          kind: 'fixed',
          text: atomic
            ? JSON.stringify(madeUpEnvelope(scenario, variables, 'made_up'))
            : `Done: ${renderPrompt(scenario, variables)}`,
        },
      }
    case 'empty':
      return {
        steps: reads(),
        final: {kind: 'fixed', text: atomic ? JSON.stringify(madeUpEnvelope(scenario, variables, 'empty')) : ''},
      }
    case 'wrong_target': {
      const moved = wrongTargetVariables(scenario, variables, context.manifest)
      const plan = moved && context.plan(moved)
      if (!plan)
        return {steps: [], final: {kind: 'fixed', text: 'There is no other resource of the fixture to act on.'}}
      return {steps: plan.steps, final: envelopeFinal(plan.answer)}
    }
    case 'read_only': {
      const plan = context.plan(variables)
      if (!plan) return {steps: [], final: {kind: 'fixed', text: 'There is no plan to take the reads of.'}}
      return {steps: reads(), final: envelopeFinal(plan.answer)}
    }
  }
}

/** Operations that read: a capability of kind read, a REST GET, an MCP or capability-like name whose verb reads. */
function isReadOperation(operation: string): boolean {
  if (isCapability(operation)) return !isMutation(operation)
  if (operation.startsWith('rest.')) return operation === 'rest.get'
  const verb = operation.replace(/^mcp\./, '').split(/[._]/)
  return ['get', 'list', 'search', 'view'].includes(operation.startsWith('mcp.') ? verb[0]! : verb.at(-1)!)
}

/**
 * Whether a plan step may change GitHub, read by the same accounting that counts the runs' operations:
 * a step with an operation that is not a known read counts as a change, so `read_only` never plays one.
 */
export function changesGithub(step: ScriptStep, mode: Pick<Mode, 'accounting'>): boolean {
  const call = {tool: step.tool, args: step.args, output: '', ok: true, ms: 0}
  const account = accountToolCalls([call], new Set(step.tool === 'shell' ? [] : [step.tool]), mode.accounting)
  const operations = Object.keys(account.by_operation)
  // A shell step with no GitHub operation it can name (a script, a pipe into an unknown tool): assume it may write.
  if (operations.length === 0) return true
  return !operations.every(isReadOperation)
}

const NUMERIC_FIELD = /(^|_)(number|id|count|total)$|(Number|Id|Count)$/
/** Fields that name a resource: two records with the same one are the same resource. */
const IDENTITY_FIELD = /^(id|number|node_id)$/
const BOOLEAN_FIELD = /^(is|has|can)[A-Z_]|^(ok|merged|resolved|closed|draft|prerelease|locked)$/

/**
 * A well-formed envelope for an atomic scenario that no tool produced: `made_up` echoes the input and
 * fills each field the answer must have with a plausible value (the input's, else a number, a flag,
 * a list or a text by the field's name), as a tool layer that never calls GitHub would; `empty` gives
 * each field its empty value.
 */
export function madeUpEnvelope(
  scenario: AtomicScenario,
  variables: Record<string, unknown>,
  kind: 'made_up' | 'empty',
): Record<string, unknown> {
  const input = fillPlaceholders(scenario.input, variables) as Record<string, unknown>
  const firstNumber = Object.values(input).find((v): v is number => typeof v === 'number') ?? 1
  const valueFor = (field: string): unknown => {
    if (kind === 'made_up' && input[field] !== undefined) return input[field]
    if (BOOLEAN_FIELD.test(field)) return kind === 'made_up'
    if (NUMERIC_FIELD.test(field)) return kind === 'made_up' ? firstNumber : 0
    if (field.endsWith('s')) return kind === 'made_up' ? [input] : []
    return kind === 'made_up' ? `${field} of ${scenario.task}` : ''
  }
  const fields = Object.fromEntries(
    (scenario.assertions.required_data_fields ?? []).map((field) => [field, valueFor(field)]),
  )
  const item = kind === 'made_up' ? {...input, ...fields} : fields
  const data =
    scenario.assertions.data_type === 'array'
      ? kind === 'made_up'
        ? [item]
        : []
      : kind === 'made_up'
        ? item
        : {items: [], ...fields}
  return {ok: true, data, meta: {capability_id: scenario.task, route_used: 'graphql', reason: 'CARD_PREFERRED'}}
}

/** The family of a fixture kind: issue_for_triage and issue are both issues. */
const familyOf = (kind: string) => kind.split('_')[0]!

/**
 * The run's variables with each fixture binding moved to another resource of the fixture: another
 * resource of the same family (the first other issue for an issue), the same field of it; or, when the
 * resource is the only one of its family, its sibling field of the same kind (resolved_thread_id for
 * unresolved_thread_id). Undefined when no binding can move.
 */
export function wrongTargetVariables(
  scenario: Scenario,
  variables: Record<string, unknown>,
  manifest: Manifest,
): Record<string, unknown> | undefined {
  const resources = manifest.resources as Record<string, Record<string, unknown>>
  const moves = new Map<string, {kind: string; value: unknown}>()
  // One other resource per kind where it can be: the bindings of a resource move together.
  const chosen = new Map<string, string>()
  // Kinds whose "other" resource has this one's id: the same resource under two kinds' records, not another.
  const same = new Set<string>()
  for (const [name, bindingPath] of Object.entries(scenario.fixture?.bindings ?? {})) {
    const [root, kind, ...rest] = bindingPath.split('.')
    if (root !== 'resources' || !kind || rest.length !== 1) continue
    const field = rest[0]!
    const has = (k: string) => resources[k]?.[field] !== undefined
    const candidates = Object.keys(resources).filter((k) => k !== kind && familyOf(k) === familyOf(kind) && has(k))
    const previous = chosen.get(kind)
    const other = previous !== undefined && has(previous) ? previous : candidates[0]
    if (other !== undefined && previous === undefined) chosen.set(kind, other)
    // A sibling shares the field's last two words: resolved_thread_id for unresolved_thread_id.
    const suffix = field.split('_').slice(-2).join('_')
    const sibling =
      field.split('_').length > 2
        ? Object.keys(resources[kind] ?? {}).find((f) => f !== field && f.endsWith(`_${suffix}`))
        : undefined
    const value =
      other !== undefined ? resources[other]![field] : sibling !== undefined ? resources[kind]![sibling] : undefined
    if (other !== undefined && IDENTITY_FIELD.test(field) && value === variables[name]) same.add(kind)
    if (value === undefined || value === null || typeof value === 'object' || value === variables[name]) continue
    moves.set(name, {kind, value})
  }
  const moved = {...variables}
  let changed = false
  for (const [name, {kind, value}] of moves) {
    if (same.has(kind)) continue
    moved[name] = value
    changed = true
  }
  return changed ? moved : undefined
}
