/**
 * A run's budget (`run --budget runs=N,tokens=N,cost=USD,time=DURATION`) and whether what comes next
 * would overrun it: one rule for a plain run, which asks it before each new paired block (with the
 * block's forecast), and for `run --until-decided`, which asks it before each look (at the average per
 * run so far).
 */
import {formatDuration, parseDuration} from '../shared/duration.js'

export interface Budget {
  runs?: number
  tokens?: number
  cost_usd?: number
  /** Wall time, in milliseconds. */
  ms?: number
}

/** What was spent, or what something is expected to spend. */
export interface Spent {
  runs: number
  tokens: number
  cost_usd: number
  /** Wall time, in milliseconds. */
  ms: number
}

export const nothingSpent = (): Spent => ({runs: 0, tokens: 0, cost_usd: 0, ms: 0})

const EXPECTED = 'expected runs=N, tokens=N, cost=USD or time=DURATION (as 90s, 15m, 1h30m)'

/**
 * Parses `runs=400`, `tokens=2000000`, `cost=5`, `time=1h30m` (one or several, comma-separated, or
 * repeated); an error message otherwise.
 */
export function parseBudget(items: readonly string[]): Budget | string {
  const budget: Budget = {}
  for (const item of items.flatMap((text) => text.split(','))) {
    const match = /^\s*(runs|tokens|cost|time)\s*=\s*(\S+)\s*$/.exec(item)
    const [, name, value] = match ?? []
    if (name === 'time') {
      const ms = parseDuration(value!)
      if (ms === undefined || ms <= 0) return `${EXPECTED}, got "${item.trim()}"`
      budget.ms = ms
      continue
    }
    if (!name || !/^\d+(\.\d+)?$/.test(value!) || Number(value) <= 0 || (name !== 'cost' && !/^\d+$/.test(value!)))
      return `${EXPECTED}, got "${item.trim()}"`
    budget[name === 'cost' ? 'cost_usd' : (name as 'runs' | 'tokens')] = Number(value)
  }
  return budget
}

/** The budget as the flag gives it: `tokens=50000,time=15m`. */
export function budgetText(budget: Budget): string {
  const parts = [
    budget.runs !== undefined ? `runs=${budget.runs}` : '',
    budget.tokens !== undefined ? `tokens=${budget.tokens}` : '',
    budget.cost_usd !== undefined ? `cost=${budget.cost_usd}` : '',
    budget.ms !== undefined ? `time=${formatDuration(budget.ms)}` : '',
  ]
  return parts.filter(Boolean).join(',')
}

export const hasBudget = (budget: Budget): boolean => budgetText(budget) !== ''

/** What `runs` more runs would spend at the average per run of `spent` (nothing known: nothing). */
export function atAverage(spent: Spent, runs: number): Spent {
  const perRun = (total: number) => (spent.runs === 0 ? 0 : (total / spent.runs) * runs)
  return {runs, tokens: perRun(spent.tokens), cost_usd: perRun(spent.cost_usd), ms: perRun(spent.ms)}
}

/**
 * Why `next` (what comes next: "the next look", "the next block") would overrun the budget after
 * `spent`, or null when it fits.
 */
export function budgetOverrun(budget: Budget, spent: Spent, next: Spent, what: string): string | null {
  const after = (key: keyof Spent) => spent[key] + next[key]
  if (budget.runs !== undefined && after('runs') > budget.runs)
    return `${what} needs ${next.runs} runs, which would bring the total to ${after('runs')} (budget ${budget.runs})`
  if (budget.tokens !== undefined && after('tokens') > budget.tokens)
    return `${what} would bring the tokens to about ${Math.round(after('tokens'))} (budget ${budget.tokens})`
  if (budget.cost_usd !== undefined && after('cost_usd') > budget.cost_usd)
    return `${what} would bring the cost to about $${after('cost_usd').toFixed(2)} (budget $${budget.cost_usd})`
  if (budget.ms !== undefined && after('ms') > budget.ms)
    return `${what} would bring the time to about ${formatDuration(after('ms'))} (budget ${formatDuration(budget.ms)})`
  return null
}
