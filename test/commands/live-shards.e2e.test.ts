// Shards on live GitHub, with the sandbox as the live GitHub: `target: live` and github.api_url pointed at a
// sandbox served here on 127.0.0.1, which answers as GitHub does (tokens, rate-limit headers and, when
// given one, a primary rate limit it enforces with GitHub's 403). The model is noop: what is under test is
// the harness's own traffic (seeding, resets, checkpoints), which is all that goes to GitHub then. Shards
// run as processes, two at once in one project folder: each seeds and resets fixtures of its own (its seed
// id, its manifest, with fixtures.shard_repos its repository); the rate budget waits for GitHub's window
// and stops a shard when the wait is too long; the janitor finds every shard's leftovers by the run id.
import {existsSync} from 'node:fs'
import {readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {createClient} from '../../src/github/client.js'
import {startSandbox, type Sandbox, type SandboxOptions} from '../../src/emulator/index.js'
import type {Manifest} from '../../src/seeding/manifest.js'
import {makeProject, runCli} from '../support/cli.js'
import {rowsOf, SUITES} from '../support/sandbox-project.js'

const RUN = 'nightly-7'

function suite(ids: string[], repetitions: number): string {
  return [
    '# yaml-language-server: $schema=../schemas/suite.schema.json',
    'name: live-shards',
    `scenarios: {ids: [${ids.join(', ')}]}`,
    'modes: [agent_direct]',
    `repetitions: ${repetitions}`,
    'seed: 3',
    'concurrency: 1',
    'warmup: false',
    // noop answers nothing: its checkpoints fail at once rather than after live GitHub's 12 s.
    'timeouts: {checkpoint_ms: 200}',
    '',
  ].join('\n')
}

/** A project on "live GitHub" (the sandbox at `url`), model noop. */
function liveProject(url: string, fixtures: string, files: Record<string, string>, extra = ''): Promise<string> {
  return makeProject({
    '.ghxbenchrc.yml': [
      'target: live',
      'model: noop',
      `github: {api_url: "${url}"${extra}}`,
      `suites_dir: ${SUITES}`,
      'results_dir: results',
      `fixtures: {${fixtures}}`,
      '',
    ].join('\n'),
    ...files,
  })
}

const tokens = (sandbox: Sandbox) => ({GH_TOKEN: sandbox.token, GHX_BENCH_REVIEWER_TOKEN: sandbox.reviewerToken})
const cli = (sandbox: Sandbox, dir: string, args: string[]) =>
  runCli(args, {cwd: dir, env: {CI: '1', ...tokens(sandbox)}})
const manifestOf = async (dir: string, name: string) =>
  JSON.parse(await readFile(path.join(dir, 'fixtures', name), 'utf8')) as Manifest

/** What is in a repository of the sandbox: its labels, bench-… branches and release tags. */
async function leftIn(sandbox: Sandbox, full: string): Promise<{labels: string[]; branches: string[]; tags: string[]}> {
  const {octokit} = createClient({baseUrl: sandbox.url, token: sandbox.token, retries: 0})
  const [owner, repo] = full.split('/') as [string, string]
  const labels = (await octokit.paginate(octokit.rest.issues.listLabelsForRepo, {owner, repo})).map((l) => l.name)
  const branches = (await octokit.rest.git.listMatchingRefs({owner, repo, ref: 'heads/bench-'})).data.map((r) => r.ref)
  const tags = (await octokit.paginate(octokit.rest.repos.listReleases, {owner, repo})).map((r) => r.tag_name)
  return {labels, branches, tags}
}

/** Everything in the repository that names the run. */
const ofRun = ({labels, branches, tags}: {labels: string[]; branches: string[]; tags: string[]}) =>
  [...labels, ...branches, ...tags].filter((name) => name.includes(RUN))

describe('shards on live GitHub (the sandbox as live GitHub, CLI processes)', function () {
  this.timeout(600_000)
  const sandboxes: Sandbox[] = []
  const serve = async (options: SandboxOptions = {}) => {
    const sandbox = await startSandbox(options)
    sandboxes.push(sandbox)
    return sandbox
  }
  after(async () => {
    for (const sandbox of sandboxes) await sandbox.close()
  })

  it('two shards at once in one repository: fixtures of their own each; the janitor finds both by the run id and spares other seedings', async () => {
    const sandbox = await serve()
    const dir = await liveProject(
      sandbox.url,
      'repo: ghx-bench/sandbox, sandbox_repos: [ghx-bench/sandbox], manifest: fixtures/latest.json',
      {'suite.yml': suite(['issue-view-001', 'release-list-001', 'pr-view-001'], 2)},
    )
    // Another seeding in the same repository, which the janitor of the run must leave alone.
    const other = await cli(sandbox, dir, ['fixtures', 'seed', '--suite', 'suite.yml', '--seed-id', 'keep'])
    expect(other.code, other.stderr).to.equal(0)

    const shards = await Promise.all(
      ['1/2', '2/2'].map((spec) => cli(sandbox, dir, ['run', 'suite.yml', '--run-id', RUN, '--shard', spec])),
    )
    for (const shard of shards) expect(shard.code, shard.stderr).to.equal(0)
    const manifests = await Promise.all([1, 2].map((i) => manifestOf(dir, `${RUN}.shard-${i}-of-2.json`)))
    expect(manifests.map((m) => m.seed_id)).to.deep.equal([`${RUN}-shard-1-of-2`, `${RUN}-shard-2-of-2`])
    // Each seeded only what its own scenarios need: the two seedings share no kind, so no resource.
    const [first, second] = manifests.map((m) => Object.keys(m.resources))
    expect(first).to.have.length.above(0)
    expect(second).to.have.length.above(0)
    expect(first!.filter((kind) => second!.includes(kind))).to.deep.equal([])
    for (const [i, manifest] of manifests.entries()) {
      const rows = rowsOf(dir, `${RUN}.shard-${i + 1}-of-2`)
      expect(rows).to.have.length.above(0)
      for (const row of rows) {
        expect(row.fixture_seed).to.equal(manifest.seed_id)
        // Live GitHub: what rate limits cost is in every row (none here: the sandbox's limit is not reached).
        expect(row.github_rate_waits).to.deep.equal({waited_ms: 0, secondary_limits: 0})
      }
    }
    const before = await leftIn(sandbox, 'ghx-bench/sandbox')
    // Both shards' resources are there, named by their seed ids.
    for (const manifest of manifests)
      expect(
        ofRun(before).some((name) => name.includes(manifest.seed_id)),
        manifest.seed_id,
      ).to.equal(true)
    expect(before.labels).to.include('bench-seed:keep')

    const janitor = await cli(sandbox, dir, ['fixtures', 'cleanup', '--run-id', RUN])
    expect(janitor.code, janitor.stderr).to.equal(0)
    for (const i of [1, 2]) {
      expect(janitor.stdout).to.match(new RegExp(`^ghx-bench/sandbox ${RUN}-shard-${i}-of-2: issues closed: \\d+`, 'm'))
      expect(existsSync(path.join(dir, 'fixtures', `${RUN}.shard-${i}-of-2.json`))).to.equal(false)
    }
    const after = await leftIn(sandbox, 'ghx-bench/sandbox')
    expect(ofRun(after)).to.deep.equal([])
    // The other seeding is as it was.
    const keep = ({labels, branches, tags}: typeof after) =>
      [...labels, ...branches, ...tags].filter((name) => name.includes('keep'))
    expect(keep(before)).to.have.length.above(0)
    expect(keep(after)).to.deep.equal(keep(before))
    const again = await cli(sandbox, dir, ['fixtures', 'cleanup', '--run-id', RUN])
    expect(again.stdout).to.include(`no fixtures of run ${RUN} left`)
  })

  it('with fixtures.shard_repos, each shard seeds in its own repository; the janitor of one shard cleans that one', async () => {
    const repos = ['ghx-bench/shard-one', 'ghx-bench/shard-two']
    const sandbox = await serve({repos})
    const dir = await liveProject(
      sandbox.url,
      `repo: ghx-bench/shard-one, sandbox_repos: [${repos.join(', ')}], shard_repos: [${repos.join(', ')}]`,
      {'suite.yml': suite(['issue-view-001', 'issue-comments-list-001'], 1)},
    )
    const shards = await Promise.all(
      ['1/2', '2/2'].map((spec) => cli(sandbox, dir, ['run', 'suite.yml', '--run-id', RUN, '--shard', spec])),
    )
    for (const shard of shards) expect(shard.code, shard.stderr).to.equal(0)
    for (const [i, full] of repos.entries()) {
      const manifest = await manifestOf(dir, `${RUN}.shard-${i + 1}-of-2.json`)
      expect(manifest.repo.full_name).to.equal(full)
      // Its own repository: the two scenarios that share the issue kind are spread, a block each.
      expect(rowsOf(dir, `${RUN}.shard-${i + 1}-of-2`)).to.have.length(1)
      expect((await leftIn(sandbox, full)).labels).to.include(`bench-seed:${RUN}-shard-${i + 1}-of-2`)
    }
    const janitor = await cli(sandbox, dir, ['fixtures', 'cleanup', '--run-id', RUN, '--shard', '2/2'])
    expect(janitor.code, janitor.stderr).to.equal(0)
    expect(janitor.stdout).to.match(new RegExp(`^ghx-bench/shard-two ${RUN}-shard-2-of-2: `, 'm'))
    expect(janitor.stdout).to.not.include('shard-one')
    expect(ofRun(await leftIn(sandbox, repos[1]!))).to.deep.equal([])
    expect((await leftIn(sandbox, repos[0]!)).labels).to.include(`bench-seed:${RUN}-shard-1-of-2`)
  })

  it('the rate budget: a run waits for the window to reset (the wait in its row); beyond max_wait_s the shard stops (exit 3) and resumes', async () => {
    // GitHub's limit scaled down: 60 REST points per token in an 8-second window.
    const sandbox = await serve({rateLimit: {limit: 60, window_ms: 8000}})
    const files = {'suite.yml': suite(['issue-view-001'], 3)}
    const fixtures = 'repo: ghx-bench/sandbox, sandbox_repos: [ghx-bench/sandbox]'
    // GraphQL points too. A reserve of 55: a run starts with at most 5 points of either spent in the window.
    const waiting = await liveProject(
      sandbox.url,
      fixtures,
      files,
      ', rate_budget: {reserve_core: 55, reserve_graphql: 55, max_wait_s: 30}',
    )
    const waited = await cli(sandbox, waiting, ['run', 'suite.yml', '--run-id', RUN, '--shard', '1/1'])
    expect(waited.code, waited.stderr).to.equal(0)
    const rows = rowsOf(waiting, `${RUN}.shard-1-of-1`)
    expect(rows).to.have.length(3)
    // A run starts after a wait for the window (at most its 8 s, and the reset's rounding up to a second),
    // unless the run before it outlasted the window.
    const waits = rows.map((row) => row.github_rate_waits!.waited_ms)
    expect(waits.filter((ms) => ms > 0).length, String(waits)).to.be.at.least(2)
    for (const ms of waits) expect(ms).to.be.at.most(9500)

    // max_wait_s 0: the first shortage stops the shard, with what it recorded kept.
    const stopping = await liveProject(
      sandbox.url,
      fixtures,
      files,
      ', rate_budget: {reserve_core: 55, reserve_graphql: 55, max_wait_s: 0}',
    )
    const stopped = await cli(sandbox, stopping, ['run', 'suite.yml', '--run-id', RUN, '--shard', '1/1'])
    expect(stopped.code, stopped.stdout + stopped.stderr).to.equal(3)
    expect(stopped.stderr).to.match(
      /rate budget: the agent token's (core|graphql) points are down to \d+ \(reserve 55\) and reset at /,
    )
    expect(stopped.stderr).to.include(`--run-id ${RUN} --shard 1/1`)
    const kept = rowsOf(stopping, `${RUN}.shard-1-of-1`).length
    expect(kept).to.be.below(3)
    // Run again with room to wait: it runs only what it lacks.
    await writeBudget(stopping, 30)
    const resumed = await cli(sandbox, stopping, ['run', 'suite.yml', '--run-id', RUN, '--shard', '1/1'])
    expect(resumed.code, resumed.stderr).to.equal(0)
    const all = rowsOf(stopping, `${RUN}.shard-1-of-1`)
    expect(all).to.have.length(3)
    expect(new Set(all.map((r) => r.iteration)).size).to.equal(3)
  })
})

/** The project's github.rate_budget.max_wait_s, changed. */
async function writeBudget(dir: string, maxWaitS: number): Promise<void> {
  const file = path.join(dir, '.ghxbenchrc.yml')
  await writeFile(file, (await readFile(file, 'utf8')).replace(/max_wait_s: \d+/, `max_wait_s: ${maxWaitS}`))
}
