import path from 'node:path'
import {expect} from 'chai'
import {readFileSync} from 'node:fs'
import {fromGhxRouter, routerFacts} from '../../src/results/importers.js'
import {factsOfRow} from '../../src/results/row-facts.js'
import type {Row} from '../../src/results/row-schema.js'
import {readRows, resolveInputFiles} from '../../src/results/sources.js'
import {isRow, type ReadWarning} from '../../src/results/store.js'
import {sharedPath, skipWithoutShared} from '../support/shared.js'

const DATASETS = sharedPath('datasets')

async function importAll(inputs: string[]): Promise<{rows: Row[]; warnings: ReadWarning[]}> {
  const warnings: ReadWarning[] = []
  const files = await resolveInputFiles({inputs, resultsDir: '/nonexistent'})
  const rows: Row[] = []
  for await (const row of readRows(files, (w) => warnings.push(w))) rows.push(row)
  return {rows, warnings}
}

const find = (rows: Row[], mode: string, scenario: string, iteration: number) =>
  rows.find((r) => r.mode === mode && r.scenario_id === scenario && r.iteration === iteration)!

describe('importers', () => {
  before(function () {
    skipWithoutShared(this, DATASETS)
  })

  it('imports every ghx-router row, valid against the row schema, with tokens as they were and active = total - cache_read', async () => {
    const {rows} = await importAll([path.join(DATASETS, 'ghx-router-codex-5.3')])
    expect(rows).to.have.length(40)
    expect(rows.filter((r) => r.mode === 'agent_direct')).to.have.length(20)
    expect(rows.filter((r) => r.mode === 'ghx')).to.have.length(20)
    expect(rows.every(isRow)).to.equal(true)
    const outlier = find(rows, 'agent_direct', 'pr-review-comment-wf-001', 1)
    expect(outlier.tokens).to.deep.equal({
      input: 24680 - outlier.tokens.output - outlier.tokens.reasoning,
      output: outlier.tokens.output,
      reasoning: outlier.tokens.reasoning,
      cache_read: 0,
      cache_write: 0,
      total: 24680,
      active: 24680,
    })
    expect(outlier).to.include({
      latency_ms_wall: 88831,
      outcome: 'pass',
      model: 'openai/gpt-5.3-codex',
      provider: 'opencode',
      scenario_type: 'workflow',
    })
    expect(outlier.tool_calls).to.deep.equal({total: 10, failed: null})
    expect(outlier.extra).to.include.keys(
      'session_id',
      'sdk_latency_ms',
      'timing_breakdown',
      'api_calls',
      'internal_retry_count',
    )
    expect((outlier.extra as {source_format: string}).source_format).to.equal('ghx-router')
  })

  it('imports ghx eval results.json: baseline is agent_direct, iterations become 1-based, nothing is dropped', async () => {
    const {rows} = await importAll([path.join(DATASETS, 'ghx-eval-2026-03', 'results.json')])
    expect(rows).to.have.length(30)
    expect(new Set(rows.map((r) => r.mode))).to.deep.equal(new Set(['agent_direct', 'mcp', 'ghx']))
    expect(new Set(rows.map((r) => r.iteration))).to.deep.equal(new Set([1, 2, 3, 4, 5]))
    const first = find(rows, 'agent_direct', 'pr-reply-threads-wf-001', 1)
    expect(first.tokens).to.deep.equal({
      input: 22444,
      output: 1935,
      reasoning: 854,
      cache_read: 75776,
      cache_write: 0,
      total: 101009,
      active: 25233,
    })
    expect(first.latency_ms_agent).to.equal(69343)
    expect(first.checkpoints).to.have.length(4)
    expect(first.tool_calls).to.deep.equal({total: 8, failed: 0, by_category: {gh_cli: 8}})
    expect(first.extra).to.include({
      source_format: 'ghx-eval',
      iteration_zero_based: 0,
      sessionId: 'ses_34b702690ffe01F5FSZ1Wjx2mY',
      agentTurns: 5,
    })
    const timedOut = find(rows, 'agent_direct', 'pr-review-comment-001', 4)
    expect(timedOut).to.include({outcome: 'timeout', success: false})
    expect(timedOut.error).to.deep.equal({type: 'runner_error', message: 'Prompt timed out after 120000ms'})
  })

  it('imports ghx eval results.csv to the same figures', async () => {
    const {rows} = await importAll([path.join(DATASETS, 'ghx-eval-2026-03', 'results.csv')])
    expect(rows).to.have.length(30)
    const first = find(rows, 'agent_direct', 'pr-reply-threads-wf-001', 1)
    expect(first.tokens.active).to.equal(25233)
    expect(first.started_at).to.equal(null)
    expect(find(rows, 'ghx', 'pr-review-comment-001', 4).tokens.active).to.equal(4103)
  })

  it('counts a row found in both results.json and results.csv once, keeping the richer JSON copy', async () => {
    const {rows, warnings} = await importAll([path.join(DATASETS, 'ghx-eval-2026-03')])
    expect(rows).to.have.length(30)
    expect(rows.every((r) => r.checkpoints.length > 0 || r.outcome !== 'pass')).to.equal(true)
    expect(warnings.map((w) => w.message)).to.deep.equal([
      '30 row(s) already read from another input (same run, scenario, mode, provider, iteration) were counted once',
    ])
  })

  it('reads a ghx-router row’s figures straight from it, as the normalized row has them', () => {
    const dataset = path.join(DATASETS, 'ghx-router-codex-5.3')
    const raw = ['agent_direct', 'ghx'].flatMap((mode) =>
      readFileSync(path.join(dataset, `2026-02-25-${mode}-suite.jsonl`), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    )
    // Failures of both kinds, a row without an agent time, a model without a provider.
    const first = raw[0]!
    const variants: Array<Record<string, unknown>> = [
      ...raw,
      {
        ...first,
        success: false,
        output_valid: false,
        error: {type: 'runner_error', message: 'Timed out waiting for assistant message'},
      },
      {...first, success: false, error: {type: 'runner_error', message: 'session create failed'}},
      {
        ...first,
        success: false,
        error: {type: 'checkpoint_failed', message: 'Workflow checkpoint verification failed: x'},
      },
      {
        ...first,
        mode: 'baseline',
        latency_ms_agent: undefined,
        model: {provider_id: null, model_id: 'gpt-5', mode: null},
      },
    ]
    for (const source of variants) expect(routerFacts(source)).to.deep.equal(factsOfRow(fromGhxRouter(source)))
    expect(routerFacts(variants.at(-1)!)).to.include({mode: 'agent_direct', latency_ms_agent: null, model: 'gpt-5'})
    expect(routerFacts(variants.at(-4)!)).to.include({outcome: 'timeout'})
    expect(routerFacts(variants.at(-3)!)).to.include({outcome: 'infra_error'})
  })
})
