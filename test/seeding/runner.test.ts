// Runs on the sandbox target each start in a world of their own, forked from the state the suite's fixtures
// were seeded in: what one run leaves never reaches the next. A sub-issue set by one iteration does not make
// the next fail with 422 "duplicate sub-issues", and a submitted review on a fixture that is reset instead
// of seeded per iteration (state no reset can undo: on live GitHub the next run is a fixture_error naming
// it, test/seeding/digest.e2e.test.ts) is not there for the next iteration either.
import {readdir, readFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import type {Row} from '../../src/results/row-schema.js'
import {makeProject, PROJECT_ROOT} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'

const SCENARIOS = path.join(PROJECT_ROOT, 'suites', 'scenarios')

async function rowsOf(dir: string): Promise<Row[]> {
  const results = path.join(dir, 'results')
  const rows: Row[] = []
  for (const file of (await readdir(results)).filter((f) => f.endsWith('.jsonl'))) {
    for (const line of (await readFile(path.join(results, file), 'utf8')).split('\n').filter(Boolean))
      rows.push(JSON.parse(line) as Row)
  }
  return rows
}

describe('fixture verification in runs (CLI, sandbox target)', function () {
  this.timeout(180_000)

  it('passes every iteration, also of a scenario whose changes no reset could undo: each run starts as seeded', async () => {
    const leaky = (await readFile(path.join(SCENARIOS, 'pr-reviews-submit-001.yml'), 'utf8'))
      .replace('id: pr-reviews-submit-001', 'id: pr-reviews-leak-001')
      .replace('seed_per_iteration: true', 'reseed_per_iteration: true')
    expect(leaky).to.include('reseed_per_iteration: true')
    const dir = await makeProject({
      '.ghxbenchrc.yml': [
        'target: sandbox',
        'model: oracle',
        'suites_dir: catalogue',
        'results_dir: results',
        'reports_dir: reports',
        'fixtures: {repo: ghx-bench/sandbox, manifest: fixtures/latest.json, seed_id: verify, sandbox_repos: [ghx-bench/sandbox]}',
        '',
      ].join('\n'),
      'catalogue/leak.yml': [
        'name: leak',
        'scenarios: {ids: [issue-relations-parent-set-001, pr-reviews-leak-001]}',
        'modes: [agent_direct]',
        'repetitions: 2',
        'concurrency: 1',
        'seed: 1',
        '',
      ].join('\n'),
      'catalogue/scenarios/issue-relations-parent-set-001.yml': await readFile(
        path.join(SCENARIOS, 'issue-relations-parent-set-001.yml'),
        'utf8',
      ),
      'catalogue/scenarios/pr-reviews-leak-001.yml': leaky,
    })
    const result = await runCliInProcess(['run', 'catalogue/leak.yml', '--no-report'], {cwd: dir, env: {CI: '1'}})
    const rows = await rowsOf(dir).catch(() => [] as Row[])
    expect(rows, `${result.stdout}\n${result.stderr}`).to.have.length(4)

    const parentSet = rows
      .filter((r) => r.scenario_id === 'issue-relations-parent-set-001')
      .sort((a, b) => a.iteration - b.iteration)
    expect(parentSet.map((r) => [r.outcome, r.error?.message ?? null])).to.deep.equal([
      ['pass', null],
      ['pass', null],
    ])

    const leak = rows.filter((r) => r.scenario_id === 'pr-reviews-leak-001').sort((a, b) => a.iteration - b.iteration)
    expect(leak.map((r) => [r.outcome, r.error?.message ?? null])).to.deep.equal([
      ['pass', null],
      ['pass', null],
    ])
    // The second iteration read the pull request as seeded: no review from the first one.
    expect(leak.map((r) => r.attempts.length)).to.deep.equal([1, 1])
  })
})
