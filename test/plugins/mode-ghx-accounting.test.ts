// Mode ghx's accounting (plugins/mode-ghx/accounting.ts) from ghx's own log: the lines the real ghx
// 0.8.0 writes (recorded below from the CLI built from aryeko/ghx f128993, run against the sandbox),
// what readGhxLog makes of them, that the test stand-in writes the same lines, and that a ghx run's row
// gets its by_route and route_used from them, through the whole runner.
import {existsSync, readFileSync, readdirSync} from 'node:fs'
import {mkdtemp, readFile, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {parse, stringify} from 'yaml'
import ghxPlugin from '../../plugins/mode-ghx/index.js'
import {readGhxLog} from '../../plugins/mode-ghx/accounting.js'
import {layerLogDir, readCallLog, readLayerLog} from '../../src/agent/shell-tool.js'
import {runProjectSuite} from '../../src/app/run.js'
import {startSandbox, type Sandbox} from '../../src/emulator/index.js'
import type {ModeSession} from '../../src/plugins/api.js'
import {nodeEnvFor} from '../../src/github/api-urls.js'
import {accountToolCalls} from '../../src/tool-accounting/accounting.js'
import {makeProject, PROJECT_ROOT} from '../support/cli.js'
import {rowsOf, sandboxConfig, SUITES} from '../support/sandbox-project.js'

const STAND_IN = path.join(PROJECT_ROOT, 'test', 'support', 'ghx-stand-in', 'ghx')
const GHX = ghxPlugin.modes[0]!

/**
 * What the real ghx 0.8.0 wrote to $GHX_LOG_DIR/ghx-2026-11-27.jsonl with GHX_LOG_LEVEL=info, for, in turn:
 * `ghx run repo.view` (found), `ghx run issue.view` (issue 9999: NOT_FOUND), `ghx run workflow.view`
 * (its cli route; gh 2.23 has no `workflow view --json`), `ghx chain` of repo.view and issue.list (the
 * first batched in GraphQL, the second on its cli route), `ghx run nope.nope`, a chain of one step
 * (repo.view), a chain of repo.view and issue.view (both batched; the issue missing) and a chain of
 * issue.view and issue.labels.add (both failed). A chain with an unknown task logs nothing.
 */
const REAL_LOG = [
  '{"ts":"2026-11-27T00:03:31.604Z","pid":6136,"ppid":6130,"level":"info","version":"0.8.0","msg":"execute.complete","capability_id":"repo.view","ok":true,"route_used":"graphql","duration_ms":821,"error_code":null}',
  '{"ts":"2026-11-27T00:03:32.494Z","pid":6147,"ppid":6130,"level":"info","version":"0.8.0","msg":"execute.complete","capability_id":"issue.view","ok":false,"route_used":"graphql","duration_ms":92,"error_code":"NOT_FOUND"}',
  '{"ts":"2026-11-27T00:03:33.514Z","pid":6158,"ppid":6130,"level":"info","version":"0.8.0","msg":"execute.complete","capability_id":"workflow.view","ok":false,"route_used":"cli","duration_ms":195,"error_code":"UNKNOWN"}',
  '{"ts":"2026-11-27T00:03:34.385Z","pid":6175,"ppid":6130,"level":"info","version":"0.8.0","msg":"execute.complete","capability_id":"issue.list","ok":true,"route_used":"cli","duration_ms":209,"error_code":null}',
  '{"ts":"2026-11-27T00:03:34.387Z","pid":6175,"ppid":6130,"level":"info","version":"0.8.0","msg":"execute_batch.complete","ok":true,"status":"success","total":2,"succeeded":2,"failed":0,"duration_ms":218}',
  '{"ts":"2026-11-27T00:03:35.242Z","pid":6191,"ppid":6130,"level":"error","version":"0.8.0","msg":"execute.unsupported_task","task":"nope.nope"}',
  '{"ts":"2026-11-27T00:09:27.495Z","pid":9937,"ppid":9931,"level":"info","version":"0.8.0","msg":"execute.complete","capability_id":"repo.view","ok":true,"route_used":"graphql","duration_ms":89,"error_code":null}',
  '{"ts":"2026-11-27T00:09:27.496Z","pid":9937,"ppid":9931,"level":"info","version":"0.8.0","msg":"execute_batch.complete","ok":true,"status":"success","total":1,"succeeded":1,"failed":0,"duration_ms":90}',
  '{"ts":"2026-11-27T00:09:28.157Z","pid":9948,"ppid":9931,"level":"info","version":"0.8.0","msg":"execute_batch.complete","ok":true,"status":"partial","total":2,"succeeded":1,"failed":1,"duration_ms":78}',
  '{"ts":"2026-11-27T00:09:29.291Z","pid":9970,"ppid":9931,"level":"info","version":"0.8.0","msg":"execute_batch.complete","ok":false,"status":"failed","total":2,"succeeded":0,"failed":2,"duration_ms":93}',
]
const lines = (...picked: number[]) => picked.map((n) => REAL_LOG[n]! + '\n').join('')
/** A line without what differs from one process to the next: time, process ids, duration. */
const shape = (line: string) =>
  line
    .replace(/"ts":"[^"]+","pid":\d+,"ppid":\d+/, '"ts":T,"pid":P,"ppid":P')
    .replace(/"duration_ms":\d+/, '"duration_ms":D')

describe('mode ghx: ghx’s own log', () => {
  it('counts every execution by the route ghx logged: a run’s route_used, a chain’s steps batched in GraphQL, none for an unknown task', () => {
    expect(readGhxLog(REAL_LOG.join('\n') + '\n')).to.deep.equal({
      routes: {graphql: 8, cli: 2, unknown: 1},
      lastRoute: 'graphql',
    })
    expect(readGhxLog(lines(0))).to.deep.equal({routes: {graphql: 1}, lastRoute: 'graphql'})
    expect(readGhxLog(lines(2))).to.deep.equal({routes: {cli: 1}, lastRoute: 'cli'})
    // A chain of one step logs its step and the chain: one execution.
    expect(readGhxLog(lines(6, 7))).to.deep.equal({routes: {graphql: 1}, lastRoute: 'graphql'})
    // A chain's route is its envelope's: cli only when every step ran cli (here one was batched in GraphQL).
    expect(readGhxLog(lines(3, 4))).to.deep.equal({routes: {cli: 1, graphql: 1}, lastRoute: 'graphql'})
    const allCli = lines(3, 4).replace('"total":2,"succeeded":2', '"total":1,"succeeded":1')
    expect(readGhxLog(allCli)).to.deep.equal({routes: {cli: 1}, lastRoute: 'cli'})
    // An unknown task has no route: unknown, and the run's route stays the last one a line names.
    expect(readGhxLog(lines(2, 5))).to.deep.equal({routes: {cli: 1, unknown: 1}, lastRoute: 'cli'})
    expect(readGhxLog(lines(5))).to.deep.equal({routes: {unknown: 1}, lastRoute: null})
  })

  it('reads a chain whose GraphQL lookups failed (resolution.lookup_failed, as ghx’s source writes it), a pid used again, and passes over what is no event of its', () => {
    const lookupFailed =
      '{"ts":"2026-11-27T00:10:00.000Z","pid":9999,"ppid":9931,"level":"error","version":"0.8.0","msg":"resolution.lookup_failed","count":2,"error_code":"NETWORK","message":"fetch failed"}\n'
    expect(readGhxLog(lookupFailed)).to.deep.equal({routes: {graphql: 2}, lastRoute: 'graphql'})
    // The same pid after a chain ended is another ghx: its run is counted on its own.
    const reused = lines(3, 4) + REAL_LOG[2]!.replace('"pid":6158', '"pid":6175') + '\n'
    expect(readGhxLog(reused)).to.deep.equal({routes: {cli: 2, graphql: 1}, lastRoute: 'cli'})
    const noise = [
      '',
      'not json',
      '{"ts":"x","pid":1,"msg":"route.plan","route":"cli"}',
      REAL_LOG[0]!.slice(0, 60),
      '{"pid":-1,"msg":"execute.complete"}',
      '[1,2]',
    ].join('\n')
    expect(readGhxLog(noise + '\n' + lines(1))).to.deep.equal({routes: {graphql: 1}, lastRoute: 'graphql'})
    expect(readGhxLog('')).to.deep.equal({routes: {}, lastRoute: null})
  })
})

describe('mode ghx: ghx’s log of a run (sandbox, the stand-in)', function () {
  this.timeout(30_000)
  let sandbox: Sandbox
  const sessions: ModeSession[] = []
  before(async () => (sandbox = await startSandbox()))
  after(async () => {
    await Promise.all(sessions.map((s) => s.close()))
    await sandbox.close()
  })

  async function open(): Promise<{session: ModeSession; workdir: string}> {
    const workdir = await mkdtemp(path.join(tmpdir(), 'mode-ghx-'))
    const skill = path.join(workdir, 'SKILL.md')
    await writeFile(skill, '# ghx\n')
    const graphqlUrl = `${sandbox.url}/graphql`
    const session = await GHX.open({
      options: {ghx: STAND_IN, skill},
      workdir,
      github: {
        apiUrl: sandbox.url,
        graphqlUrl,
        token: sandbox.token,
        env: sandbox.ghEnv(path.join(workdir, 'gh')),
        nodeEnv: nodeEnvFor(sandbox.url, graphqlUrl),
      },
    })
    sessions.push(session)
    return {session, workdir}
  }
  const shell = (session: ModeSession, command: string) =>
    session.call('shell', {command}, new AbortController().signal)

  it('the session turns ghx’s log on into the run’s layer log folder; the stand-in writes the real ghx’s lines', async () => {
    const {session, workdir} = await open()
    expect(session.env).to.include({GHX_LOG_LEVEL: 'info', GHX_LOG_DIR: layerLogDir(workdir)})
    const repo = '{"owner":"ghx-bench","name":"sandbox"}'
    const commands = [
      `ghx run repo.view --input '${repo}'`,
      `ghx run nope.nope --input '{}'`,
      `ghx chain --steps '[{"task":"repo.view","input":${repo}}]'`,
      `ghx chain --steps '[{"task":"repo.view","input":${repo}},{"task":"issue.view","input":{"owner":"ghx-bench","name":"sandbox","issueNumber":9999}}]'`,
      `ghx chain --steps '[{"task":"repo.view","input":${repo}},{"task":"nope.x","input":{}}]'`,
    ]
    for (const command of commands) await shell(session, command)
    const files = readdirSync(layerLogDir(workdir))
    expect(files).to.have.length(1)
    expect(files[0]).to.match(/^ghx-\d{4}-\d{2}-\d{2}\.jsonl$/)
    const written = readFileSync(path.join(layerLogDir(workdir), files[0]!), 'utf8')
      .trimEnd()
      .split('\n')
    // Byte for byte the real ghx's lines for the same commands, but for time, process ids and durations.
    expect(written.map(shape)).to.deep.equal([0, 5, 6, 7, 8].map((n) => shape(REAL_LOG[n]!)))
    // The runner reads it beside the call log, once the agent is done.
    expect(await readCallLog(workdir)).to.deep.equal({ghx: 5})
    expect(await readLayerLog(workdir)).to.equal(written.join('\n') + '\n')
    expect(await readLayerLog(path.join(workdir, 'nowhere'))).to.equal(null)
  })

  it('by_route and the route come from the log; unknown only for what no line names (a chain ghx rejected before running it)', async () => {
    const {session, workdir} = await open()
    const calls = [
      `ghx run repo.view --input '{"owner":"ghx-bench","name":"sandbox"}'`,
      `ghx chain --steps '[{"task":"repo.view","input":{}},{"task":"nope.x","input":{}}]'`,
    ]
    const traced = []
    for (const command of calls)
      traced.push({tool: 'shell', args: {command}, ms: 1, ...(await shell(session, command))})
    const log = await readLayerLog(workdir)
    const withLog = accountToolCalls(traced, new Set(), GHX.accounting, log)
    expect(withLog.by_route).to.deep.equal({graphql: 1, unknown: 2})
    expect(withLog.last_route).to.equal('graphql')
    // Without the log, the compact envelopes name no route.
    const without = accountToolCalls(traced, new Set(), GHX.accounting, null)
    expect(without.by_route).to.deep.equal({unknown: 3})
    expect(without.last_route).to.equal(null)
  })
})

describe('mode ghx: rows of ghx runs through the runner (sandbox, oracle, the stand-in)', function () {
  this.timeout(120_000)

  it('fill by_route and route_used from ghx’s log; a pass after a failed ghx call and a gh call is a fallback; no token reaches a row or a trace', async () => {
    const view = parse(await readFile(path.join(SUITES, 'scenarios', 'repo-view-001.yml'), 'utf8')) as {
      id: string
      assertions: {checkpoints?: unknown[]}
      reference: Record<string, Array<Record<string, unknown>>>
    }
    // An atomic read must compare its answer with GitHub: the catalogue's own check where it has one, else this.
    view.assertions.checkpoints ??= [
      {
        name: 'answer_true',
        task: 'repo.view',
        input: {owner: '{{owner}}', name: '{{repo}}'},
        condition: {type: 'agrees_with', path: 'fullName', value: '{{answer.nameWithOwner}}'},
      },
    ]
    // The same task, the ghx plan failing first (issue.view of an issue that is not there) and gh doing the work.
    const fallback = {
      ...view,
      id: 'repo-view-fallback-001',
      reference: {
        ...view.reference,
        ghx: [
          {
            tool: 'shell',
            args: {
              command: `ghx run issue.view --input '{"owner": "{{owner}}", "name": "{{repo}}", "issueNumber": 99999}'`,
            },
            allow_failure: true,
          },
          ...view.reference.agent_direct!,
        ],
      },
    }
    const skill = path.join(await mkdtemp(path.join(tmpdir(), 'skill-')), 'SKILL.md')
    await writeFile(skill, '# ghx\n')
    const dir = await makeProject({
      '.ghxbenchrc.yml': sandboxConfig('catalogue'),
      'catalogue/scenarios/repo-view-001.yml': stringify(view),
      'catalogue/scenarios/repo-view-fallback-001.yml': stringify(fallback),
      'catalogue/ghx.yml': stringify({
        name: 'ghx',
        scenarios: {ids: ['repo-view-001', 'repo-view-fallback-001']},
        modes: [{name: 'ghx', options: {ghx: STAND_IN, skill}}],
        repetitions: 1,
        warmup: false,
      }),
    })
    const {summary} = await runProjectSuite({
      cwd: dir,
      suitePath: 'catalogue/ghx.yml',
      runId: 'ghx-log',
      noReport: true,
    })
    expect(summary.by_mode.ghx).to.deep.include({pass: 2})
    const rows = rowsOf(dir, 'ghx-log')
    const row = (scenario: string, mode: 'ghx') => rows.find((r) => r.scenario_id === scenario && r.mode === mode)!
    expect(row('repo-view-001', 'ghx').tool_calls.by_route).to.deep.equal({graphql: 1})
    expect(row('repo-view-001', 'ghx')).to.include({route_used: 'graphql', fallback: false})
    expect(row('repo-view-fallback-001', 'ghx').tool_calls.by_route).to.deep.equal({graphql: 1})
    expect(row('repo-view-fallback-001', 'ghx')).to.include({route_used: 'graphql', fallback: true, outcome: 'pass'})
    // The log stays in the run's folder, which goes with the run; no token in the rows or the traces.
    const results = path.join(dir, 'results')
    const written = [
      readFileSync(path.join(results, 'ghx-log.jsonl'), 'utf8'),
      ...readdirSync(path.join(results, 'ghx-log', 'traces')).map((f) =>
        readFileSync(path.join(results, 'ghx-log', 'traces', f), 'utf8'),
      ),
    ].join('\n')
    expect(written).to.not.match(/ghs_[A-Za-z0-9]{20,}/)
    expect(written).to.not.include('.ghx-bench-layer-log')
    expect(existsSync(path.join(dir, '.ghx-bench-layer-log'))).to.equal(false)
  })
})
