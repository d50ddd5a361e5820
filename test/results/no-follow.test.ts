// Symbolic links under results/ and reports/ are not followed: a results folder may come from elsewhere
// (a CI artifact, a pull request's checkout), and a link planted in it must not put a file of this
// machine's into summary.html, nor make a run append to or cut a file outside. A trace behind a link is
// left out of the page with a note; a link where ghx-bench would read rows or write is bad input (exit
// 2) naming it, and nothing outside is touched.
import {existsSync} from 'node:fs'
import {mkdir, readdir, readFile, symlink, utimes, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {gunzipSync} from 'node:zlib'
import {expect} from 'chai'
import {makeProject, PROJECT_ROOT} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'
import {makeRow} from '../support/rows.js'

const SECRET = 'PLANTED-SECRET-4c1f9e'

const CONFIG = [
  'target: sandbox',
  'model: oracle',
  `suites_dir: ${path.join(PROJECT_ROOT, 'suites')}`,
  'results_dir: results',
  'reports_dir: reports',
  'fixtures: {repo: ghx-bench/sandbox, manifest: fixtures/latest.json, seed_id: t, sandbox_repos: [ghx-bench/sandbox]}',
].join('\n')

const rowsOfRun = (runId: string) => [
  makeRow({
    run_id: runId,
    scenario_id: 'issue-view-001',
    mode: 'agent_direct',
    trace: `${runId}/traces/issue-view-001__agent_direct__i1__a1.json`,
  }),
  makeRow({
    run_id: runId,
    scenario_id: 'issue-view-001',
    mode: 'agent_direct',
    iteration: 2,
    success: false,
    outcome: 'fail',
    trace: `${runId}/traces/issue-view-001__agent_direct__i2__a1.json`,
  }),
]

/** A project with run r1's rows, and a file outside results/ and reports/ holding a secret (no newline at its end). */
async function project(): Promise<{dir: string; outside: string}> {
  const dir = await makeProject({
    '.ghxbenchrc.yml': CONFIG,
    'results/r1.jsonl':
      rowsOfRun('r1')
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    'private/secret.json': JSON.stringify({run_id: 'r1', prompt: SECRET}),
  })
  await mkdir(path.join(dir, 'results', 'r1', 'traces'), {recursive: true})
  return {dir, outside: path.join(dir, 'private', 'secret.json')}
}

/** Every trace summary.html embeds, decoded (they are gzip-compressed, base64-encoded JSON). */
function embeddedTraces(html: string): string[] {
  const block = /<script type="application\/json" id="ghxb-traces">([\s\S]*?)<\/script>/.exec(html)
  expect(block, 'the traces block').to.not.equal(null)
  return Object.values(JSON.parse(block![1]!) as Record<string, string>).map((data) =>
    gunzipSync(Buffer.from(data, 'base64')).toString('utf8'),
  )
}

const report = (dir: string, ...args: string[]) => runCliInProcess(['report', ...args], {cwd: dir, env: {CI: '1'}})

describe('symbolic links under results/ and reports/', function () {
  this.timeout(120_000)

  it('a trace that is a link is not embedded in summary.html (nor linked), and the page says so', async () => {
    const {dir, outside} = await project()
    const traces = path.join(dir, 'results', 'r1', 'traces')
    await writeFile(
      path.join(traces, 'issue-view-001__agent_direct__i1__a1.json'),
      JSON.stringify({run_id: 'r1', prompt: 'an honest trace'}),
    )
    await symlink(outside, path.join(traces, 'issue-view-001__agent_direct__i2__a1.json'))
    const result = await report(dir, '--run-id', 'r1', '--format', 'html')
    expect(result.code, result.stderr).to.equal(0)
    const html = await readFile(path.join(dir, 'reports', 'r1', 'summary.html'), 'utf8')
    const embedded = embeddedTraces(html)
    expect(
      embedded.some((trace) => trace.includes(SECRET)),
      'the linked file is embedded',
    ).to.equal(false)
    expect(embedded.map((trace) => (JSON.parse(trace) as {prompt: string}).prompt)).to.deep.equal(['an honest trace'])
    expect(html).to.not.include(SECRET)
    expect(html).to.include('1 of 1 traces are embedded')
    expect(html).to.include('1 trace(s) are symbolic links (or in a folder that is one) and were left out')
  })

  it('a traces folder that is a link is not followed either', async () => {
    const {dir, outside} = await project()
    const elsewhere = path.dirname(outside)
    await writeFile(
      path.join(elsewhere, 'issue-view-001__agent_direct__i1__a1.json'),
      JSON.stringify({run_id: 'r1', prompt: SECRET}),
    )
    await writeFile(
      path.join(elsewhere, 'issue-view-001__agent_direct__i2__a1.json'),
      JSON.stringify({run_id: 'r1', prompt: SECRET}),
    )
    await (await import('node:fs/promises')).rm(path.join(dir, 'results', 'r1', 'traces'), {recursive: true})
    await symlink(elsewhere, path.join(dir, 'results', 'r1', 'traces'))
    const result = await report(dir, '--run-id', 'r1', '--format', 'html')
    expect(result.code, result.stderr).to.equal(0)
    const html = await readFile(path.join(dir, 'reports', 'r1', 'summary.html'), 'utf8')
    expect(embeddedTraces(html), 'traces embedded through the linked folder').to.deep.equal([])
    expect(html).to.include('No run has a trace file')
    expect(html).to.include('2 trace(s) are symbolic links')
  })

  it('rows behind a link (by run id, as the newest run, found in a folder, or their run.json) are refused: exit 2 naming the link', async () => {
    const {dir} = await project()
    const rowsElsewhere = path.join(dir, 'private', 'r2.jsonl')
    await writeFile(
      rowsElsewhere,
      rowsOfRun('r2')
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    )
    // r1 an hour older, so the link is the newest run: timestamps within a clock tick would tie.
    const hourAgo = new Date(Date.now() - 3_600_000)
    await utimes(path.join(dir, 'results', 'r1.jsonl'), hourAgo, hourAgo)
    await symlink(rowsElsewhere, path.join(dir, 'results', 'r2.jsonl'))
    for (const args of [['--run-id', 'r2'], [], ['--input', 'results']]) {
      const result = await report(dir, ...args)
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).to.equal(2)
      expect(result.stderr).to.include(`${path.join('results', 'r2.jsonl')} error: a symbolic link, not followed`)
      expect(existsSync(path.join(dir, 'reports', 'r2'))).to.equal(false)
    }
    // Named on its own, a file is the user's word: it is read (a link to it too).
    expect((await report(dir, '--input', 'private/r2.jsonl')).code).to.equal(0)
    await symlink(path.join(dir, 'private', 'secret.json'), path.join(dir, 'results', 'r1', 'run.json'))
    const info = await report(dir, '--run-id', 'r1')
    expect(info.code, info.stderr).to.equal(2)
    expect(info.stderr).to.include(`${path.join('results', 'r1', 'run.json')} error: a symbolic link, not followed`)
  })

  it('a report folder that is a link is refused: exit 2, nothing written where it points', async () => {
    const {dir} = await project()
    const elsewhere = path.join(dir, 'private', 'reports')
    await mkdir(elsewhere)
    await mkdir(path.join(dir, 'reports'))
    await symlink(elsewhere, path.join(dir, 'reports', 'r1'))
    const result = await report(dir, '--run-id', 'r1', '--format', 'md,json,junit,html')
    expect(result.code, result.stderr).to.equal(2)
    expect(result.stderr).to.include(`${path.join('reports', 'r1')} error: a symbolic link, not followed`)
    expect(await readdir(elsewhere)).to.deep.equal([])
    // --out names the folder itself: the user's word, followed.
    expect((await report(dir, '--run-id', 'r1', '--out', 'reports/r1')).code).to.equal(0)
    expect(await readdir(elsewhere)).to.include('summary.md')
  })

  it('a run whose results file is a link is refused before anything is written: the file outside is neither cut nor appended to', async () => {
    const {dir, outside} = await project()
    const before = await readFile(outside, 'utf8')
    await symlink(outside, path.join(dir, 'results', 'planted.jsonl'))
    const result = await runCliInProcess(
      [
        'run',
        path.join(PROJECT_ROOT, 'suites', 'smoke.yml'),
        '--mode',
        'agent_direct',
        '--scenario',
        'repo-view-001',
        '--run-id',
        'planted',
      ],
      {cwd: dir, env: {CI: '1'}},
    )
    expect(result.code, result.stderr).to.equal(2)
    expect(result.stderr).to.include(`${path.join('results', 'planted.jsonl')} error: a symbolic link, not followed`)
    // The secret file ends without a newline: a torn-line repair would have cut it, an append grown it.
    expect(await readFile(outside, 'utf8')).to.equal(before)
  })

  it('a run whose traces folder is a link is refused before its first run', async () => {
    const {dir} = await project()
    const elsewhere = path.join(dir, 'private', 'traces')
    await mkdir(elsewhere)
    await mkdir(path.join(dir, 'results', 'linked'))
    await symlink(elsewhere, path.join(dir, 'results', 'linked', 'traces'))
    const result = await runCliInProcess(
      [
        'run',
        path.join(PROJECT_ROOT, 'suites', 'smoke.yml'),
        '--mode',
        'agent_direct',
        '--scenario',
        'repo-view-001',
        '--run-id',
        'linked',
      ],
      {cwd: dir, env: {CI: '1'}},
    )
    expect(result.code, result.stderr).to.equal(2)
    expect(result.stderr).to.include(`${path.join('results', 'linked', 'traces')} error: a symbolic link, not followed`)
    expect(await readdir(elsewhere)).to.deep.equal([])
  })
})
