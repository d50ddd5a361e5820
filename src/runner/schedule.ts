/** The scheduler: runs in plan order, skipping those whose fixtures are busy, up to `concurrency` at once. */
import type {PlannedRun} from './plan.js'

export async function schedule(plan: PlannedRun[], concurrency: number, locksOf: (run: PlannedRun) => string[], execute: (run: PlannedRun) => Promise<void>, signal: AbortSignal): Promise<void> {
  const pending = [...plan]
  const busy = new Set<string>()
  const active = new Set<Promise<void>>()
  while ((pending.length > 0 && !signal.aborted) || active.size > 0) {
    while (active.size < concurrency && !signal.aborted) {
      const index = pending.findIndex((run) => locksOf(run).every((lock) => !busy.has(lock)))
      if (index < 0) break
      const [run] = pending.splice(index, 1) as [PlannedRun]
      const locks = locksOf(run)
      for (const lock of locks) busy.add(lock)
      const task: Promise<void> = execute(run).finally(() => {
        for (const lock of locks) busy.delete(lock)
        active.delete(task)
      })
      active.add(task)
    }
    if (active.size === 0) break
    await Promise.race(active)
  }
}
