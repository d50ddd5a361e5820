// Preload for benchmarked commands: at exit, writes the process's peak RSS (KiB, workers included)
// to the file named by BENCH_RSS_FILE, and its CPU time (user + system, µs, workers included) to
// BENCH_CPU_FILE.
import {writeFileSync} from 'node:fs'

process.on('exit', () => {
  const usage = process.resourceUsage()
  if (process.env.BENCH_RSS_FILE) writeFileSync(process.env.BENCH_RSS_FILE, String(usage.maxRSS))
  if (process.env.BENCH_CPU_FILE)
    writeFileSync(process.env.BENCH_CPU_FILE, String(usage.userCPUTime + usage.systemCPUTime))
})
