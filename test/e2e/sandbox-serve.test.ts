// `ghx-bench sandbox serve` as a user runs it: a long-running server whose state survives a restart.
import {spawn, type ChildProcess} from 'node:child_process'
import {mkdtemp, readFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {createInterface} from 'node:readline'
import {Octokit} from '@octokit/rest'
import {expect} from 'chai'
import {PROJECT_ROOT} from '../support/cli.js'

interface ServeInfo {
  url: string
  token: string
  state_loaded: boolean
  gh_env: Record<string, string>
}

function serve(statePath: string): Promise<{child: ChildProcess; info: ServeInfo}> {
  const child = spawn(
    process.execPath,
    [path.join(PROJECT_ROOT, 'bin', 'dev.js'), 'sandbox', 'serve', '--port', '0', '--state', statePath, '--json'],
    {stdio: ['ignore', 'pipe', 'pipe']},
  )
  return new Promise((resolve, reject) => {
    createInterface({input: child.stdout}).once('line', (line) => resolve({child, info: JSON.parse(line) as ServeInfo}))
    child.once('exit', (code) => reject(new Error(`sandbox serve exited ${code}`)))
  })
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code))
    child.kill('SIGTERM')
  })
}

describe('ghx-bench sandbox serve (CLI)', function () {
  it('--seed seeds the catalogue’s fixtures into the served sandbox and writes the manifest', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-serve-'))
    const child = spawn(
      process.execPath,
      [path.join(PROJECT_ROOT, 'bin', 'dev.js'), 'sandbox', 'serve', '--seed', '--json'],
      {
        cwd: PROJECT_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {...process.env, GHX_BENCH_FIXTURES_MANIFEST: path.join(dir, 'manifest.json')},
      },
    )
    const info = await new Promise<ServeInfo & {manifest: string}>((resolve) =>
      createInterface({input: child.stdout}).once('line', (line) =>
        resolve(JSON.parse(line) as ServeInfo & {manifest: string}),
      ),
    )
    try {
      expect(info.manifest).to.equal(path.join(dir, 'manifest.json'))
      const manifest = JSON.parse(await readFile(info.manifest, 'utf8')) as {
        resources: Record<string, {number: number}>
      }
      expect(Object.keys(manifest.resources)).to.include.members([
        'issue',
        'pr_with_mixed_threads',
        'workflow_run',
        'project',
      ])
      const octokit = new Octokit({baseUrl: info.url, auth: info.token})
      const issue = await octokit.rest.issues.get({
        owner: 'ghx-bench',
        repo: 'sandbox',
        issue_number: manifest.resources.issue_for_triage!.number,
      })
      expect(issue.data.labels.map((l) => (typeof l === 'string' ? l : l.name))).to.include('triage')
    } finally {
      await stop(child)
    }
  })

  this.timeout(60_000)

  it('prints its URL, token and gh environment; saves state on SIGTERM and loads it on restart', async () => {
    const statePath = path.join(await mkdtemp(path.join(tmpdir(), 'ghx-bench-serve-')), 'state.json')
    const first = await serve(statePath)
    expect(first.info.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(first.info.state_loaded).to.equal(false)
    expect(first.info.gh_env).to.include({
      GH_HOST: 'github.localhost',
      HTTP_PROXY: first.info.url,
      NO_PROXY: '127.0.0.1',
      GH_TOKEN: '',
    })
    // The token is gh's login for the sandbox host, in the printed GH_CONFIG_DIR.
    expect(await readFile(path.join(first.info.gh_env.GH_CONFIG_DIR!, 'hosts.yml'), 'utf8')).to.include(
      `oauth_token: ${first.info.token}\n`,
    )
    const octokit = new Octokit({baseUrl: first.info.url, auth: first.info.token})
    const issue = await octokit.rest.issues.create({owner: 'ghx-bench', repo: 'sandbox', title: 'Survives a restart'})
    expect(await stop(first.child)).to.equal(0)
    const saved = JSON.parse(await readFile(statePath, 'utf8')) as {version: number}
    expect(saved.version).to.equal(1)

    const second = await serve(statePath)
    try {
      expect(second.info.state_loaded).to.equal(true)
      expect(second.info.token).to.equal(first.info.token)
      const again = new Octokit({baseUrl: second.info.url, auth: second.info.token})
      const read = await again.rest.issues.get({owner: 'ghx-bench', repo: 'sandbox', issue_number: issue.data.number})
      expect(read.data.title).to.equal('Survives a restart')
    } finally {
      await stop(second.child)
    }
  })
})
