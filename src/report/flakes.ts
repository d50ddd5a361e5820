/**
 * The flake ledger: across a project's stored runs, per scenario × mode × provider, how often the
 * outcome changes from one run of it to the next. A scenario that always passes or always fails is
 * steady (a failing one is broken, not flaky); one that flips is noise in every verdict it touches.
 *
 * Runs are taken oldest first and, within a run, by iteration: the sequence of outcomes. Its flip
 * rate is the share of consecutive outcomes that differ (0 for a steady cell; about 2p(1-p) for
 * independent outcomes that pass with probability p, so 0.5 at most in expectation). pass^k is the
 * chance that k runs drawn from the cell all pass, C(passes, k) / C(runs, k), at the k of a run's
 * repetitions (the τ-bench estimator): the chance a whole run of the cell comes out green.
 *
 * A cell is proposed for quarantine when it has at least `minRuns` runs, at least two flips, and a
 * flip rate at or above `flipThreshold`: one flip is a change (a regression, or a fix), not noise. A proposal is only that: the quarantine file (quarantine.ts) is
 * the team's decision, and a quarantined scenario is still run, reported and judged.
 */

/** One run's outcome of one scenario × mode × provider × iteration. */
export interface LedgerOutcome {
  run_id: string
  /** When the run started (its first row's started_at): runs are ordered by it. */
  run_started_at: string
  scenario_id: string
  mode: string
  provider: string | null
  iteration: number
  success: boolean
}

export interface LedgerEntry {
  scenario_id: string
  mode: string
  provider: string | null
  /** Stored runs in which the cell ran. */
  runs: number
  /** Its outcomes over them (every iteration of every run). */
  outcomes: number
  passes: number
  pass_rate: number
  pass_hat_k: {k: number; value: number}
  flip_rate: number | null
  first_failing: string | null
  last_failing: string | null
  proposed_quarantine: boolean
}

export interface LedgerOptions {
  flipThreshold: number
  minRuns: number
}

export const DEFAULT_LEDGER_OPTIONS: LedgerOptions = {flipThreshold: 0.2, minRuns: 3}

/** C(n, k) / C(m, k): the chance that k of m draws without replacement all come from the n passes. */
function passHatK(passes: number, total: number, k: number): number {
  if (k > total) return Number.NaN
  let value = 1
  for (let i = 0; i < k; i++) value *= (passes - i) / (total - i)
  return Math.max(0, value)
}

export function flakeLedger(outcomes: readonly LedgerOutcome[], options = DEFAULT_LEDGER_OPTIONS): LedgerEntry[] {
  const cells = new Map<string, LedgerOutcome[]>()
  for (const outcome of outcomes) {
    const key = JSON.stringify([outcome.scenario_id, outcome.mode, outcome.provider])
    ;(cells.get(key) ?? cells.set(key, []).get(key)!).push(outcome)
  }
  const entries = [...cells.values()].map((cell) => ledgerEntry(cell, options))
  return entries.sort(
    (a, b) =>
      Number(b.proposed_quarantine) - Number(a.proposed_quarantine) ||
      (b.flip_rate ?? -1) - (a.flip_rate ?? -1) ||
      a.scenario_id.localeCompare(b.scenario_id) ||
      a.mode.localeCompare(b.mode) ||
      (a.provider ?? '').localeCompare(b.provider ?? ''),
  )
}

function ledgerEntry(cell: LedgerOutcome[], options: LedgerOptions): LedgerEntry {
  const ordered = [...cell].sort(
    (a, b) =>
      a.run_started_at.localeCompare(b.run_started_at) || a.run_id.localeCompare(b.run_id) || a.iteration - b.iteration,
  )
  const perRun = new Map<string, number>()
  for (const o of ordered) perRun.set(o.run_id, (perRun.get(o.run_id) ?? 0) + 1)
  const passes = ordered.filter((o) => o.success).length
  let flips = 0
  for (let i = 1; i < ordered.length; i++) if (ordered[i]!.success !== ordered[i - 1]!.success) flips++
  const flipRate = ordered.length < 2 ? null : flips / (ordered.length - 1)
  const failing = ordered.filter((o) => !o.success)
  // k: a run's repetitions (the smallest, so every run could have given k outcomes).
  const k = Math.min(...perRun.values())
  const first = ordered[0]!
  return {
    scenario_id: first.scenario_id,
    mode: first.mode,
    provider: first.provider,
    runs: perRun.size,
    outcomes: ordered.length,
    passes,
    pass_rate: passes / ordered.length,
    pass_hat_k: {k, value: passHatK(passes, ordered.length, k)},
    flip_rate: flipRate,
    first_failing: failing[0]?.run_id ?? null,
    last_failing: failing.at(-1)?.run_id ?? null,
    proposed_quarantine:
      perRun.size >= options.minRuns && flips >= 2 && flipRate !== null && flipRate >= options.flipThreshold,
  }
}
