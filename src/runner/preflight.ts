/**
 * Before the first run: which of the suite's modes can run here (each asked once, with the access a
 * run would get), and which scenario x mode pairs are not applicable (the scenario says the mode
 * cannot solve it, or its plan needs newer tools than the mode reports). Neither is ever a failure.
 * A mode that does not answer within the plugin time limit is: bad input naming its plugin (exit 2),
 * not a run that hangs before it starts.
 */
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import type {GitHubTarget} from '../github/target.js'
import type {Availability} from '../plugins/api.js'
import {describeTimeLimit, pluginTimeLimitMs, withinTimeLimit} from '../plugins/loader.js'
import {BadInputError} from '../shared/diagnostics.js'
import type {PluginRegistry} from '../plugins/registry.js'
import type {Scenario} from '../schemas/scenario.js'
import type {PluginRef} from '../schemas/suite.js'
import {refName, refOptions} from './select-suite.js'
import type {SuiteContext} from './suite-context.js'

export interface Preflight {
  modes: SuiteContext['modes']
  unavailable: Array<{mode: string; reason: string}>
}

export async function preflightModes(
  refs: readonly PluginRef[],
  registry: PluginRegistry,
  target: GitHubTarget,
  timeLimitMs = pluginTimeLimitMs(),
): Promise<Preflight> {
  const modes: SuiteContext['modes'] = new Map()
  const unavailable: Preflight['unavailable'] = []
  const preflightDir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-preflight-'))
  try {
    const access = await target.agentAccess(preflightDir)
    try {
      for (const ref of refs) {
        const mode = registry.mode(refName(ref))!
        const context = {
          options: refOptions(ref),
          github: {
            apiUrl: access.apiUrl,
            graphqlUrl: access.graphqlUrl,
            token: access.token,
            env: access.env,
            nodeEnv: access.nodeEnv,
          },
          workdir: preflightDir,
        }
        let answered = true
        const availability: Availability = await withinTimeLimit(
          mode.available(context).catch((error: Error) => ({available: false, reason: error.message})),
          timeLimitMs,
          'no answer',
        ).catch(() => ((answered = false), {available: false}))
        if (!answered) throw hungPreflight(registry, mode.name, timeLimitMs)
        if (availability.available)
          modes.set(mode.name, {
            mode,
            options: refOptions(ref),
            ...(availability.tools ? {tools: availability.tools} : {}),
          })
        else unavailable.push({mode: mode.name, reason: availability.reason ?? 'not available'})
      }
    } finally {
      await access.release()
    }
  } finally {
    await rm(preflightDir, {recursive: true, force: true})
  }
  return {modes, unavailable}
}

/** The gate a run's rows will be judged by: its profile and the two modes it compares. */
export interface JudgedGate {
  profile: string
  baseline: string
  candidate: string
}

/**
 * Before the first run: each mode of the gate the run will judge that cannot give it rows here (its
 * preflight said it cannot run, it is not among the run's modes, or every scenario is not applicable
 * to it) is bad input (exit 2), naming the mode, why and the fix. Runs spent on a gate that cannot be
 * computed buy no verdict. Null when both modes can run.
 */
export function gateModesProblem(
  gate: JudgedGate,
  run: {
    modes: readonly string[]
    preflight: Preflight
    scenarios: readonly string[]
    notApplicable: ReadonlyArray<{scenario_id: string; mode: string}>
  },
  origin: string,
  dryRun = false,
): BadInputError | null {
  const roles = gate.baseline === gate.candidate ? (['candidate'] as const) : (['baseline', 'candidate'] as const)
  const problems = roles.flatMap((role) => {
    const mode = gate[role]
    const left = run.preflight.unavailable.find((u) => u.mode === mode)
    const why = left
      ? {
          reason: `cannot run here: ${left.reason.replace(/\.$/, '')}`,
          fix: `make ${mode} available (install it, or fix its options)`,
        }
      : !run.modes.includes(mode)
        ? {
            reason: `is not among the run's modes (${run.modes.join(', ')})`,
            fix: `run it too (--mode ${mode}, or the suite's modes)`,
          }
        : run.scenarios.length > 0 &&
            run.scenarios.every((id) => run.notApplicable.some((n) => n.mode === mode && n.scenario_id === id))
          ? {reason: 'is not applicable to any scenario of the run', fix: `choose scenarios ${mode} can solve`}
          : null
    if (!why) return []
    const stop = dryRun ? 'A run would stop here, before its first run' : 'Stopped before the first run, nothing run'
    return [
      {
        file: origin,
        code: 'config' as const,
        message: `gate ${gate.profile} (${gate.candidate} against ${gate.baseline}) needs its ${role} mode ${mode}, which ${why.reason}. ${stop}: ${why.fix}, or pass --no-gate to record the rows of the modes that can run, with no gate verdict`,
      },
    ]
  })
  return problems.length > 0 ? new BadInputError(problems) : null
}

/** A mode whose preflight never answered: bad input, naming its plugin (and the file it loaded from). */
function hungPreflight(registry: PluginRegistry, modeName: string, timeLimitMs: number): BadInputError {
  const plugin = registry.plugins().find((p) => p.modes.includes(modeName))
  return new BadInputError([
    {
      file: plugin?.resolved ?? modeName,
      code: 'plugin',
      message: `plugin "${plugin?.specifier ?? '?'}": mode "${modeName}" did not answer its preflight (available) within ${describeTimeLimit(timeLimitMs)}`,
    },
  ])
}

/**
 * Scenario x mode pairs left out: the scenario's `not_applicable` for the mode, or its `requires`
 * against the tool versions the mode reported (gh 2.23 has no `gh pr checks --json`).
 */
export function notApplicablePairs(
  scenarios: readonly Scenario[],
  modes: SuiteContext['modes'],
): Array<{scenario_id: string; mode: string; reason: string}> {
  return scenarios.flatMap((s) =>
    [...modes.keys()].flatMap((mode) => {
      const reason = s.not_applicable?.[mode] ?? unmetRequirement(s.requires?.[mode], modes.get(mode)!.tools)
      return reason ? [{scenario_id: s.id, mode, reason}] : []
    }),
  )
}

/** Why the tools a mode reported fall short of a scenario's requirement (null when they meet it, or nothing is required). */
export function unmetRequirement(
  requirement: {tools: Record<string, string>; reason: string} | undefined,
  tools: Record<string, string> | undefined,
): string | null {
  if (!requirement) return null
  const short = Object.entries(requirement.tools).filter(
    ([tool, needed]) => !tools?.[tool] || compareVersions(tools[tool], needed) < 0,
  )
  if (short.length === 0) return null
  return `needs ${short.map(([tool, needed]) => `${tool} >= ${needed} (here: ${tools?.[tool] ?? 'unknown'})`).join(', ')}: ${requirement.reason}`
}

/** Compares dotted numeric versions (2.23.0 < 2.50.0); a pre-release suffix is ignored. */
function compareVersions(a: string, b: string): number {
  const parts = (v: string) =>
    v
      .split(/[^\d.]/, 1)[0]!
      .split('.')
      .map(Number)
  const [x, y] = [parts(a), parts(b)]
  for (let i = 0; i < Math.max(x.length, y.length); i++)
    if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0)
  return 0
}
