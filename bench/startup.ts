// CLI start-up: `ghx-bench --help` and `ghx-bench validate` on the full catalogue, against a bare
// `node -e 0` measured in the same run. Goals: --help within 4x of node, validate under 1 s.
import path from 'node:path'
import {PACKAGE_ROOT} from '../src/shared/package-paths.js'
import {medianTimes, table} from './support.js'

export function benchStartup(rounds: number): string {
  const bin = path.join(PACKAGE_ROOT, 'bin', 'run.js')
  const times = medianTimes(
    [
      {label: 'node -e 0', command: process.execPath, args: ['-e', '0']},
      {label: 'ghx-bench --help', command: process.execPath, args: [bin, '--help'], cwd: PACKAGE_ROOT},
      {label: 'ghx-bench validate (full catalogue)', command: process.execPath, args: [bin, 'validate'], cwd: PACKAGE_ROOT},
    ],
    rounds,
  )
  const baseline = times.get('node -e 0')!
  const rows = [['case', 'median ms', 'x node -e 0'], ...[...times].map(([label, ms]) => [label, ms.toFixed(1), (ms / baseline).toFixed(2)])]
  const help = times.get('ghx-bench --help')! / baseline
  const validate = times.get('ghx-bench validate (full catalogue)')!
  return [
    `## CLI start-up (median of ${rounds} runs each, interleaved)`,
    table(rows),
    `goal --help <= 4x node: ${help <= 4 ? 'met' : 'missed'} (${help.toFixed(2)}x); goal validate < 1000 ms: ${validate < 1000 ? 'met' : 'missed'} (${validate.toFixed(0)} ms)`,
  ].join('\n')
}
