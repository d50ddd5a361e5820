/**
 * Where a report's and a gate's files go and how they are written: reports_dir/<run id> (or --out), each
 * written whole or not at all, the markdown appended to $GITHUB_STEP_SUMMARY when it is set.
 */
import {lstatSync} from 'node:fs'
import {appendFile, mkdir} from 'node:fs/promises'
import path from 'node:path'
import {resolveConfigPath, type LoadedConfig} from '../config/load-config.js'
import {nameProblem} from '../results/names.js'
import {linkRefused, readFileBelow} from '../results/no-follow.js'
import {checkWritable, writeFileAtomic} from '../shared/atomic-write.js'
import {BadInputError} from '../shared/diagnostics.js'
import type {Report} from './aggregate/summary.js'
import type {GateDocument} from './aggregate/report-schema.js'
import type {Verdict} from './gate/verdict.js'
import {renderJson} from './render/json.js'
import {renderJunit} from './render/junit.js'
import {renderGateMarkdown, renderReportMarkdown} from './render/markdown.js'

export type Format = 'md' | 'json' | 'junit' | 'html'

export interface OutputOptions {
  out?: string
  formats: Format[]
  cwd?: string
  env?: NodeJS.ProcessEnv
}

/**
 * reports_dir/<run id>, or reports_dir/latest when the rows come from several runs. The run id comes
 * from the rows, which may come from anywhere (--input): one that is not a plain name (`../../x`) is
 * bad input naming the files, never a path. The folder must be one (or not exist yet), and off the
 * kernel's file systems (atomic-write.ts).
 */
export function outputDir(
  config: LoadedConfig,
  rows: {run_ids: Iterable<string>},
  options: OutputOptions & {inputs?: string[]; runId?: string},
): string {
  if (options.out) {
    const dir = path.resolve(options.cwd ?? process.cwd(), options.out)
    checkWritable(dir, 'folder', {label: '--out', cwd: options.cwd})
    return dir
  }
  const runIds = [...rows.run_ids]
  const name = runIds.length === 1 ? runIds[0]! : 'latest'
  const problem = nameProblem(name)
  if (problem) {
    const where = options.inputs?.length ? options.inputs.join(', ') : options.runId ? '--run-id' : '--input'
    throw new BadInputError([
      {
        file: where,
        code: 'schema',
        message: `the rows' run_id ${JSON.stringify(name)} ${problem}; pass --out to choose the report folder`,
      },
    ])
  }
  const dir = resolveConfigPath(config, path.join(config.values.reports_dir, name))
  // reports_dir is the user's; a link in it is not followed (results/no-follow.ts).
  if (lstatSync(dir, {throwIfNoEntry: false})?.isSymbolicLink()) throw linkRefused(dir, 'write', options.cwd)
  checkWritable(dir, 'folder', {cwd: options.cwd})
  return dir
}

export async function writeOutputs(
  dir: string,
  stem: string,
  json: unknown,
  markdown: string,
  options: OutputOptions,
): Promise<string[]> {
  await mkdir(dir, {recursive: true})
  const written: string[] = []
  // Written whole or not at all (write, then rename): a reader never sees half a report or gate.
  if (options.formats.includes('json')) {
    written.push(path.join(dir, `${stem}.json`))
    await writeFileAtomic(written.at(-1)!, renderJson(json))
  }
  if (options.formats.includes('md')) {
    written.push(path.join(dir, `${stem}.md`))
    await writeFileAtomic(written.at(-1)!, markdown)
  }
  const summary = (options.env ?? process.env).GITHUB_STEP_SUMMARY
  if (summary) {
    checkWritable(summary, 'file', {label: 'GITHUB_STEP_SUMMARY', cwd: options.cwd})
    await appendFile(summary, markdown + '\n')
  }
  return written
}

/** Where the rows came from: a report folder is named after their run id. */
type Destination = OutputOptions & {inputs?: string[]; runId?: string}

/** What the report says happened: the verdict and the gate it came from (when there is one). */
export interface Judgement {
  verdict: Verdict | null
  gate: GateDocument | null
}

/** summary.json, summary.md and junit.xml, as the formats ask: summary.md and junit.xml say the verdict. */
export async function writeReport(
  config: LoadedConfig,
  report: Report,
  judgement: Judgement,
  options: Destination,
): Promise<string[]> {
  const dir = outputDir(config, report, options)
  const files = await writeOutputs(dir, 'summary', report, renderReportMarkdown(report, judgement.verdict), options)
  if (options.formats.includes('junit')) {
    files.push(path.join(dir, 'junit.xml'))
    await writeFileAtomic(files.at(-1)!, renderJunit(report, judgement))
  }
  return files
}

/** gate.json and gate.md, as the formats ask. */
export function writeGate(config: LoadedConfig, gate: GateDocument, options: Destination): Promise<string[]> {
  return writeOutputs(outputDir(config, gate, options), 'gate', gate, renderGateMarkdown(gate), options)
}

/** gate.json in `dir`, if `gate` or `run` wrote it from these very rows (`report` shows it). */
export async function gateOfSameRows(dir: string, report: Report): Promise<GateDocument | null> {
  try {
    // Not through a link (results/no-follow.ts): a gate.json that is one is no gate of these rows.
    const gate = JSON.parse((await readFileBelow(dir, path.join(dir, 'gate.json'))) ?? '') as GateDocument
    const same =
      gate.rows === report.rows &&
      gate.baseline === report.baseline &&
      JSON.stringify(gate.run_ids) === JSON.stringify(report.run_ids) &&
      JSON.stringify(gate.inputs) === JSON.stringify(report.inputs)
    return same && Array.isArray(gate.checks) ? gate : null
  } catch {
    return null
  }
}
