// `npm run bench`: every benchmark, each reported as ratios to a baseline measured in the same run.
// BENCH_ROUNDS sets the repetitions of the quick benchmarks (default 15), BENCH_HEAVY_ROUNDS those of
// report and gate below 10M rows (default 3; 10M runs once), BENCH_REPORT_SIZES their sizes (default
// 100k,1M,3M,10M), BENCH_GATE_DATASETS the datasets per cell of the gate's error rates (default 200).
import {benchGateErrorRates} from './gate-error-rates.js'
import {benchReportGate} from './report-gate.js'
import {benchRunner} from './runner.js'
import {benchSandbox} from './sandbox.js'
import {benchStartup} from './startup.js'

const rounds = Number(process.env.BENCH_ROUNDS ?? 15)
const heavyRounds = Number(process.env.BENCH_HEAVY_ROUNDS ?? 3)
console.log(benchStartup(rounds))
console.log()
console.log(await benchSandbox())
console.log()
console.log(await benchRunner())
console.log()
console.log(await benchReportGate(heavyRounds))
console.log()
console.log(await benchGateErrorRates())
