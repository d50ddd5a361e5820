// The rows against their run's plan (run.json's key) and against themselves: what is missing is named,
// what a budget left out or a scenario declared not applicable is not, and rows with no plan are
// checked across modes and providers only.
import {expect} from 'chai'
import {addRow, emptyAggregate, type ProviderAggregates} from '../../../src/report/aggregate/aggregate.js'
import {completenessOf, RunsSeen} from '../../../src/report/aggregate/completeness.js'
import type {RunInfo} from '../../../src/results/run-info.js'
import type {Row} from '../../../src/results/row-schema.js'
import {makeRow} from '../../support/rows.js'
import {header} from '../../support/shard-files.js'

const SCENARIOS = ['a-001', 'b-001']
const MODES = ['agent_direct', 'ghx']

function rows(repetitions: number, providers = ['agent-loop']): Row[] {
  return providers.flatMap((provider) =>
    SCENARIOS.flatMap((scenario_id) =>
      Array.from({length: repetitions}, (_, i) =>
        MODES.map((mode) => makeRow({run_id: 'r', provider, scenario_id, mode, iteration: i + 1})),
      ).flat(),
    ),
  )
}

function plan(repetitions: number, extra: Partial<RunInfo> = {}, providers = ['agent-loop']): RunInfo {
  const key = {...header(1, 1).key, scenarios: SCENARIOS, repetitions, providers}
  key.modes = Object.fromEntries(MODES.map((m) => [m, {tools: {}, options_sha256: 'x'}]))
  return {run_id: 'r', suite: 's', seed: 1, modes: MODES, unavailable: [], not_applicable: [], key, ...extra}
}

/** Both ways a report reads the rows: aggregated, and row by row. */
function seenBothWays(given: Row[]): RunsSeen[] {
  const providers: ProviderAggregates = new Map()
  for (const row of given) {
    if (!providers.has(row.provider)) providers.set(row.provider, emptyAggregate())
    addRow(providers.get(row.provider)!, row)
  }
  const byRow = new RunsSeen()
  for (const row of given) byRow.add(row)
  return [RunsSeen.ofAggregates(providers), byRow]
}

describe('completeness: rows against their plan', () => {
  it('a whole run is complete; each missing run is named, the count given past six', () => {
    for (const seen of seenBothWays(rows(3)))
      expect(completenessOf(seen, [plan(3)])).to.deep.equal({
        incomplete: null,
        planUnknown: null,
        beyondPlan: null,
      })
    const cut = rows(3).filter((row) => !(row.mode === 'ghx' && row.scenario_id === 'b-001'))
    for (const seen of seenBothWays(cut))
      expect(completenessOf(seen, [plan(3)]).incomplete).to.equal(
        'incomplete: run r lacks 3 of its 12 planned runs (b-001/1 ghx, b-001/2 ghx, b-001/3 ghx): the run is incomplete: complete it with `ghx-bench run <suite s> --run-id r` and the flags it was started with (recorded runs are skipped)',
      )
    for (const seen of seenBothWays(rows(1)))
      expect(completenessOf(seen, [plan(5)]).incomplete).to.match(
        /lacks 16 of its 20 planned runs \(a-001\/2 agent_direct, a-001\/2 ghx, a-001\/3 agent_direct, a-001\/3 ghx, a-001\/4 agent_direct, a-001\/4 ghx, … \(16 in all\)\)/,
      )
  })

  it('leaves out what the plan leaves out: not applicable pairs, blocks a budget did not run; a provider missing is missing', () => {
    const [seen] = seenBothWays(rows(2).filter((row) => !(row.mode === 'ghx' && row.scenario_id === 'a-001')))
    const notApplicable = plan(2, {not_applicable: [{scenario_id: 'a-001', mode: 'ghx', reason: 'no capability'}]})
    expect(completenessOf(seen!, [notApplicable]).incomplete).to.equal(null)
    const [budgeted] = seenBothWays(rows(2).filter((row) => row.iteration === 1))
    const notRun = plan(2, {
      not_run: {reason: 'budget', budget: 'runs=4', detail: 'x', planned_blocks: 4, blocks: ['a-001/2', 'b-001/2']},
    })
    expect(completenessOf(budgeted!, [notRun]).incomplete).to.equal(null)
    const [oneProvider] = seenBothWays(rows(1, ['agent-loop']))
    expect(completenessOf(oneProvider!, [plan(1, {}, ['agent-loop', 'claude-code'])]).incomplete).to.include(
      'lacks 4 of its 8 planned runs (a-001/1 agent_direct (claude-code), a-001/1 ghx (claude-code)',
    )
  })

  it('names a shard and the merge, and an interrupted run with its resume', () => {
    const [seen] = seenBothWays(rows(1))
    expect(completenessOf(seen!, [plan(2, {shard: {index: 1, count: 2}})]).incomplete).to.match(
      /: this is shard 1\/2 of run r: judge the run, not a shard, with `ghx-bench merge` of every shard's results$/,
    )
    expect(
      completenessOf(seen!, [plan(2, {suite_file: 'suites/x.yml', stopped: {reason: 'interrupted', detail: 'Ctrl-C'}})])
        .incomplete,
    ).to.match(
      /the run is incomplete \(it was interrupted\): complete it with `ghx-bench run suites\/x.yml --run-id r`/,
    )
  })

  it('with no plan: complete across modes and providers, or naming the block a mode lacks; the plan said unknown', () => {
    const [whole] = seenBothWays(rows(2, ['agent-loop', 'codex']))
    expect(completenessOf(whole!, [])).to.deep.equal({
      incomplete: null,
      planUnknown:
        'the plan of run r is unknown (no run.json with its plan beside the rows): completeness was checked across modes only',
      beyondPlan: null,
    })
    const [cut] = seenBothWays(
      rows(2, ['agent-loop', 'codex']).filter(
        (row) => !(row.provider === 'codex' && row.iteration === 2 && row.mode === 'ghx'),
      ),
    )
    expect(completenessOf(cut!, []).incomplete).to.equal(
      'incomplete: run r lacks 2 run(s) that its other modes or providers have (a-001/2 ghx (codex), b-001/2 ghx (codex)): the run is incomplete: complete it with `ghx-bench run <suite> --run-id r` and the flags it was started with (recorded runs are skipped)',
    )
  })

  it('says rows of scenarios or modes outside the plan, without counting them missing', () => {
    const [seen] = seenBothWays([...rows(1), makeRow({run_id: 'r', scenario_id: 'z-001', mode: 'mcp', iteration: 1})])
    expect(completenessOf(seen!, [plan(1)])).to.deep.include({
      incomplete: null,
      beyondPlan: 'run r: rows of scenario z-001, mode mcp that its plan (run.json) does not have',
    })
  })
})
