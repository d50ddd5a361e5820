/**
 * Work a run leaves to finish on its own (releasing what it held: its folder, its access, its model
 * endpoint): it goes on beside the next runs, and whoever owns what it releases waits for all of it
 * (`settled`) before closing that. A failure of such work is nobody's to report: it is dropped.
 */
export class BackgroundWork {
  private readonly pending = new Set<Promise<void>>()

  add(work: Promise<unknown>): void {
    const settled: Promise<void> = work.then(
      () => void this.pending.delete(settled),
      () => void this.pending.delete(settled),
    )
    this.pending.add(settled)
  }

  /** Resolves once every piece of work added so far has ended. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending)
  }
}
