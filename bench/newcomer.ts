// What a newcomer waits for, timed as the README gives the commands: the main job
// (`run suites/full-seeded.yml` on the embedded default), `npm test`, `npm run test:e2e`, and `init` in an empty folder with
// the commands it prints (validate, validate --calibrate, run). README.md quotes these figures: they
// come from here, with the machine named in docs/performance.md. Each command runs BENCH_NEWCOMER_ROUNDS
// times (default 1: the main job and npm test take minutes) and the median is reported, beside a bare
// `node -e 0` measured in the same run.
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {spawnSync} from 'node:child_process'
import {PACKAGE_ROOT} from '../src/shared/package-paths.js'
import {median} from '../src/stats/quantiles.js'
import {medianTimes, table} from './support.js'

interface Step {
  label: string
  command: string
  args: string[]
  cwd: string
  /** Exit codes that are the command's normal end (the main job's gate fails by design: 1). */
  okCodes: number[]
}

/** Wall seconds of one run of a command; an unexpected exit aborts the benchmark. */
function seconds(step: Step): number {
  const start = process.hrtime.bigint()
  const result = spawnSync(step.command, step.args, {
    cwd: step.cwd,
    env: {...process.env, CI: '1', NO_COLOR: '1'},
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 256 * 1024 * 1024,
  })
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9
  // mocha reports its failures on stdout: both ends are shown.
  if (!step.okCodes.includes(result.status ?? -1))
    throw new Error(
      `${step.label} exited ${result.status}: ${result.stdout.slice(-6000)}\n${result.stderr.slice(-2000)}`,
    )
  return elapsed
}

export async function benchNewcomer(rounds: number): Promise<string> {
  const cli = path.join(PACKAGE_ROOT, 'bin', 'run.js')
  const node = process.execPath
  const samples = new Map<string, number[]>()
  const record = (step: Step) =>
    (samples.get(step.label) ?? samples.set(step.label, []).get(step.label)!).push(seconds(step))
  for (let round = 0; round < rounds; round++) {
    const initDir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-newcomer-init-'))
    // The main job runs where the README runs it, in the clone; its run is removed afterwards.
    const runId = `bench-newcomer-${process.pid}-${round}`
    const made = ['results', 'reports'].flatMap((dir) => [
      path.join(PACKAGE_ROOT, dir, runId),
      path.join(PACKAGE_ROOT, dir, `${runId}.jsonl`),
    ])
    try {
      record({
        label: 'main job: run suites/full-seeded.yml',
        command: node,
        args: [cli, 'run', 'suites/full-seeded.yml', '--run-id', runId],
        cwd: PACKAGE_ROOT,
        okCodes: [0, 1, 3],
      })
      record({label: 'npm test', command: 'npm', args: ['test'], cwd: PACKAGE_ROOT, okCodes: [0]})
      record({label: 'npm run test:e2e', command: 'npm', args: ['run', 'test:e2e'], cwd: PACKAGE_ROOT, okCodes: [0]})
      for (const [label, args, okCodes] of [
        ['init', ['init'], [0]],
        ['init, then validate', ['validate'], [0]],
        ['init, then validate --calibrate', ['validate', '--calibrate'], [0]],
        ['init, then run suites/example.yml', ['run', 'suites/example.yml'], [0, 1, 3]],
      ] as const)
        record({label, command: node, args: [cli, ...args], cwd: initDir, okCodes: [...okCodes]})
    } finally {
      await Promise.all([initDir, ...made].map((dir) => rm(dir, {recursive: true, force: true})))
    }
  }
  const bare = medianTimes([{label: 'node -e 0', command: node, args: ['-e', '0']}], 5, 1).get('node -e 0')! / 1000
  const rows = [...samples].map(([label, values]) => {
    const s = median(values)
    return [label, s.toFixed(1), (s / bare).toFixed(0)]
  })
  return [
    `Wall time of each command as the README gives it (median of ${rounds}; node -e 0: ${(bare * 1000).toFixed(0)} ms)`,
    '',
    table([['command', 's', 'x node -e 0'], ...rows]),
  ].join('\n')
}
