// `run --budget` in the scheduler: a paired block starts only while it fits by its forecast; the first that
// would overrun stops the run, the blocks started finish whole, and the rest are recorded as not run.
import {expect} from 'chai'
import type {Budget, Spent} from '../../src/results/budget.js'
import {BlockBudget} from '../../src/runner/block-budget.js'
import {buildPlan, type PlannedRun} from '../../src/runner/plan.js'
import {schedule} from '../../src/runner/schedule.js'
import {makeRow} from '../support/rows.js'

const SCENARIOS = ['a', 'b', 'c', 'd']
const MODES = ['agent_direct', 'mcp']

/** Every run spends what its forecast says (tokens by mode; `actual` overrides); returns the runs played and the budget. */
async function play(
  budget: Budget,
  options: {
    concurrency?: number
    forecast?: (run: PlannedRun) => Spent | undefined
    actual?: (run: PlannedRun) => number
  } = {},
) {
  const tokensOf = (run: PlannedRun) => (run.mode === 'mcp' ? 900 : 100)
  const {
    concurrency = 1,
    forecast = (run) => ({runs: 1, tokens: tokensOf(run), cost_usd: 0, ms: 0}),
    actual = tokensOf,
  } = options
  const plan = buildPlan(SCENARIOS, MODES, ['agent-loop'], 2, 7)
  const guard = new BlockBudget(budget, plan, forecast, concurrency)
  const played: PlannedRun[] = []
  await schedule(
    plan,
    concurrency,
    () => [],
    async (run) => {
      played.push(run)
      await new Promise((resolve) => setImmediate(resolve))
      const total = actual(run)
      guard.finish(
        run,
        makeRow({
          scenario_id: run.scenario_id,
          mode: run.mode,
          iteration: run.iteration,
          tokens: {...makeRow({}).tokens, total},
        }),
      )
    },
    new AbortController().signal,
    (run) => guard.admit(run),
  )
  return {plan, played, guard}
}

const blocksOf = (runs: readonly PlannedRun[]) => [...new Set(runs.map((r) => `${r.scenario_id}/${r.iteration}`))]

describe('the budget of a run’s blocks', () => {
  it('starts blocks while they fit, finishes every block started whole, and records the rest as not run', async () => {
    // Each block is expected to spend 1000 tokens: 3 fit in 3500, the fourth would overrun.
    const {plan, played, guard} = await play({tokens: 3500})
    const ran = blocksOf(played)
    expect(ran).to.have.length(3)
    // Whole blocks: each block that started ran under both modes.
    expect(played).to.have.length(6)
    const notRun = guard.notRun(plan)!
    expect(notRun).to.deep.include({reason: 'budget', budget: 'tokens=3500', planned_blocks: 8})
    expect(notRun.detail).to.equal('the next block would bring the tokens to about 4000 (budget 3500)')
    expect([...notRun.blocks, ...ran].sort()).to.deep.equal(blocksOf(plan).sort())
    // In plan order: every block that ran starts before the first one left out.
    const firstRunOf = (block: string) => plan.findIndex((r) => `${r.scenario_id}/${r.iteration}` === block)
    const stop = Math.min(...notRun.blocks.map(firstRunOf))
    for (const block of ran) expect(firstRunOf(block), block).to.be.below(stop)
  })

  it('counts what the blocks started will still spend: with four runs at once no more blocks start than fit', async () => {
    const {played, guard} = await play({tokens: 3500}, {concurrency: 4})
    expect(blocksOf(played)).to.have.length(3)
    expect(guard.stopped).to.match(/^the next block would bring the tokens to about 4000/)
  })

  it('runs counted exactly: runs=5 starts two blocks of two runs, not a third', async () => {
    const {played, guard} = await play({runs: 5})
    expect(played).to.have.length(4)
    expect(guard.stopped).to.equal('the next block needs 2 runs, which would bring the total to 6 (budget 5)')
  })

  it('without a forecast, expects a run to spend the average of the runs so far', async () => {
    // Nothing known before the first run: the first block starts; then 500 tokens a run is expected, 1000 a block.
    const {played, guard} = await play({tokens: 2500}, {forecast: () => undefined, actual: () => 500})
    expect(blocksOf(played)).to.have.length(2)
    expect(guard.stopped).to.equal('the next block would bring the tokens to about 3000 (budget 2500)')
  })

  it('time: a block expected to take longer than the budget does not start, nor any after it', async () => {
    const {plan, played, guard} = await play(
      {ms: 60_000},
      {forecast: () => ({runs: 1, tokens: 0, cost_usd: 0, ms: 45_000})},
    )
    expect(played).to.deep.equal([])
    expect(guard.notRun(plan)!.blocks).to.have.length(8)
    expect(guard.stopped).to.equal('the next block would bring the time to about 1m30s (budget 1m00s)')
  })

  it('a budget that fits the whole plan leaves nothing out', async () => {
    const {plan, played, guard} = await play({tokens: 8000, ms: 3_600_000})
    expect(played).to.have.length(plan.length)
    expect(guard.notRun(plan)).to.equal(null)
  })
})
