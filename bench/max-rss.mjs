// Preload for benchmarked commands: at exit, writes the process's peak RSS (KiB, workers included)
// to the file named by BENCH_RSS_FILE.
import {writeFileSync} from 'node:fs'

process.on('exit', () => {
  if (process.env.BENCH_RSS_FILE) writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS))
})
