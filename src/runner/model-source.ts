/**
 * The model of a suite: a scripted one (`oracle`, `noop`, an adversary), served by ghx-bench on loopback with each
 * run's reference plan, or a real one behind an OpenAI-compatible endpoint (base URL from the suite,
 * the config or $OPENAI_BASE_URL; the key from the environment only).
 */
import type {PlanOutcome, Script, ScriptStep} from '../agent/scripted-models.js'
import {
  ADVERSARIES,
  SCRIPTED_MODELS,
  type AdversaryName,
  type ScriptedModelName,
} from '../agent/scripted-model-names.js'
import {openScriptedModels} from '../agent/scripted-models-service.js'
import type {ModelEndpoint, Mode} from '../plugins/api.js'
import type {Manifest} from '../seeding/manifest.js'
import {adversaryScript} from './adversaries.js'
import {harnessEnv, registerSecret, withoutCredentials} from '../shared/process/secret-env.js'
import {BadInputError} from '../shared/diagnostics.js'
import {fillPlaceholders} from '../catalogue/placeholders.js'
import type {Scenario} from '../schemas/scenario.js'

/** What a scripted model saw of a run: how far the oracle's plan got, and the faults injected into its traffic. */
export interface ModelReport {
  plan: PlanOutcome
  injectedFaults: number
}

interface RunEndpoint {
  endpoint: ModelEndpoint
  release: () => Promise<void>
  /** Scripted models only. */
  report?: () => Promise<ModelReport>
}

export interface ModelSource {
  /** provider/model, as rows record it. */
  label: string
  scripted?: ScriptedModelName
  /** The endpoint for one run: scripted models get the run's plan (an adversary its own, from the run's fixture and mode). */
  endpointFor(
    scenario: Scenario,
    mode: string,
    variables: Record<string, unknown>,
    run: {manifest: Manifest; mode: Pick<Mode, 'accounting'>},
  ): Promise<RunEndpoint>
  /** Tokens of a text (o200k): the tool definitions a mode offers, which every turn re-sends. */
  countTokens(text: string): Promise<number>
  secrets(): string[]
  close(): Promise<void>
}

export interface ModelSettings {
  model: string
  endpoint?: {base_url?: string; api_key_env?: string}
  /** For reliability tests: a share of scripted-model requests answered 503. */
  faultRate?: number
  seed?: number
  env?: NodeJS.ProcessEnv
  origin: string
}

function isScriptedModel(model: string): model is ScriptedModelName {
  return (SCRIPTED_MODELS as readonly string[]).includes(model)
}

/** A scenario's reference plan for a mode, placeholders filled: tool steps and the final answer. */
export function referencePlan(
  scenario: Scenario,
  mode: string,
  variables: Record<string, unknown>,
): {steps: ScriptStep[]; answer?: unknown} | undefined {
  const plan = scenario.reference?.[mode]
  if (!plan) return undefined
  const steps: ScriptStep[] = []
  let answer: unknown
  for (const step of plan) {
    if ('answer' in step) answer = step.answer
    else
      steps.push({
        tool: step.tool,
        args: fillPlaceholders(step.args as Record<string, unknown>, variables),
        ...(step.allow_failure ? {allow_failure: true} : {}),
      })
  }
  return {steps, answer: answer === undefined ? undefined : fillPlaceholders(answer, variables)}
}

export async function openModelSource(settings: ModelSettings): Promise<ModelSource> {
  const env = settings.env ?? harnessEnv()
  if (isScriptedModel(settings.model)) {
    const model = settings.model
    // In its own process: tokenizing every turn's context neither holds up the runner's event loop
    // nor weighs on its memory (every tool call forks the runner).
    const server = await openScriptedModels(
      settings.faultRate ? {rate: settings.faultRate, seed: settings.seed ?? 1} : undefined,
    )
    return {
      label: `ghx-bench/${model}`,
      scripted: model,
      async endpointFor(scenario, mode, variables, context) {
        const script = scriptFor(model, scenario, mode, variables, context)
        const run = await server.register(script)
        return {endpoint: {id: model, baseUrl: run.baseUrl}, release: () => run.release(), report: () => run.report()}
      },
      countTokens: remembered((text) => server.countTokens(text)),
      secrets: () => [],
      close: () => server.close(),
    }
  }
  const baseUrl = settings.endpoint?.base_url ?? env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1'
  const keyVariable = settings.endpoint?.api_key_env ?? 'OPENAI_API_KEY'
  const apiKey = env[keyVariable]
  registerSecret(apiKey)
  // Credentials in the base URL (https://user:password@host/v1) are secrets: sent as Basic auth, never shown.
  const shown = withoutCredentials(baseUrl)
  if (!apiKey && !shown.password && !/^https?:\/\/(127\.0\.0\.1|localhost)[:/]/.test(shown.url)) {
    throw new BadInputError([
      {
        file: settings.origin,
        code: 'config',
        message: `model "${settings.model}" needs an API key in $${keyVariable} for ${shown.url} (or use model: oracle for the embedded default)`,
      },
    ])
  }
  // The model id goes to the endpoint as written (OpenRouter wants provider/model); rows name the host when there is no provider part.
  const id = settings.model
  return {
    label: id.includes('/') ? id : `${new URL(shown.url).hostname}/${id}`,
    endpointFor: () => Promise.resolve({endpoint: {id, baseUrl, apiKey}, release: () => Promise.resolve()}),
    countTokens: remembered(async (text) => (await import('gpt-tokenizer')).countTokens(text)),
    secrets: () => [apiKey, shown.password].filter((s): s is string => Boolean(s)),
    close: async () => {},
  }
}

/** A scripted model's script for one run. */
function scriptFor(
  model: ScriptedModelName,
  scenario: Scenario,
  mode: string,
  variables: Record<string, unknown>,
  context: {manifest: Manifest; mode: Pick<Mode, 'accounting'>},
): Script {
  const plan = (values: Record<string, unknown>) => referencePlan(scenario, mode, values)
  if ((ADVERSARIES as readonly string[]).includes(model))
    return {model, ...adversaryScript(model as AdversaryName, {scenario, variables, plan, ...context})}
  // No plan for this mode: the oracle does not pretend to be noop; the run fails saying so.
  const reference = plan(variables)
  const final = {
    kind: scenario.type === 'atomic' ? ('envelope' as const) : ('text' as const),
    answer: reference?.answer,
  }
  return {model, steps: reference?.steps ?? null, final}
}

/** A mode offers the same tools every run: their tokens are counted once per text. */
function remembered(count: (text: string) => Promise<number>): (text: string) => Promise<number> {
  const counts = new Map<string, Promise<number>>()
  return (text) => {
    let counted = counts.get(text)
    if (!counted) {
      counted = count(text)
      counted.catch(() => counts.delete(text))
      counts.set(text, counted)
    }
    return counted
  }
}
