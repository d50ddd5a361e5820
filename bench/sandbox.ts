// Sandbox throughput with Octokit: REST and GraphQL reads (search included) against the sandbox in
// its own process, and a bare node:http hello-world server measured the same way in the same run. The
// hello-world answers every request with the very bytes of the sandbox's issue, and the same Octokit
// client sends it the same request (route, parameters, token): the client's work is the same for both,
// and the ratio is what the sandbox's own cost takes from the client's throughput.
// Goals: REST reads >= 0.9x the hello-world's requests/s, and at least 2,000 REST reads/s on 2 cores.
import {spawn, type ChildProcess} from 'node:child_process'
import path from 'node:path'
import {createInterface} from 'node:readline'
import {Octokit} from '@octokit/rest'
import {PACKAGE_ROOT} from '../src/shared/package-paths.js'
import {median} from '../src/stats/quantiles.js'
import {table} from './support.js'

interface Server {
  child: ChildProcess
  url: string
  token: string
}

function startServer(kind: 'sandbox' | 'hello', body = ''): Promise<Server> {
  const child = spawn(process.execPath, [path.join(PACKAGE_ROOT, 'bench', 'sandbox-server.mjs'), kind, body], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve) =>
    createInterface({input: child.stdout}).once('line', (line) =>
      resolve({child, ...(JSON.parse(line) as {url: string; token: string})}),
    ),
  )
}

/** Sends `total` requests, `concurrency` at a time; requests/s over the whole and the median latency. */
async function load(
  send: () => Promise<unknown>,
  total: number,
  concurrency: number,
): Promise<{rps: number; medianMs: number}> {
  const latencies: number[] = []
  let next = 0
  const start = process.hrtime.bigint()
  await Promise.all(
    Array.from({length: concurrency}, async () => {
      while (next < total) {
        next++
        const t = process.hrtime.bigint()
        await send()
        latencies.push(Number(process.hrtime.bigint() - t) / 1e6)
      }
    }),
  )
  const seconds = Number(process.hrtime.bigint() - start) / 1e9
  return {rps: total / seconds, medianMs: median(latencies)}
}

export async function benchSandbox(total = 4000, concurrency = 16, rounds = 5): Promise<string> {
  const sandbox = await startServer('sandbox')
  let hello: Server | undefined
  try {
    const octokit = new Octokit({baseUrl: sandbox.url, auth: sandbox.token})
    const base = {owner: 'ghx-bench', repo: 'sandbox'}
    const issue = await octokit.rest.issues.create({...base, title: 'Benchmark issue', labels: ['bench']})
    const main = await octokit.rest.git.getRef({...base, ref: 'heads/main'})
    await octokit.rest.git.createRef({...base, ref: 'refs/heads/bench', sha: main.data.object.sha})
    await octokit.rest.repos.createOrUpdateFileContents({
      ...base,
      path: 'bench.txt',
      message: 'bench',
      content: Buffer.from('bench\n').toString('base64'),
      branch: 'bench',
    })
    const pr = await octokit.rest.pulls.create({...base, title: 'Benchmark PR', head: 'bench', base: 'main'})
    const issueUrl = `${sandbox.url}/repos/${base.owner}/${base.repo}/issues/${issue.data.number}`
    const issueReply = await fetch(issueUrl, {headers: {authorization: `token ${sandbox.token}`}})
    const connectionHeaders = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'])
    const replyHeaders = Object.fromEntries([...issueReply.headers].filter(([name]) => !connectionHeaders.has(name)))
    hello = await startServer('hello', JSON.stringify({headers: replyHeaders, body: await issueReply.text()}))
    // The same client sending the same request (route, parameters, token): only the server differs.
    const helloClient = new Octokit({baseUrl: hello.url, auth: sandbox.token})
    const query =
      'query($n: Int!) { repository(owner: "ghx-bench", name: "sandbox") { pullRequest(number: $n) { number title state headRefName author { login } labels(first: 10) { nodes { name } } files(first: 10) { nodes { path additions } } } } }'
    // What `gh issue list --label bench` and `gh search issues` send.
    const searchQuery = 'repo:ghx-bench/sandbox is:issue is:open label:bench'
    const graphqlSearch =
      'query($q: String!) { search(query: $q, type: ISSUE, first: 30) { issueCount nodes { ... on Issue { number title state labels(first: 10) { nodes { name } } } } } }'
    const restRead = () => octokit.rest.issues.get({...base, issue_number: issue.data.number})
    const restSearch = () => octokit.rest.search.issuesAndPullRequests({q: searchQuery})
    const graphqlRead = () => octokit.graphql(query, {n: pr.data.number})
    const graphqlSearchRead = () => octokit.graphql(graphqlSearch, {q: searchQuery})
    const helloRead = () => helloClient.rest.issues.get({...base, issue_number: issue.data.number})
    // Warm up each path (JIT, the GraphQL schema's first load), then measure.
    for (const send of [restRead, restSearch, helloRead]) await load(send, 200, concurrency)
    for (const send of [graphqlRead, graphqlSearchRead]) await load(send, 50, concurrency)
    // Interleaved rounds, each case once per round, so the machine's drift hits every case alike; each
    // case's requests/s and latency are the medians over the rounds.
    const cases: Array<[string, () => Promise<unknown>, number]> = [
      ['node:http hello-world, the same issue bytes (baseline)', helloRead, total],
      ['sandbox REST issues.get', restRead, total],
      ['sandbox REST search/issues', restSearch, total / 2],
      ['sandbox GraphQL pullRequest read', graphqlRead, total / 4],
      ['sandbox GraphQL search (issues)', graphqlSearchRead, total / 4],
    ]
    const runs = cases.map(() => [] as Array<{rps: number; medianMs: number}>)
    for (let round = 0; round < rounds; round++) {
      for (const [i, [, send, count]] of cases.entries())
        runs[i]!.push(await load(send, Math.floor(count / rounds), concurrency))
    }
    const measured = runs.map((r) => ({rps: median(r.map((x) => x.rps)), medianMs: median(r.map((x) => x.medianMs))}))
    const [helloRun, rest] = measured as [{rps: number; medianMs: number}, {rps: number; medianMs: number}]
    const rows = [
      ['case', 'requests/s', 'median ms', 'x hello-world rps'],
      ...cases.map(([label], i) => {
        const run = measured[i]!
        return [label, run.rps.toFixed(0), run.medianMs.toFixed(2), (run.rps / helloRun.rps).toFixed(2)]
      }),
    ]
    return [
      `## sandbox throughput (Octokit client, ${concurrency} requests in flight, server in its own process, median of ${rounds} interleaved rounds)`,
      table(rows),
      `goal REST reads >= 0.9x hello-world: ${rest.rps >= 0.9 * helloRun.rps ? 'met' : 'missed'} (${(rest.rps / helloRun.rps).toFixed(2)}x)`,
      `goal >= 2000 REST reads/s: ${rest.rps >= 2000 ? 'met' : 'missed'} (${rest.rps.toFixed(0)}/s)`,
    ].join('\n')
  } finally {
    sandbox.child.kill()
    hello?.child.kill()
  }
}
