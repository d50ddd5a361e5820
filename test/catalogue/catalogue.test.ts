import {readdir, readFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {loadCatalogue, selectScenarios, setMembers} from '../../src/catalogue/catalogue.js'
import {isMutation} from '../../src/catalogue/capabilities.js'
import {loadPlugins} from '../../src/plugins/loader.js'
import {PROJECT_ROOT} from '../support/cli.js'

const suitesDir = path.join(PROJECT_ROOT, 'suites')

describe('the built-in catalogue', () => {
  let catalogue: Awaited<ReturnType<typeof loadCatalogue>>
  before(async () => {
    const registry = await loadPlugins({fromDir: PROJECT_ROOT, plugins: [], origin: 'test'})
    catalogue = await loadCatalogue({root: suitesDir, registry, cwd: PROJECT_ROOT})
  })

  it('has no findings', () => {
    const findings = [...catalogue.diagnostics.values()].flat()
    expect(findings).to.deep.equal([])
  })

  it('every file names its schema on its first line, and the schema exists', async () => {
    const entries = await readdir(suitesDir, {recursive: true, withFileTypes: true})
    const files = entries
      .filter((e) => e.isFile() && e.name.endsWith('.yml'))
      .map((e) => path.join(e.parentPath, e.name))
    expect(files.length).to.be.greaterThan(80)
    for (const file of [...files, path.join(PROJECT_ROOT, '.ghxbenchrc.yml')]) {
      const first = (await readFile(file, 'utf8')).split('\n')[0]!
      const match = /^# yaml-language-server: \$schema=(\S+)$/.exec(first)
      expect(match, file).to.not.equal(null)
      await readFile(path.resolve(path.dirname(file), match![1]!))
    }
  })

  it('holds the 9 predecessor workflow scenarios, 4 code-changing ones and atomic scenarios for at least 40 capabilities in 6 domains', () => {
    const workflows = setMembers(catalogue, 'workflows')
    expect(workflows).to.have.length(9)
    expect(setMembers(catalogue, 'code-changes')).to.have.length(4)
    const atomic = [...catalogue.scenarios.values()].map((s) => s.value).filter((s) => s.type === 'atomic')
    const tasks = new Set(atomic.map((s) => s.task))
    expect(tasks.size).to.be.at.least(40)
    expect(new Set([...tasks].map((t) => t.split('.')[0]))).to.deep.equal(
      new Set(['issue', 'pr', 'workflow', 'release', 'repo', 'project_v2']),
    )
  })

  it('keeps the predecessors’ set names and makes full-seeded select every scenario', () => {
    for (const name of ['default', 'workflows', 'all', 'full-seeded', 'ci-verify-pr', 'ci-verify-release']) {
      expect(catalogue.sets.has(name), name).to.equal(true)
    }
    const full = catalogue.suites.get('full-seeded')!.value
    expect(new Set(selectScenarios(full, catalogue))).to.deep.equal(new Set(catalogue.scenarios.keys()))
  })

  it('the read-only suites select no scenario that changes GitHub', () => {
    for (const name of ['verify-pr', 'verify-release']) {
      for (const id of selectScenarios(catalogue.suites.get(name)!.value, catalogue)) {
        const scenario = catalogue.scenarios.get(id)!.value
        expect(scenario.type === 'atomic' && isMutation(scenario.task), `${name}: ${id}`).to.equal(false)
      }
    }
  })

  it('every workflow checkpoint names a condition, never a bare existence check alone', () => {
    for (const id of [...setMembers(catalogue, 'workflows'), ...setMembers(catalogue, 'code-changes')]) {
      const scenario = catalogue.scenarios.get(id)!.value
      if (scenario.type !== 'workflow') throw new Error(`${id} is not a workflow scenario`)
      const types = scenario.assertions.checkpoints.map((c) => c.condition.type)
      expect(
        types.some((t) => t !== 'non_empty'),
        id,
      ).to.equal(true)
    }
  })

  it('the profiles carry the predecessors’ thresholds and per-model overrides', () => {
    const pr = catalogue.profiles.get('verify_pr')!.value
    expect(pr.thresholds.min_tokens_active_reduction_pct).to.equal(15)
    expect(pr.overrides?.['openai/gpt-5.1-codex-mini']?.thresholds?.min_tokens_active_reduction_pct).to.equal(10)
    // Reliability limits are sized for the verify-pr suite (issue 42): the overrides inherit them, and the estimand is explicit.
    expect(pr.thresholds.max_success_rate_drop_pct).to.equal(8)
    expect(pr.overrides?.['openai/gpt-5.1-codex-mini']?.thresholds?.max_success_rate_drop_pct).to.equal(undefined)
    expect(pr.estimand).to.equal('suite')
    expect(catalogue.profiles.get('verify_release')!.value.estimand).to.equal('population')
    const release = catalogue.profiles.get('verify_release')!.value
    expect(release.thresholds.min_tool_call_reduction_pct).to.equal(30)
    // verify_release keeps the predecessors' reliability limits (issue 42).
    expect(release.thresholds).to.deep.include({
      max_success_rate_drop_pct: 3,
      min_output_validity_rate_pct: 97,
      max_runner_failure_rate_pct: 5,
      max_timeout_stall_rate_pct: 2,
    })
    // min_samples 3 throughout: decision ci's floor, with room for two failed runs in the suites' 5 repetitions.
    expect(release.overrides?.['openai/gpt-5.3-codex']?.min_samples).to.equal(3)
  })
})
