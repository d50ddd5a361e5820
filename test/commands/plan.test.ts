// `ghx-bench plan SUITE` from the command line (in-process): what the suite as written can detect and
// certify, the smallest design for 80% whole-gate power, and the simulation that confirms the suite's
// design; measured from rows when given. Small datasets keep it to seconds.
import {mkdtemp, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import type {PlanResult} from '../../src/app/plan.js'
import {looksFor} from '../../src/app/plan.js'
import {discordanceOf, pairedSuccessPower} from '../../src/report/gate/power.js'
import {DEFAULT_MODEL} from '../../src/report/gate/candidate-model.js'
import {PROJECT_ROOT} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'
import {sharedPath, skipWithoutShared} from '../support/shared.js'

const ROUTER = sharedPath('datasets', 'ghx-router-codex-5.3')

describe('ghx-bench plan (CLI)', () => {
  it('sizes the verify-pr suite as shipped: every reliability check certifiable, 80% whole-gate power, confirmed by simulation with fewer runs under --until-decided', async function () {
    this.timeout(120_000)
    const result = await runCliInProcess(
      ['plan', 'suites/verify-pr.yml', '--datasets', '8', '--resamples', '300', '--json'],
      {cwd: PROJECT_ROOT},
    )
    expect(result.code, result.stderr).to.equal(0)
    const plan = JSON.parse(result.stdout) as Omit<PlanResult, 'markdown'>
    expect(plan).to.deep.include({
      suite: 'verify-pr',
      profile: 'verify_pr',
      estimand: 'suite',
      target: 2,
      design: {scenarios: 6, repetitions: 20},
    })
    expect(plan.measured_from).to.match(/defaults/)
    // The runner pairs the runs, so the success check is the paired test: its noise, the blocks whose two runs differ.
    expect(plan.model.success_discordance).to.equal(
      discordanceOf(DEFAULT_MODEL.baseline_success_pct / 100, DEFAULT_MODEL.success_correlation),
    )
    expect(plan.as_written.checks.reliability_success_rate_non_inferior).to.equal(
      pairedSuccessPower(plan.model.success_discordance, 0.08, 6 * 20, 0.05),
    )
    expect(
      plan.capacity.every((line) => line.certifiable),
      JSON.stringify(plan.capacity),
    ).to.equal(true)
    expect(plan.as_written.power).to.be.above(0.8)
    // What it detects at 80% power lies between the threshold and the target (twice it).
    expect(plan.as_written.detectable.efficiency_tokens_active_reduction).to.be.within(15, 30)
    expect(plan.smallest!.power).to.be.at.least(0.8)
    expect(plan.smallest!.scenarios * plan.smallest!.repetitions).to.be.at.most(6 * 20)
    expect(plan.confirmed).to.deep.include({datasets: 8, looks: [5, 8, 10, 12, 14, 16, 18, 20]})
    expect(plan.confirmed!.sequential_repetitions).to.be.below(20)
  })

  it('says when a suite cannot pass its gate at its size, and measures from a previous run’s rows', async function () {
    this.timeout(120_000)
    skipWithoutShared(this, ROUTER)
    const dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-plan-'))
    const suite = path.join(dir, 'small.yml')
    await writeFile(
      suite,
      '# yaml-language-server: $schema=../schemas/suite.schema.json\nname: small\nscenarios: {ids: [pr-view-001, pr-diff-files-001]}\nmodes: [agent_direct, ghx]\nrepetitions: 5\ngate: {profile: verify_pr, baseline: agent_direct, candidate: ghx}\n',
    )
    const result = await runCliInProcess(['plan', suite, '--datasets', '0', '--input', ROUTER], {cwd: PROJECT_ROOT})
    expect(result.code, result.stderr).to.equal(0)
    expect(result.stdout).to.include('## The suite as written: 2 scenarios × 5 repetitions (10 runs a mode)')
    expect(result.stdout).to.include(
      '- reliability_timeout_stall_rate: exact binomial test of timeouts at most 6%, one-sided 5%: 10 runs cannot pass it (with none, it takes 49 runs) — **cannot pass at this size**',
    )
    // ghx-router's rows: four scenarios that differ by about 0.4 on the log scale.
    expect(result.stdout).to.match(/Model \(the rows given\): .*spread between scenarios 0\.[3-5]\d/)
    expect(result.stdout).to.match(/baseline success \d+\.\d% with \d+\.\d% of blocks differing in success/)
    expect(result.stdout).to.include('## Smallest design for 80% whole-gate power')
    expect(result.stdout).not.to.include('Confirmed by simulation')
  })

  it('plans the looks of --until-decided up to the suite’s repetitions', () => {
    expect(looksFor(20)).to.deep.equal([5, 8, 10, 12, 14, 16, 18, 20])
    expect(looksFor(10)).to.deep.equal([5, 8, 10])
    expect(looksFor(3)).to.deep.equal([3])
  })
})
