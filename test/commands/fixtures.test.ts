// `ghx-bench fixtures` end to end on the sandbox target: seed, status, mutate, status, reset, status,
// cleanup; the sandbox state persists between commands; cleanup leaves nothing the seed created.
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {createClient} from '../../src/github/client.js'
import {serveSandbox} from '../../src/emulator/serve.js'
import {makeProject, PROJECT_ROOT} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'

describe('ghx-bench fixtures (CLI, sandbox target)', function () {
  this.timeout(120_000)

  it('seeds what a suite requires, checks, resets after changes, and cleans up everything it made', async () => {
    const dir = await makeProject({
      '.ghxbenchrc.yml': `target: sandbox\nsuites_dir: ${path.join(PROJECT_ROOT, 'suites')}\nfixtures: {repo: ghx-bench/sandbox, seed_id: e2e}\n`,
    })
    const seeded = await runCliInProcess(
      ['fixtures', 'seed', '--suite', path.join(PROJECT_ROOT, 'suites', 'smoke.yml'), '--out', 'fx/manifest.json'],
      {cwd: dir},
    )
    expect(seeded.code, seeded.stderr).to.equal(0)
    const manifest = JSON.parse(await readFile(path.join(dir, 'fx', 'manifest.json'), 'utf8')) as {
      seed_id: string
      resources: Record<string, {number?: number; id?: number}>
    }
    expect(manifest.seed_id).to.equal('e2e')
    expect(Object.keys(manifest.resources).sort()).to.deep.equal([
      'issue',
      'issue_for_triage',
      'pr',
      'release',
      'workflow_run',
    ])
    expect((await runCliInProcess(['fixtures', 'status', '--manifest', 'fx/manifest.json'], {cwd: dir})).code).to.equal(
      0,
    )

    // An agent changes things, between commands: the sandbox state lives in .ghx-bench/sandbox.json.
    const served = await serveSandbox({statePath: path.join(dir, '.ghx-bench', 'sandbox.json')})
    const {octokit} = createClient({baseUrl: served.sandbox.url, token: served.sandbox.token, retries: 0})
    const repo = {owner: 'ghx-bench', repo: 'sandbox'}
    await octokit.rest.issues.update({
      ...repo,
      issue_number: manifest.resources.issue_for_triage!.number!,
      labels: ['enhancement'],
    })
    await octokit.rest.repos.updateRelease({...repo, release_id: manifest.resources.release!.id!, draft: false})
    await served.stop()
    const changed = await runCliInProcess(['fixtures', 'status', '--manifest', 'fx/manifest.json'], {cwd: dir})
    expect(changed.code).to.equal(1)
    expect(changed.stdout).to.include('changed  issue_for_triage: labels are [enhancement]')
    expect(changed.stdout).to.include('changed  release: published (seeded as a draft)')

    expect((await runCliInProcess(['fixtures', 'reset', '--manifest', 'fx/manifest.json'], {cwd: dir})).code).to.equal(
      0,
    )
    const after = await runCliInProcess(['fixtures', 'status', '--manifest', 'fx/manifest.json', '--json'], {cwd: dir})
    expect(after.code, after.stdout).to.equal(0)

    const cleanup = await runCliInProcess(['fixtures', 'cleanup', '--manifest', 'fx/manifest.json'], {cwd: dir})
    expect(cleanup.code, cleanup.stderr).to.equal(0)
    expect(cleanup.stdout).to.match(
      /issues closed: 2, pulls closed: 1, branches deleted: 1, labels deleted: 1, releases deleted: 1/,
    )
    await readFile(path.join(dir, 'fx', 'manifest.json')).then(
      () => expect.fail('the manifest must be removed'),
      () => undefined,
    )

    // Listing shows nothing the seed created: no open fixture issue or PR, branch, seed label, release.
    const check = await serveSandbox({statePath: path.join(dir, '.ghx-bench', 'sandbox.json')})
    try {
      const client = createClient({baseUrl: check.sandbox.url, token: check.sandbox.token, retries: 0}).octokit
      expect(
        (await client.rest.issues.listForRepo({...repo, state: 'open', labels: 'bench-fixture'})).data,
      ).to.deep.equal([])
      expect((await client.rest.git.listMatchingRefs({...repo, ref: 'heads/bench-'})).data).to.deep.equal([])
      expect((await client.rest.issues.listLabelsForRepo(repo)).data.map((l) => l.name)).to.not.include(
        'bench-seed:e2e',
      )
      expect((await client.rest.repos.listReleases(repo)).data).to.deep.equal([])
    } finally {
      await check.stop()
    }
  })

  it('refuses to write to a live repository that is not listed in fixtures.sandbox_repos, before any request', async () => {
    const dir = await makeProject({
      '.ghxbenchrc.yml': `target: live\nsuites_dir: ${path.join(PROJECT_ROOT, 'suites')}\nfixtures: {repo: someone/precious, sandbox_repos: [me/fixtures]}\n`,
    })
    const result = await runCliInProcess(
      ['fixtures', 'seed', '--suite', path.join(PROJECT_ROOT, 'suites', 'smoke.yml')],
      {cwd: dir, env: {GH_TOKEN: 'not-used'}},
    )
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include(
      'refusing to write fixtures to someone/precious: it is not listed in fixtures.sandbox_repos',
    )
  })
})
