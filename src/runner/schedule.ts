/**
 * The scheduler: runs in plan order, skipping those whose locks are busy, up to `concurrency` at once; a
 * run that `admit` refuses (the budget: src/runner/block-budget.ts) is dropped, not run.
 */
import type {PlannedRun} from './plan.js'

/**
 * What a run holds while it runs. A name is held by one run at a time; a side of a group is held by any
 * number of runs at once, but never while a run holds the group's other side (the runs that change the
 * repository against those that compare the answer with a list of it).
 */
export type RunLock = string | {group: string; side: string}

/** Holders of each lock: names are exclusive, a group's side is shared by its holders. */
class Locks {
  private readonly names = new Set<string>()
  private readonly groups = new Map<string, {side: string; holders: number}>()

  free(locks: readonly RunLock[]): boolean {
    return locks.every((lock) =>
      typeof lock === 'string' ? !this.names.has(lock) : (this.groups.get(lock.group)?.side ?? lock.side) === lock.side,
    )
  }

  take(locks: readonly RunLock[]): void {
    for (const lock of locks) {
      if (typeof lock === 'string') this.names.add(lock)
      else {
        const held = this.groups.get(lock.group)
        this.groups.set(lock.group, {side: lock.side, holders: (held?.holders ?? 0) + 1})
      }
    }
  }

  release(locks: readonly RunLock[]): void {
    for (const lock of locks) {
      if (typeof lock === 'string') this.names.delete(lock)
      else {
        const held = this.groups.get(lock.group)!
        if (held.holders === 1) this.groups.delete(lock.group)
        else held.holders--
      }
    }
  }
}

export async function schedule(
  plan: PlannedRun[],
  concurrency: number,
  locksOf: (run: PlannedRun) => RunLock[],
  execute: (run: PlannedRun) => Promise<void>,
  signal: AbortSignal,
  admit: (run: PlannedRun) => boolean = () => true,
): Promise<void> {
  const pending = [...plan]
  const locks = new Locks()
  const active = new Set<Promise<void>>()
  while ((pending.length > 0 && !signal.aborted) || active.size > 0) {
    while (active.size < concurrency && !signal.aborted) {
      const index = pending.findIndex((run) => locks.free(locksOf(run)))
      if (index < 0) break
      const [run] = pending.splice(index, 1) as [PlannedRun]
      if (!admit(run)) continue
      const held = locksOf(run)
      locks.take(held)
      const task: Promise<void> = execute(run).finally(() => {
        locks.release(held)
        active.delete(task)
      })
      active.add(task)
    }
    if (active.size === 0) break
    await Promise.race(active)
  }
}
