// Sandbox throughput under load: autocannon (in this process) against the sandbox (in its own process)
// and against a node:http floor (bench/sandbox-server.mjs, in its own process) that answers every request
// with the sandbox's own reply to it: the same status, headers and body bytes, the body serialised again
// per request by JSON.stringify, the request's JSON body parsed. The client, the connections and the
// duration are the same for both, and the runs are interleaved, so the ratio is the sandbox's own cost.
// Goals (issue 47): GraphQL `issues(first: 20) { nodes { number title } }` >= 0.3x its floor, and the
// REST list of 20 issues (about 50 KB) >= 0.5x its floor. BENCH_SANDBOX_SECONDS sets each run's duration
// (default 2).
import {spawn, type ChildProcess} from 'node:child_process'
import path from 'node:path'
import {createInterface} from 'node:readline'
import autocannon from 'autocannon'
import {PACKAGE_ROOT} from '../src/shared/package-paths.js'
import {median} from '../src/stats/quantiles.js'
import {table} from './support.js'

interface Server {
  child: ChildProcess
  url: string
  token: string
}

function startServer(kind: 'sandbox' | 'floor', input?: string): Promise<Server> {
  const child = spawn(process.execPath, [path.join(PACKAGE_ROOT, 'bench', 'sandbox-server.mjs'), kind], {
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'inherit'],
  })
  child.stdin?.end(input)
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench/sandbox-server.mjs ${kind} exited ${code}`)))
    createInterface({input: child.stdout!}).once('line', (line) =>
      resolve({child, ...(JSON.parse(line) as {url: string; token: string})}),
    )
  })
}

interface LoadCase {
  label: string
  method: 'GET' | 'POST'
  path: string
  body?: string
  /** The least sandbox/floor ratio issue 47 asks for. */
  goal?: number
}

interface Run {
  rps: number
  p50Ms: number
}

/** One autocannon run; a run with a connection error or any answer but 2xx aborts the benchmark. */
async function load(url: string, token: string, c: LoadCase, connections: number, seconds: number): Promise<Run> {
  const result = await autocannon({
    url: url + c.path,
    method: c.method,
    body: c.body,
    headers: {authorization: `token ${token}`, 'content-type': 'application/json'},
    connections,
    duration: seconds,
  })
  if (result.errors > 0 || result.non2xx > 0)
    throw new Error(`${c.label} at ${url}: ${result.errors} errors, ${result.non2xx} answers not 2xx`)
  return {rps: result.requests.total / result.duration, p50Ms: result.latency.p50}
}

const graphql = (query: string, variables?: Record<string, unknown>) => JSON.stringify({query, variables})

/** Issues with a label and a body, so that 20 of them make a REST list of about 50 KB; and a pull request. */
async function seed(sandbox: Server): Promise<number> {
  const api = (method: string, route: string, body: unknown) =>
    fetch(`${sandbox.url}/repos/ghx-bench/sandbox${route}`, {
      method,
      headers: {authorization: `token ${sandbox.token}`, 'content-type': 'application/json'},
      body: JSON.stringify(body),
    }).then(async (r) => {
      if (!r.ok) throw new Error(`seeding ${method} ${route}: ${r.status} ${await r.text()}`)
      return (await r.json()) as Record<string, unknown>
    })
  for (let i = 1; i <= 25; i++)
    await api('POST', '/issues', {
      title: `Benchmark issue ${i}`,
      body: `What the benchmark lists: issue ${i}. `.repeat(6),
      labels: ['bench'],
    })
  const main = await fetch(`${sandbox.url}/repos/ghx-bench/sandbox/git/ref/heads/main`, {
    headers: {authorization: `token ${sandbox.token}`},
  }).then(async (r) => (await r.json()) as {object: {sha: string}})
  await api('POST', '/git/refs', {ref: 'refs/heads/bench', sha: main.object.sha})
  await api('PUT', '/contents/bench.txt', {message: 'bench', content: 'YmVuY2gK', branch: 'bench'})
  const pr = await api('POST', '/pulls', {title: 'Benchmark PR', head: 'bench', base: 'main'})
  return pr.number as number
}

interface Captured {
  method: string
  path: string
  body?: string
  status: number
  headers: Record<string, string>
  reply: string
}

/** The sandbox's reply to each case, as the floor answers it (hop-by-hop headers left to node:http). */
async function replies(sandbox: Server, cases: LoadCase[]): Promise<Captured[]> {
  const perConnection = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'])
  const captured: Captured[] = []
  for (const c of cases) {
    const reply = await fetch(sandbox.url + c.path, {
      method: c.method,
      body: c.body,
      headers: {authorization: `token ${sandbox.token}`, 'content-type': 'application/json'},
    })
    const headers = Object.fromEntries([...reply.headers].filter(([name]) => !perConnection.has(name)))
    const text = await reply.text()
    if (!reply.ok || (JSON.parse(text) as {errors?: unknown}).errors)
      throw new Error(`${c.label}: the sandbox answered ${reply.status} ${text.slice(0, 300)}`)
    captured.push({method: c.method, path: c.path, body: c.body, status: reply.status, headers, reply: text})
  }
  return captured
}

export async function benchSandbox(
  seconds = Number(process.env.BENCH_SANDBOX_SECONDS ?? 2),
  connectionCounts = [16, 64],
  rounds = 3,
): Promise<string> {
  const sandbox = await startServer('sandbox')
  let floor: Server | undefined
  try {
    const pr = await seed(sandbox)
    const searchQuery = 'repo:ghx-bench/sandbox is:issue is:open label:bench'
    const cases: LoadCase[] = [
      {
        label: 'GraphQL issues(first: 20) { number title }',
        method: 'POST',
        path: '/graphql',
        body: graphql(
          'query { repository(owner: "ghx-bench", name: "sandbox") { issues(first: 20) { nodes { number title } } } }',
        ),
        goal: 0.3,
      },
      {label: 'REST list of 20 issues', method: 'GET', path: '/repos/ghx-bench/sandbox/issues?per_page=20', goal: 0.5},
      {label: 'REST issues.get', method: 'GET', path: '/repos/ghx-bench/sandbox/issues/1'},
      {label: 'REST search/issues', method: 'GET', path: `/search/issues?q=${encodeURIComponent(searchQuery)}`},
      {
        label: 'GraphQL pullRequest read (gh pr view)',
        method: 'POST',
        path: '/graphql',
        body: graphql(
          'query($n: Int!) { repository(owner: "ghx-bench", name: "sandbox") { pullRequest(number: $n) { number title state headRefName author { login } labels(first: 10) { nodes { name } } files(first: 10) { nodes { path additions } } } } }',
          {n: pr},
        ),
      },
      {
        label: 'GraphQL search (gh search issues)',
        method: 'POST',
        path: '/graphql',
        body: graphql(
          'query($q: String!) { search(query: $q, type: ISSUE, first: 30) { issueCount nodes { ... on Issue { number title state labels(first: 10) { nodes { name } } } } } }',
          {q: searchQuery},
        ),
      },
    ]
    const captured = await replies(sandbox, cases)
    const listBytes = Buffer.byteLength(captured[cases.findIndex((c) => c.path.includes('per_page=20'))]!.reply)
    floor = await startServer('floor', JSON.stringify(captured))
    const servers = [floor, sandbox]
    // Warm up each path on both servers (JIT, the GraphQL schema's first load), then measure.
    for (const c of cases) for (const server of servers) await load(server.url, sandbox.token, c, 16, 1)
    // Interleaved: each round runs every case on the floor, then on the sandbox, so drift hits both alike.
    const rows = [['case', 'connections', 'sandbox req/s', 'floor req/s', 'x floor', 'sandbox p50 ms', 'floor p50 ms']]
    const goals: string[] = []
    for (const connections of connectionCounts) {
      const runs = cases.map(() => ({floor: [] as Run[], sandbox: [] as Run[]}))
      for (let round = 0; round < rounds; round++)
        for (const [i, c] of cases.entries()) {
          runs[i]!.floor.push(await load(floor.url, sandbox.token, c, connections, seconds))
          runs[i]!.sandbox.push(await load(sandbox.url, sandbox.token, c, connections, seconds))
        }
      for (const [i, c] of cases.entries()) {
        const {floor: f, sandbox: s} = runs[i]!
        // The ratio of each round's adjacent pair, then their median: drift between rounds cancels out.
        const ratio = median(s.map((run, r) => run.rps / f[r]!.rps))
        const at = (list: Run[], key: keyof Run) => median(list.map((run) => run[key]))
        rows.push([
          c.label,
          String(connections),
          at(s, 'rps').toFixed(0),
          at(f, 'rps').toFixed(0),
          ratio.toFixed(2),
          at(s, 'p50Ms').toFixed(1),
          at(f, 'p50Ms').toFixed(1),
        ])
        if (c.goal !== undefined)
          goals.push(
            `goal ${c.label} >= ${c.goal}x floor at ${connections} connections: ${ratio >= c.goal ? 'met' : 'missed'} (${ratio.toFixed(2)}x)`,
          )
      }
    }
    return [
      `## sandbox throughput (autocannon, ${seconds} s a run, server and floor each in its own process, median of ${rounds} interleaved rounds; the REST list is ${(listBytes / 1024).toFixed(0)} KB)`,
      table(rows),
      ...goals,
    ].join('\n')
  } finally {
    sandbox.child.kill()
    floor?.child.kill()
  }
}
