// CLI start-up: `ghx-bench --help` and `ghx-bench validate` on the full catalogue, against a bare
// `node -e 0` measured in the same run; and validate of a project with one 1 MB scenario of 38,000
// keys (issue 27: a duplicate-key check of each key against every earlier one took 183 s for 600 KB).
// `validate` of one scenario and of one suite reads only them and what they reference (issue 47), against
// `ghx-bench --version`, a bare oclif command's start-up.
// Goals: --help within 4x of node, validate under 1 s, with the 1 MB file under 2 s, validate of one
// scenario within 2x of --version.
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {PACKAGE_ROOT} from '../src/shared/package-paths.js'
import {medianTimes, table} from './support.js'

/** A project of one scenario: a 1 MB `input` of 38,000 keys (refused: exit 2, after reading all of it). */
function projectWithLargeFile(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ghx-bench-bench-large-'))
  mkdirSync(path.join(dir, 'catalogue', 'scenarios'), {recursive: true})
  writeFileSync(path.join(dir, '.ghxbenchrc.yml'), 'target: sandbox\nmodel: oracle\nsuites_dir: catalogue\n')
  const keys = Array.from({length: 38_000}, (_, i) => `  key_number_${String(i).padStart(6, '0')}: ${i}`)
  writeFileSync(
    path.join(dir, 'catalogue', 'scenarios', 'large-input-001.yml'),
    ['type: atomic', 'id: large-input-001', 'name: large', 'task: repo.view', 'input:', ...keys, ''].join('\n'),
  )
  return dir
}

const ONE_SCENARIO = path.join('suites', 'scenarios', 'issue-view-001.yml')
const ONE_SUITE = path.join('suites', 'smoke.yml')

export function benchStartup(rounds: number): string {
  const bin = path.join(PACKAGE_ROOT, 'bin', 'run.js')
  const large = projectWithLargeFile()
  try {
    const times = medianTimes(
      [
        {label: 'node -e 0', command: process.execPath, args: ['-e', '0']},
        {label: 'ghx-bench --version', command: process.execPath, args: [bin, '--version'], cwd: PACKAGE_ROOT},
        {label: 'ghx-bench --help', command: process.execPath, args: [bin, '--help'], cwd: PACKAGE_ROOT},
        {
          label: 'ghx-bench validate (one scenario)',
          command: process.execPath,
          args: [bin, 'validate', ONE_SCENARIO],
          cwd: PACKAGE_ROOT,
        },
        {
          label: 'ghx-bench validate (one suite)',
          command: process.execPath,
          args: [bin, 'validate', ONE_SUITE],
          cwd: PACKAGE_ROOT,
        },
        {
          label: 'ghx-bench validate (full catalogue)',
          command: process.execPath,
          args: [bin, 'validate'],
          cwd: PACKAGE_ROOT,
        },
        {
          label: 'ghx-bench validate (a 1 MB file)',
          command: process.execPath,
          args: [bin, 'validate'],
          cwd: large,
          okCodes: [2],
        },
      ],
      rounds,
    )
    const baseline = times.get('node -e 0')!
    const oclif = times.get('ghx-bench --version')!
    const rows = [
      ['case', 'median ms', 'x node -e 0', 'x --version'],
      ...[...times].map(([label, ms]) => [label, ms.toFixed(1), (ms / baseline).toFixed(2), (ms / oclif).toFixed(2)]),
    ]
    const one = times.get('ghx-bench validate (one scenario)')! / oclif
    const help = times.get('ghx-bench --help')! / baseline
    const validate = times.get('ghx-bench validate (full catalogue)')!
    const validateLarge = times.get('ghx-bench validate (a 1 MB file)')!
    return [
      `## CLI start-up (median of ${rounds} runs each, interleaved)`,
      table(rows),
      `goal --help <= 4x node: ${help <= 4 ? 'met' : 'missed'} (${help.toFixed(2)}x); goal validate < 1000 ms: ${validate < 1000 ? 'met' : 'missed'} (${validate.toFixed(0)} ms); goal 1 MB file < 2000 ms: ${validateLarge < 2000 ? 'met' : 'missed'} (${validateLarge.toFixed(0)} ms); goal validate of one scenario <= 2x --version: ${one <= 2 ? 'met' : 'missed'} (${one.toFixed(2)}x)`,
    ].join('\n')
  } finally {
    rmSync(large, {recursive: true, force: true})
  }
}
