import {Flags} from '@oclif/core'
import type {Format, RowOptions} from '../app/report.js'
import {checkRunId} from '../results/names.js'
import {BadInputError} from '../shared/diagnostics.js'
import {MAX_SEED} from '../schemas/common.js'
import {DEFAULT_RESAMPLES, DEFAULT_SEED} from '../stats/bootstrap.js'

/** The bootstrap's resamples when no flag says: the gate's, and the simulation's of it. */
export {DEFAULT_RESAMPLES}

/** Ten times the default: more moves an interval's ends by less than their own noise, and takes minutes on a large suite. */
export const MAX_RESAMPLES = 100_000
/** Seeded datasets per cell of `simulate`: 500 times the default, already hours of work. */
export const MAX_DATASETS = 100_000
export {MAX_SEED}

/** Flags shared by `report` and `gate`: where rows come from, where output goes, the bootstrap. */
export const rowFlags = {
  input: Flags.string({
    char: 'i',
    multiple: true,
    description: 'results file or folder (ghx-bench JSONL, ghx-router JSONL, ghx eval results.json/.csv); repeatable',
  }),
  'run-id': Flags.string({description: 'read results_dir/<run-id>.jsonl'}),
  out: Flags.string({
    char: 'o',
    description: 'output folder (default: reports_dir/<run-id>, or reports_dir/latest for several runs)',
  }),
  format: Flags.string({
    description: 'output formats, comma-separated: md, json, junit, html (report only: junit.xml, summary.html)',
    default: 'md,json',
  }),
  baseline: Flags.string({description: 'baseline mode (sets gate.baseline; default agent_direct)'}),
  seed: Flags.integer({
    description: 'bootstrap seed (recorded in the output)',
    default: DEFAULT_SEED,
    min: 0,
    max: MAX_SEED,
  }),
  resamples: Flags.integer({
    description: 'bootstrap resamples',
    default: DEFAULT_RESAMPLES,
    min: 100,
    max: MAX_RESAMPLES,
  }),
}

interface RowFlagValues {
  input?: string[]
  'run-id'?: string
  out?: string
  format: string
  seed: number
  resamples: number
}

/** The rows, the output and the bootstrap the shared flags stand for. */
export function rowOptions(flags: RowFlagValues): RowOptions {
  return {
    inputs: flags.input,
    runId: flags['run-id'] === undefined ? undefined : checkRunId(flags['run-id'], '--run-id'),
    out: flags.out,
    formats: parseFormats(flags.format),
    seed: flags.seed,
    resamples: flags.resamples,
  }
}

function parseFormats(value: string): Format[] {
  const formats = value.split(',').map((f) => f.trim())
  const unknown = formats.filter((f) => f !== 'md' && f !== 'json' && f !== 'junit' && f !== 'html')
  if (unknown.length > 0)
    throw new BadInputError([
      {
        file: '--format',
        code: 'config',
        message: `unknown format ${unknown.map((f) => JSON.stringify(f)).join(', ')} (known: md, json, junit, html)`,
      },
    ])
  return formats as Format[]
}
