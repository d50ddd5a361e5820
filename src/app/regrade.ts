/**
 * `ghx-bench regrade`: judge stored runs again with the scenarios' current checkpoint conditions,
 * against the task results the rows kept — no GitHub needed. For fixing a checkpoint after the fact
 * (the predecessors' trivially true ones, say) without re-running agents.
 */
import {createWriteStream} from 'node:fs'
import {once} from 'node:events'
import {mkdir, rename, rm} from 'node:fs/promises'
import path from 'node:path'
import {resolveConfigPath, type LoadedConfig} from '../config/load-config.js'
import {packagePath} from '../shared/package-paths.js'
import {loadPlugins} from '../plugins/loader.js'
import {pluginRequests} from '../plugins/requests.js'
import {originalFileFor, regradedFileFor} from '../results/regraded.js'
import type {Row} from '../results/row-schema.js'
import {readRows, resolveInputFiles} from '../results/sources.js'
import {loadCatalogue} from '../catalogue/catalogue.js'
import {BadInputError} from '../shared/diagnostics.js'
import {displayPath} from '../shared/source-document.js'
import {regradeCheckpoint} from '../verify/checkpoints.js'

export interface RegradeChange {
  run_id: string
  scenario_id: string
  mode: string
  iteration: number
  before: boolean
  after: boolean
  checkpoints: Array<{name: string; before: boolean; after: boolean; message: string}>
}

export interface RegradeReport {
  rows: number
  regraded: number
  /** Rows that could not be re-graded: no scenario, not a workflow, no stored results or variables. */
  skipped: number
  changed: RegradeChange[]
  file: string
}

export async function regrade(config: LoadedConfig, options: {inputs?: string[]; runId?: string; out?: string; cwd?: string}): Promise<RegradeReport> {
  const cwd = options.cwd ?? process.cwd()
  const resolved = await resolveInputFiles({inputs: options.inputs, runId: options.runId, resultsDir: resolveConfigPath(config, config.values.results_dir), cwd})
  // A run's earlier re-grading is judged from its original rows again (the stored results are the same).
  const files = resolved.filter((file) => !resolved.includes(originalFileFor(file) ?? ''))
  const registry = await loadPlugins({fromDir: config.dir, plugins: pluginRequests(config.values.plugins), origin: config.file ?? '(config)'})
  const catalogue = await loadCatalogue({root: resolveConfigPath(config, config.values.suites_dir), registry, cwd, builtInProfilesDir: packagePath('suites', 'profiles')})
  const findings = [...catalogue.diagnostics.values()].flat()
  if (findings.length > 0) throw new BadInputError(findings)
  // <run>.regraded.jsonl beside the run's rows: the report and the gate read it in place of the originals.
  const out = path.resolve(cwd, options.out ?? regradedFileFor(files[0]!))
  await mkdir(path.dirname(out), {recursive: true})
  // Written aside and renamed at the end: the output may be one of the inputs, and a half-written file is never read.
  const partial = `${out}.${process.pid}.partial`
  const writer = createWriteStream(partial)
  const report: RegradeReport = {rows: 0, regraded: 0, skipped: 0, changed: [], file: displayPath(out, cwd)}
  try {
    for await (const row of readRows(files, () => {}, cwd)) {
      report.rows++
      const next = regradeRow(row, catalogue, registry)
      if (!next) report.skipped++
      else {
        report.regraded++
        if (next.change) report.changed.push(next.change)
      }
      if (!writer.write(JSON.stringify(next?.row ?? row) + '\n')) await once(writer, 'drain')
    }
    writer.end()
    await once(writer, 'finish')
    await rename(partial, out)
  } catch (error) {
    writer.destroy()
    await rm(partial, {force: true})
    throw error
  }
  return report
}

function regradeRow(
  row: Row,
  catalogue: Awaited<ReturnType<typeof loadCatalogue>>,
  registry: Awaited<ReturnType<typeof loadPlugins>>,
): {row: Row; change?: RegradeChange} | undefined {
  const scenario = catalogue.scenarios.get(row.scenario_id)?.value
  if (scenario?.type !== 'workflow' || !row.variables || row.outcome === 'infra_error' || row.outcome === 'timeout') return undefined
  const stored = new Map(row.checkpoints.map((c) => [c.name, c]))
  if (scenario.assertions.checkpoints.some((c) => !stored.has(c.name) || !('result' in stored.get(c.name)!))) return undefined
  const checkpoints = scenario.assertions.checkpoints.map((checkpoint) => {
    const previous = stored.get(checkpoint.name)!
    const verdict = regradeCheckpoint(checkpoint, {result: previous.result}, registry, row.variables as Record<string, unknown>)
    return {...previous, passed: verdict.passed, expected: verdict.expected, actual: verdict.actual, message: verdict.message}
  })
  const allPassed = checkpoints.every((c) => c.passed)
  const success = scenario.assertions.expected_outcome === 'success' ? allPassed : !allPassed
  const next: Row = {
    ...row,
    checkpoints,
    success,
    output_valid: success,
    outcome: success ? 'pass' : 'fail',
    error: success ? null : {type: 'checkpoint_failed', message: `checkpoints failed: ${checkpoints.filter((c) => !c.passed).map((c) => c.name).join(', ')}`},
  }
  const changedCheckpoints = checkpoints
    .map((c) => ({name: c.name, before: stored.get(c.name)!.passed, after: c.passed, message: c.message ?? ''}))
    .filter((c) => c.before !== c.after)
  const change = success !== row.success || changedCheckpoints.length > 0 ? {run_id: row.run_id, scenario_id: row.scenario_id, mode: row.mode, iteration: row.iteration, before: row.success, after: success, checkpoints: changedCheckpoints} : undefined
  return {row: next, change}
}
