// The scaling check CI runs (.ci/run): `gate` and `report` over 10k and 100k generated rows, and the
// ratio of their CPU times (user + system, workers included) within one run, so a slow or busy machine
// moves both alike. Linear work gives about 10 (less, with start-up counted in both), quadratic about
// 100: the check fails (exit 1) above 15. It caught the sized rules' walk that made the gate quadratic in
// the runs per mode (100k rows: 367 s of CPU).
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {PACKAGE_ROOT} from '../src/shared/package-paths.js'
import {generateRows} from './generate-rows.js'
import {measureCommand, table} from './support.js'

const SIZES = [10_000, 100_000] as const
const LIMIT = 15
const COMMANDS = [
  {name: 'gate', args: ['gate', '--profile', 'verify_pr']},
  {name: 'report', args: ['report']},
] as const

const dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-scaling-'))
try {
  const files = new Map<number, string>()
  for (const total of SIZES) {
    const file = path.join(dir, `rows-${total}.jsonl`)
    await generateRows(file, {scenarios: 100, modes: ['agent_direct', 'mcp', 'ghx'], total, seed: 1})
    files.set(total, file)
  }
  const rows: string[][] = [['command', ...SIZES.map((n) => `CPU s at ${n / 1000}k rows`), 'ratio', 'verdict']]
  let failed = false
  for (const command of COMMANDS) {
    const cpu = SIZES.map(
      (total) =>
        measureCommand({
          label: `${command.name} ${total}`,
          command: process.execPath,
          args: [
            path.join(PACKAGE_ROOT, 'bin', 'run.js'),
            ...command.args,
            '--input',
            files.get(total)!,
            '--out',
            path.join(dir, `${command.name}-${total}`),
          ],
          cwd: dir,
          // The generated rows' gate may pass, fail or be inconclusive: all are verdicts here.
          okCodes: [0, 1, 3],
        }).cpuMs,
    )
    const ratio = cpu[1]! / cpu[0]!
    failed ||= ratio > LIMIT
    rows.push([
      command.name,
      ...cpu.map((ms) => (ms / 1000).toFixed(2)),
      ratio.toFixed(1),
      ratio > LIMIT ? `FAIL (> ${LIMIT})` : 'ok',
    ])
  }
  console.log(table(rows))
  if (failed) {
    console.error(
      `scaling check: a command's CPU time grew more than ${LIMIT}x from 10k to 100k rows (linear is about 10)`,
    )
    process.exitCode = 1
  }
} finally {
  await rm(dir, {recursive: true, force: true})
}
