// Every REST route GitHub has (its OpenAPI description, src/emulator/github-routes.json), requested
// with realistic values: each request reaches its own operation's handler, or answers 501 naming that
// operation. Never another operation's handler: a modelled template whose last parameter spans slashes
// (commits/{ref}) must not answer commits/{sha}/pulls as the commit "SHA/pulls".
import {expect} from 'chai'
import githubRoutes from '../../../src/emulator/github-routes.json' with {type: 'json'}
import {modelledOperations, restRouter} from '../../../src/emulator/rest.js'
import {githubOperations} from '../../../src/emulator/http/router.js'
import {startSandbox, type Sandbox} from '../../../src/emulator/index.js'
import {OWNER, REPO} from '../../support/sandbox.js'

const routes = githubRoutes.routes as Array<[string, string, string]>

describe('sandbox: every GitHub route reaches its own handler or answers 501', function () {
  this.timeout(120_000)
  let sandbox: Sandbox
  let head: string

  before(async () => {
    sandbox = await startSandbox()
    head = sandbox.store.state.repos[`${OWNER}/${REPO}`]!.branches.main!
  })
  after(() => sandbox.close())

  /** A concrete path for a template: the fixture repository, its head commit, ids, and multi-segment values where a parameter spans slashes. */
  function concrete(template: string): string {
    const segments = template.split('/')
    return segments
      .map((segment, i) => {
        if (segment === '{base}...{head}') return 'main...main'
        const name = /^\{(.+)\}$/.exec(segment)?.[1]
        if (!name) return segment
        const last = i === segments.length - 1
        switch (name) {
          case 'owner':
          case 'org':
            return OWNER
          case 'repo':
            return REPO
          case 'username':
            return 'ghx-bench-agent'
          case 'ref':
            return template.includes('/git/') ? 'heads/main' : last ? `heads/main` : head
          case 'sha':
          case 'commit_sha':
          case 'tree_sha':
          case 'file_sha':
            return head
          case 'path':
            return last ? 'src/utils/stats.ts' : 'src'
          case 'dir':
            return 'docs/guides'
          case 'basehead':
            return 'main...main'
          case 'archive_format':
            return 'tarball'
          case 'branch':
            return 'main'
          case 'tag':
            return 'v1.0.0'
          case 'name':
            return 'bug'
          default:
            return /(_id|_number|^id|number)$/.test(name) ? '1' : 'x'
        }
      })
      .join('/')
  }

  it('answers what GitHub links to a commit from their own handlers, not as a commit', async () => {
    const get = async (path: string) => {
      const response = await fetch(`${sandbox.url}/repos/${OWNER}/${REPO}/commits/${head}/${path}`, {
        headers: {authorization: `token ${sandbox.token}`},
      })
      return {status: response.status, body: (await response.json()) as unknown}
    }
    for (const path of [
      'status',
      'statuses',
      'check-runs',
      'check-suites',
      'pulls',
      'comments',
      'branches-where-head',
    ]) {
      const {status, body} = await get(path)
      expect(status, path).to.equal(200)
      // A commit's own answer (repos/get-commit) has its parents and files.
      expect(body, path).to.not.have.property('parents')
    }
    expect((await get('branches-where-head')).body).to.deep.equal([
      {
        name: 'main',
        commit: {sha: head, url: `${sandbox.url}/repos/${OWNER}/${REPO}/commits/${head}`},
        protected: false,
      },
    ])
  })

  it('resolves every GitHub route to its own operation (GitHub’s router and the sandbox’s)', () => {
    const modelled = new Set(modelledOperations().map((o) => o.operationId))
    const wrong: string[] = []
    let checked = 0
    for (const [method, template, operationId] of routes) {
      const path = concrete(template)
      // The operations GitHub's routes give this path: its own, with any template it cannot be told from (compare/{base}...{head}, compare/{basehead}).
      const github = githubOperations(method, path)
      if (!github.includes(operationId)) {
        wrong.push(`${method} ${path}: GitHub's routes give ${github.join(', ') || 'nothing'}, not ${operationId}`)
        continue
      }
      checked++
      const match = restRouter().match(method, path)?.value.operationId
      if (modelled.has(operationId) && match !== operationId)
        wrong.push(`${method} ${path}: ${operationId} is modelled, the router picks ${match ?? 'nothing'}`)
    }
    expect(checked).to.equal(routes.length)
    expect(wrong).to.deep.equal([])
  })

  it('answers each request from its own handler, or 501 naming its operation', async () => {
    const modelled = new Set(modelledOperations().map((o) => o.operationId))
    // Reads first, deletions last: a deleted repository still answers (404), never another operation.
    const order = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']
    const walk = [...routes].sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]))
    const wrong: string[] = []
    let checked = 0
    for (const [method, template, operationId] of walk) {
      const path = concrete(template)
      const github = githubOperations(method, path)
      checked++
      const response = await fetch(`${sandbox.url}${path}`, {
        method,
        headers: {
          authorization: `token ${sandbox.token}`,
          'content-type': 'application/json',
          accept: 'application/vnd.github+json',
        },
        body: method === 'GET' || method === 'HEAD' ? undefined : '{}',
        redirect: 'manual',
      })
      const text = await response.text()
      const message =
        response.headers.get('content-type')?.includes('json') && text
          ? ((JSON.parse(text) as {message?: string}).message ?? '')
          : ''
      // Templates a path cannot tell apart are one endpoint: the modelled one of them answers.
      if (github.some((id) => modelled.has(id))) {
        const other = /does not model ([\w/-]+) \(/.exec(message)?.[1]
        if (other) wrong.push(`${method} ${path}: answered as ${other}, not ${operationId}`)
        if (response.status === 500) wrong.push(`${method} ${path}: ${operationId} failed: ${message}`)
      } else if (
        response.status !== 501 ||
        message !== `ghx-bench sandbox does not model ${github[0]} (${method} ${path})`
      ) {
        wrong.push(
          `${method} ${path}: ${operationId} is not modelled, answered ${response.status} ${message.slice(0, 120)}`,
        )
      }
    }
    expect(checked).to.equal(routes.length)
    expect(wrong).to.deep.equal([])
  })
})
