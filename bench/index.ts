// `npm run bench`: every benchmark, each reported as ratios to a baseline measured in the same run.
// BENCH_ROUNDS sets the repetitions (default 15).
import {benchStartup} from './startup.js'

const rounds = Number(process.env.BENCH_ROUNDS ?? 15)
console.log(benchStartup(rounds))
