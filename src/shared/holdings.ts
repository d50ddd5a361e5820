/**
 * What a piece of work holds, released when it ends whichever way it ends: `await using held = new
 * Holdings()`, then `held.defer(release)` for each thing as it is taken. Node 20 has Symbol.asyncDispose
 * but not AsyncDisposableStack: this is the part of it the runner uses. Released in order, last taken
 * first (what was taken later may use what was taken before), or, for work whose releasing goes on
 * beside what follows, all at once in the background (`Holdings.inBackground`).
 */
export class Holdings implements AsyncDisposable {
  private readonly releases: Array<() => unknown> = []

  private constructor(private readonly releaseAll: (releases: Array<() => unknown>) => Promise<void>) {}

  /** Released in order, each awaited; every release runs, and the first failure is thrown once all have. */
  static inOrder(): Holdings {
    return new Holdings(async (releases) => {
      const failures: unknown[] = []
      for (const release of releases.reverse()) {
        try {
          await release()
        } catch (error) {
          failures.push(error)
        }
      }
      if (failures.length > 0) throw failures[0]
    })
  }

  /**
   * Released all at once, without waiting: `inBackground` gets their settling (whoever owns what they
   * release waits for it before closing that). A failed release is nobody's to report: it is dropped.
   */
  static inBackground(inBackground: (work: Promise<unknown>) => void): Holdings {
    return new Holdings((releases) => {
      inBackground(Promise.allSettled(releases.map((release) => Promise.resolve().then(release))))
      return Promise.resolve()
    })
  }

  /** `release` runs when the holder is disposed. */
  defer(release: () => unknown): void {
    this.releases.push(release)
  }

  /** `value`, held: `release(value)` runs when the holder is disposed. */
  use<T>(value: T, release: (value: T) => unknown): T {
    this.defer(() => release(value))
    return value
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.releaseAll(this.releases.splice(0))
  }
}
