// The gate's measured error rates (ghx-bench simulate): P(pass / fail / inconclusive) of every check of
// verify_pr under decision ci, at true effect 0, at the threshold and at twice it, for 4 and 10
// scenarios at 5 and 20 repetitions per cell, and run --until-decided's power and run savings.
// BENCH_GATE_DATASETS sets the seeded datasets per cell (default 200; four times as many at the threshold). Goal: false pass <= 5% at the
// threshold and at zero effect for every check; with --until-decided, >= 80% power at twice the
// threshold for 4 scenarios using >= 30% fewer runs than a fixed 20 repetitions.
import {simulateGate} from '../src/app/simulate.js'
import {falsePassShare, powerShare} from '../src/report/simulate.js'
import {PACKAGE_ROOT} from '../src/shared/package-paths.js'

export async function benchGateErrorRates(datasets = Number(process.env.BENCH_GATE_DATASETS ?? 200)): Promise<string> {
  const started = performance.now()
  const {report, markdown} = await simulateGate({cwd: PACKAGE_ROOT, profile: 'verify_pr', decision: 'ci', datasets})
  const seconds = ((performance.now() - started) / 1000).toFixed(0)
  const falsePasses = [...report.fixed, ...report.sequential].flatMap((cell) => cell.checks.map((c) => falsePassShare(c, cell.point)))
  const worstFalsePass = Math.max(...falsePasses.filter((v): v is number => v !== null))
  const plan = report.options.plan!
  const fixedRepetitions = plan.looks.at(-1)!
  const sequentialDouble = report.sequential.filter((c) => c.scenarios === 4 && c.point === 'double')
  const efficiency = sequentialDouble.flatMap((c) => c.checks.filter((check) => check.group === 'efficiency' && check.name !== 'efficiency_coverage'))
  const goals = efficiency.map((check) => {
    const power = powerShare(check)!
    const saved = 1 - check.mean_repetitions / fixedRepetitions
    return `${check.name}: power ${(100 * power).toFixed(1)}%, ${(100 * saved).toFixed(0)}% fewer runs — ${power >= 0.8 && saved >= 0.3 ? 'met' : 'missed'}`
  })
  return [
    markdown.trim(),
    '',
    `worst false pass over every check, point and design: ${(100 * worstFalsePass).toFixed(1)}% (goal <= 5%: ${worstFalsePass <= 0.05 ? 'met' : 'missed'})`,
    `--until-decided at twice the threshold, 4 scenarios (goal >= 80% power, >= 30% fewer runs than ${fixedRepetitions} repetitions):`,
    ...goals.map((line) => `  ${line}`),
    `(${seconds} s)`,
  ].join('\n')
}
