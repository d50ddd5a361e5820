// What a verdict could detect (issue 42): each check's regression caught with 80% power at the run's
// size, and the PASS that could not see a doubling of the baseline's failures, in every output.
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {addRow, emptyAggregate} from '../../../src/report/aggregate/aggregate.js'
import {compareModes} from '../../../src/report/aggregate/compare.js'
import {gateSchema, type GateDocument} from '../../../src/report/aggregate/report-schema.js'
import {buildReport, summarizeFailures} from '../../../src/report/aggregate/summary.js'
import {
  detectableRate,
  pairingCorrelation,
  pointCutoff,
  rateDetectable,
  successDetectable,
  successPassChance,
  unseenDoubling,
  type SuccessDesign,
} from '../../../src/report/gate/detectable.js'
import {EXIT_CODES, evaluateGate} from '../../../src/report/gate/gate.js'
import {correlationOfDiscordance, discordanceOf} from '../../../src/report/gate/power.js'
import {judgeRateAtLook, judgeSuccessDrop, rateLimits} from '../../../src/report/gate/reliability-rules.js'
import {DEFAULT_MODEL} from '../../../src/report/gate/candidate-model.js'
import {verdictOf} from '../../../src/report/gate/verdict.js'
import {renderHtmlReport} from '../../../src/report/render/html.js'
import {renderJson} from '../../../src/report/render/json.js'
import {renderJunit} from '../../../src/report/render/junit.js'
import {renderGateMarkdown, renderGateTable} from '../../../src/report/render/markdown.js'
import type {Row} from '../../../src/results/row-schema.js'
import type {Thresholds} from '../../../src/schemas/profile.js'
import {compileSchema} from '../../../src/shared/schema-validator.js'
import {binomialLogPmf, binomialLowerTail, sizedRule} from '../../../src/stats/binomial.js'
import {makeProject} from '../../support/cli.js'
import {runCliInProcess} from '../../support/cli-in-process.js'
import {makeRow} from '../../support/rows.js'

/** The verify-pr suite's size with issue 42's example: 120 pairs at 95% baseline success, a 12-point margin. */
const DESIGN: SuccessDesign = {
  baseline: 0.95,
  candidateRuns: 120,
  baselineRuns: 120,
  paired: {pairs: 120, pass_to_fail: 0, fail_to_pass: 0},
  margin: 0.12,
  alpha: 0.05,
}

const THRESHOLDS: Thresholds = {
  max_success_rate_drop_pct: 12,
  min_output_validity_rate_pct: 93,
  max_runner_failure_rate_pct: 8,
  max_timeout_stall_rate_pct: 6,
  max_retry_rate_pct: 10,
  min_efficiency_coverage_pct: 80,
  min_tokens_active_reduction_pct: 15,
  min_latency_reduction_pct: 15,
  min_tool_call_reduction_pct: 20,
  min_cost_reduction_pct: 10,
}

const SCENARIOS = ['a-001', 'b-001', 'c-001', 'd-001', 'e-001', 'f-001']

/**
 * 6 scenarios x 20 iterations of agent_direct and ghx, paired by block: each mode fails 6 of its 120 runs
 * (95% success), both in 3 blocks, each alone in 3; ghx spends half the tokens, time and calls.
 */
function pairedRows(): Row[] {
  const bothFail = new Set(['a-001#1', 'b-001#2', 'c-001#3'])
  const baselineFails = new Set([...bothFail, 'd-001#4', 'e-001#5', 'f-001#6'])
  const candidateFails = new Set([...bothFail, 'd-001#7', 'e-001#8', 'f-001#9'])
  return SCENARIOS.flatMap((scenario) =>
    Array.from({length: 20}, (_, n) => {
      const block = `${scenario}#${n + 1}`
      const run = (mode: string, fails: boolean, scale: number) =>
        makeRow({
          scenario_id: scenario,
          mode,
          iteration: n + 1,
          // A failed run keeps a valid output: only the success check sees it.
          ...(fails ? {success: false, outcome: 'fail' as const, output_valid: true} : {}),
          activeTokens: Math.round(scale * (1000 + 7 * n)),
          latency_ms_agent: Math.round(scale * (9000 + 50 * n)),
          latency_ms_wall: Math.round(scale * (10_000 + 50 * n)),
          tool_calls: {total: scale === 1 ? 10 + (n % 3) : 4 + (n % 2), failed: 0},
        })
      return [run('agent_direct', baselineFails.has(block), 1), run('ghx', candidateFails.has(block), 0.5)]
    }).flat(),
  )
}

/** The gate document of `rows`, as computeGate builds it (its checks with what they could detect). */
function gateOf(rows: Row[], thresholds: Thresholds): GateDocument {
  const aggregate = emptyAggregate()
  for (const row of rows) addRow(aggregate, row)
  const comparison = compareModes(aggregate, {
    baseline: 'agent_direct',
    candidate: 'ghx',
    minSamples: 3,
    seed: 1,
    resamples: 300,
    estimand: 'suite',
  })
  const {checks, verdict} = evaluateGate(
    comparison,
    {profile: 'wide_margin', decision: 'ci', estimand: 'suite', min_samples: 3, thresholds, override: null},
    undefined,
    {detectable: true},
  )
  return {
    schema_version: 1,
    generated_at: '2026-12-01T00:00:00.000Z',
    inputs: ['results/run-1.jsonl'],
    run_ids: ['run-1'],
    rows: aggregate.rows,
    warnings: [],
    bootstrap: {seed: 1, resamples: 300},
    profile: 'wide_margin',
    model: null,
    override: null,
    decision: 'ci',
    estimand: 'suite',
    min_samples: 3,
    confidence: 0.95,
    thresholds,
    baseline: 'agent_direct',
    candidate: 'ghx',
    checks,
    verdict,
    unseen_doubling: unseenDoubling(verdict, checks),
    exit_code: EXIT_CODES[verdict],
    comparison,
    trace_root: 'results',
    failures: summarizeFailures(aggregate, ['agent_direct', 'ghx']),
  }
}

const GATE = gateOf(pairedRows(), THRESHOLDS)
const check = (gate: GateDocument, name: string) => gate.checks.find((c) => c.name === name)!

describe('what a verdict could detect (issue 42)', () => {
  describe('the success drop', () => {
    it('reproduces issue 42’s sanity values: at 120 pairs (95%, ρ 0.3) a doubling of failures passes a 12-point margin 63% of the time', () => {
      expect(successPassChance(DESIGN, 0.05, 0.3)).to.be.closeTo(0.63, 0.005)
      const eight = {...DESIGN, margin: 0.08}
      expect(successPassChance(eight, 0, 0.3)).to.be.closeTo(0.845, 0.005)
      expect(successPassChance(eight, 0.05, 0.3)).to.be.closeTo(0.217, 0.005)
    })

    it('is the drop the test passes 20% of the time, read with the pairing the run’s own discordant pairs show', () => {
      const discordant = Math.round(120 * discordanceOf(0.95, 0.3))
      const pairs = {pairs: 120, pass_to_fail: discordant / 2, fail_to_pass: discordant / 2}
      const design = {...DESIGN, paired: pairs}
      const {correlation, measured} = pairingCorrelation(0.95, pairs)
      expect(measured).to.equal(true)
      expect(correlation).to.equal(correlationOfDiscordance(0.95, discordant / 120))
      const detectable = successDetectable(design)!
      expect(successPassChance(design, detectable.value! / 100, correlation)).to.be.closeTo(0.2, 1e-4)
      expect(detectable.text).to.match(
        new RegExp(
          `^at 120 pairs this run detects a success drop of ${detectable.value!.toFixed(1)} points or more \\(80% power; baseline 95\\.0% success, pairing correlation ${correlation.toFixed(2)} from its ${discordant} discordant pairs\\)$`,
        ),
      )
      // A doubling of the failures (95% -> 90%) is a drop of 5 points: more than 20% pass, so it is not detectable.
      expect(detectable.value).to.be.above(5)
      expect(detectable.doubling).to.deep.include({baseline_success_pct: 95})
      expect(detectable.doubling!.candidate_success_pct).to.be.closeTo(90, 1e-9)
      expect(detectable.doubling!.pass_chance).to.equal(successPassChance(design, 0.05, correlation))
      expect(detectable.doubling!.text).to.equal(
        `at 120 pairs a drop from 95.0% to 90.0% success passes ${Math.round(100 * detectable.doubling!.pass_chance)}% of the time`,
      )
    })

    it('with no discordant pair reads the pairing as the simulator’s default', () => {
      expect(pairingCorrelation(0.95, DESIGN.paired!)).to.deep.equal({
        correlation: DEFAULT_MODEL.success_correlation,
        measured: false,
      })
      const detectable = successDetectable(DESIGN)!
      expect(successPassChance(DESIGN, detectable.value! / 100, DEFAULT_MODEL.success_correlation)).to.be.closeTo(
        0.2,
        1e-4,
      )
      expect(detectable.text).to.include('assumed, the simulator’s default, as no pair is discordant')
    })

    it('unpaired: the normal approximation of Newcombe’s test is within a few points of the test itself, enumerated', () => {
      const design: SuccessDesign = {...DESIGN, paired: null}
      const detectable = successDetectable(design)!
      expect(detectable.text).to.include('at 120 runs a mode this run detects a success drop of')
      expect(detectable.text).to.include('not paired: Newcombe’s test by the normal approximation')
      const candidate = design.baseline - detectable.value! / 100
      expect(successPassChance(design, detectable.value! / 100, 0)).to.be.closeTo(0.2, 1e-4)
      // The real test's chance of passing there, over every outcome of two independent binomials.
      let exact = 0
      for (let c = 0; c <= 120; c++) {
        const pc = Math.exp(binomialLogPmf(120, c, candidate))
        if (pc < 1e-12) continue
        for (let b = 0; b <= 120; b++) {
          const pb = Math.exp(binomialLogPmf(120, b, design.baseline))
          if (pb < 1e-12) continue
          const outcome = judgeSuccessDrop(
            {candidate: c, candidateRuns: 120, baseline: b, baselineRuns: 120, paired: null},
            12,
            0.05,
            (v) => v >= -12,
          )
          if (outcome.verdict === 'pass') exact += pc * pb
        }
      }
      expect(exact).to.be.closeTo(0.2, 0.05)
    })

    it('under decision point the point difference decides (z = 0); a look without a threshold cannot pass', () => {
      const point = successDetectable({...DESIGN, alpha: 0.5})!
      expect(point.text).to.include('decision point: the point difference decides')
      // With no z to clear, a smaller drop is caught less: the detectable drop is larger.
      expect(point.value).to.be.above(successDetectable(DESIGN)!.value!)
      const never = successDetectable({...DESIGN, alpha: 0})!
      expect(never.value).to.equal(0)
      expect(never.text).to.include('cannot pass the success check at all')
    })
  })

  describe('the rates', () => {
    it('is the true rate the sized rule passes 20% of the time, exactly', () => {
      const limit = rateLimits(THRESHOLDS).reliability_timeout_stall_rate!
      const cutoffs = sizedRule(120, limit.limit, 0.05)
      const rate = detectableRate(cutoffs.pass_max, 120)
      expect(binomialLowerTail(cutoffs.pass_max, 120, rate)).to.be.closeTo(0.2, 1e-5)
      const detectable = rateDetectable(limit, 120, cutoffs, 'fixed', 0.05)!
      expect(detectable.value).to.be.closeTo(100 * rate, 1e-9)
      expect(detectable.text).to.equal(
        `at 120 runs this run detects a rate of timeouts of ${(100 * rate).toFixed(1)}% or more (80% power)`,
      )
    })

    it('output validity is caught below a validity %, from its share of invalid outputs', () => {
      const limit = rateLimits(THRESHOLDS).reliability_output_validity!
      const cutoffs = sizedRule(120, limit.limit, 0.05)
      const rate = detectableRate(cutoffs.pass_max, 120)
      const detectable = rateDetectable(limit, 120, cutoffs, 'fixed', 0.05)!
      expect(detectable.value).to.be.closeTo(100 * (1 - rate), 1e-9)
      expect(detectable.text).to.equal(
        `at 120 runs this run detects an output validity of ${(100 * (1 - rate)).toFixed(1)}% or less (invalid outputs ${(100 * rate).toFixed(1)}% or more; 80% power)`,
      )
    })

    it('says when no count of the runs can pass the check at all', () => {
      const limit = {events: 'timeouts', limit: 0.02, complement: false}
      const cutoffs = sizedRule(40, 0.02, 0.05)
      expect(cutoffs.pass_max).to.be.below(0)
      expect(rateDetectable(limit, 40, cutoffs, 'fixed', 0.05)).to.deep.equal({
        value: 0,
        text: 'at 40 runs this check cannot pass at all: no count of 40 runs certifies timeouts at most 2.0% (with none, it takes 149 runs)',
      })
    })

    it('under decision point: the most events whose rate still clears the threshold', () => {
      const limit = rateLimits(THRESHOLDS).reliability_timeout_stall_rate!
      const clears = (v: number) => v <= 6
      const most = pointCutoff(limit, 120, clears)
      expect(clears((100 * most) / 120)).to.equal(true)
      expect(clears((100 * (most + 1)) / 120)).to.equal(false)
      expect(rateDetectable(limit, 120, {pass_max: most}, 'point', 0.05)!.text).to.include(
        'decision point: the point rate decides',
      )
    })

    it('at a look of run --until-decided reads the look’s exact group-sequential rule', () => {
      const look = {looks: [5, 8, 10, 12, 14, 16, 18, 20], index: 2, spending: 'power' as const}
      const gate = evaluateGate(
        GATE.comparison,
        {profile: 'p', decision: 'ci', estimand: 'suite', min_samples: 3, thresholds: THRESHOLDS, override: null},
        look,
        {detectable: true},
      )
      const timeouts = check({...GATE, checks: gate.checks}, 'reliability_timeout_stall_rate')
      const limit = rateLimits(THRESHOLDS).reliability_timeout_stall_rate!
      const cutoffs = judgeRateAtLook(limit, 0, 120, look).cutoffs!
      expect(timeouts.detectable).to.deep.equal(rateDetectable(limit, 120, cutoffs, 'look', 0.05))
      expect(timeouts.detectable!.text).to.include('this look’s exact group-sequential rule')
      expect(
        check({...GATE, checks: gate.checks}, 'reliability_success_rate_non_inferior').detectable!.text,
      ).to.include('this look’s exact group-sequential rule')
    })
  })

  describe('on the gate', () => {
    it('every reliability check says what it could detect, a reduction too; coverage (a count) does not', () => {
      for (const c of GATE.checks.filter((c) => c.group === 'reliability'))
        expect(c.detectable?.text, c.name).to.match(/^at 120 (pairs|runs) this (run|check) /)
      const tokens = check(GATE, 'efficiency_tokens_active_reduction')
      expect(tokens.detectable!.value).to.be.closeTo(tokens.threshold + tokens.mde!, 1e-9)
      expect(check(GATE, 'efficiency_coverage').detectable).to.equal(null)
      // Only the gate's documents ask for it (the simulator judges thousands of gates).
      const plain = evaluateGate(GATE.comparison, {
        profile: 'p',
        decision: 'ci',
        min_samples: 3,
        thresholds: THRESHOLDS,
        override: null,
      })
      expect(plain.checks.every((c) => c.detectable === undefined)).to.equal(true)
    })

    it('a PASS that cannot see a doubling of the baseline’s failures says so; a size that can, or a verdict not PASS, says nothing', () => {
      expect(GATE.verdict).to.equal('pass')
      const doubling = check(GATE, 'reliability_success_rate_non_inferior').detectable!.doubling!
      expect(doubling.pass_chance).to.be.above(0.2)
      expect(GATE.unseen_doubling).to.equal(`This PASS could not see a doubling of failures: ${doubling.text}.`)
      expect(GATE.unseen_doubling).to.match(
        /^This PASS could not see a doubling of failures: at 120 pairs a drop from 95\.0% to 90\.0% success passes \d+% of the time\.$/,
      )
      expect(unseenDoubling('fail', GATE.checks)).to.equal(null)
      // Ten times the pairs and a 3-point margin see it.
      const many = successDetectable({
        ...DESIGN,
        margin: 0.03,
        paired: {pairs: 1200, pass_to_fail: 30, fail_to_pass: 30},
      })!
      expect(many.doubling!.pass_chance).to.be.at.most(0.2)
      expect(many.value).to.be.below(5)
      const seen = GATE.checks.map((c) =>
        c.name === 'reliability_success_rate_non_inferior' ? {...c, detectable: many} : c,
      )
      expect(unseenDoubling('pass', seen)).to.equal(null)
    })
  })

  describe('in every output', () => {
    const timeouts = check(GATE, 'reliability_timeout_stall_rate').detectable!.text

    it('gate.json: the field and the sentence, valid against the gate schema', () => {
      const json = renderJson(GATE)
      const parsed = JSON.parse(json) as GateDocument
      const validate = compileSchema(gateSchema)
      expect(validate(parsed), JSON.stringify(validate.errors)).to.equal(true)
      expect(check(parsed, 'reliability_timeout_stall_rate').detectable!.text).to.equal(timeouts)
      expect(parsed.unseen_doubling).to.equal(GATE.unseen_doubling)
    })

    it('gate.md: a section of what each check could detect, and the sentence under the headline', () => {
      const markdown = renderGateMarkdown(GATE)
      expect(markdown).to.include('## What this run could detect')
      expect(markdown).to.include(`- \`reliability_timeout_stall_rate\`: ${timeouts}`)
      expect(markdown).to.include(`**${GATE.unseen_doubling}**`)
      expect(markdown.indexOf(GATE.unseen_doubling!)).to.be.below(markdown.indexOf('| check |'))
    })

    it('the terminal summary of gate and run: under each reliability check, and a WARNING line', () => {
      const table = renderGateTable(GATE)
      const lines = table.split('\n')
      const at = lines.findIndex((line) => line.includes('reliability_timeout_stall_rate'))
      expect(lines[at + 1]).to.equal(`${' '.repeat(13)}${timeouts}`)
      expect(table).to.match(new RegExp(`^WARNING +${GATE.unseen_doubling!.replace(/[.()]/g, '\\$&')}$`, 'm'))
    })

    it('summary.html: a column of the gate’s table, and the sentence under its banner', () => {
      const aggregate = emptyAggregate()
      for (const row of pairedRows()) addRow(aggregate, row)
      const html = renderHtmlReport({
        report: buildReport(aggregate, {
          inputs: ['results/run-1.jsonl'],
          warnings: [],
          baseline: 'agent_direct',
          seed: 1,
          resamples: 200,
        }),
        gate: GATE,
        verdict: null,
        distributions: [],
        deltas: [],
        runs: '',
        traces: {traces: {}, embedded: 0, linked: 0, bytes: 0, budget: {maxBytes: 0, maxTraces: 0}} as never,
      })
      expect(html).to.include('<th>detects (80% power)</th>')
      expect(html).to.include(`<td>${timeouts}</td>`)
      expect(html).to.include(`<div class="banner inconclusive">${GATE.unseen_doubling}</div>`)
    })

    it('junit.xml: each gate check’s <system-out>, the sentence the gate suite’s', () => {
      const aggregate = emptyAggregate()
      for (const row of pairedRows()) addRow(aggregate, row)
      const report = buildReport(aggregate, {
        inputs: ['results/run-1.jsonl'],
        warnings: [],
        baseline: 'agent_direct',
        seed: 1,
        resamples: 200,
      })
      const xml = renderJunit(report, {verdict: verdictOf({gate: GATE, gateUncomputable: null, report}), gate: GATE})
      expect(xml).to.include(
        `<testcase name="reliability_timeout_stall_rate" classname="gate" time="0.000">\n      <system-out>${timeouts}</system-out>\n    </testcase>`,
      )
      expect(xml).to.include(`    <system-out>${GATE.unseen_doubling}</system-out>\n  </testsuite>`)
    })

    it('the gate command: gate.json, gate.md and its terminal summary, from the rows (CLI)', async function () {
      this.timeout(120_000)
      const dir = await makeProject({
        '.ghxbenchrc.yml': 'suites_dir: suites\n',
        'suites/profiles/wide_margin.yml': `name: wide_margin\ndecision: ci\nestimand: suite\nmin_samples: 3\nthresholds:\n${Object.entries(
          THRESHOLDS,
        )
          .map(([key, value]) => `  ${key}: ${value}`)
          .join('\n')}\n`,
        'rows.jsonl': pairedRows()
          .map((row) => JSON.stringify(row))
          .join('\n'),
      })
      const result = await runCliInProcess(
        ['gate', '--input', 'rows.jsonl', '--candidate', 'ghx', '--profile', 'wide_margin', '--out', 'out'],
        {cwd: dir},
      )
      expect(result.code, result.stdout + result.stderr).to.equal(0)
      const gate = JSON.parse(await readFile(path.join(dir, 'out', 'gate.json'), 'utf8')) as GateDocument
      const sentence = gate.unseen_doubling!
      expect(sentence).to.match(/^This PASS could not see a doubling of failures: at 120 pairs a drop from 95\.0%/)
      expect(result.stdout).to.include(`WARNING      ${sentence}`)
      expect(result.stdout).to.include(check(gate, 'reliability_success_rate_non_inferior').detectable!.text)
      expect(await readFile(path.join(dir, 'out', 'gate.md'), 'utf8')).to.include(`**${sentence}**`)
    })
  })
})
