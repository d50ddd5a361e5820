// The HTML report in a real browser: Debian's headless Chromium driven by playwright-core. A gated
// smoke run (sandbox + oracle) writes summary.html; the page must draw its charts, raise no error,
// request nothing but itself, and show a run's trace on click, from file:// and over http.
import {copyFile, mkdtemp, readFile} from 'node:fs/promises'
import {existsSync} from 'node:fs'
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {expect} from 'chai'
import {chromium, type BrowserContext, type Page} from 'playwright-core'
import {loadConfig} from '../../src/config/load-config.js'
import {writeHtmlReport} from '../../src/report/render/html.js'
import {judge} from '../../src/report/judge.js'
import type {Row} from '../../src/results/row-schema.js'
import {makeProject, PROJECT_ROOT} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'
import {makeRow} from '../support/rows.js'

const CHROMIUM = '/usr/bin/chromium'
const SCREENSHOT_COPY = '/tmp/ghx-bench-report.png'

const CONFIG = [
  'target: sandbox',
  'model: oracle',
  `suites_dir: ${path.join(PROJECT_ROOT, 'suites')}`,
  'results_dir: results',
  'reports_dir: reports',
  'fixtures: {repo: ghx-bench/sandbox, manifest: fixtures/latest.json, seed_id: e2e, sandbox_repos: [ghx-bench/sandbox]}',
].join('\n')

/** The smoke scenarios under gh and the MCP server, gated: the report shows the gate too. */
const SUITE = [
  `# yaml-language-server: $schema=${path.join(PROJECT_ROOT, 'schemas', 'suite.schema.json')}`,
  'name: smoke-gated',
  'description: The smoke scenarios under gh and MCP, gated by verify_pr.',
  'scenarios: {set: smoke}',
  'modes: [agent_direct, mcp]',
  'repetitions: 2',
  'seed: 1',
  'gate: {profile: verify_pr, baseline: agent_direct, candidate: mcp}',
].join('\n')

interface Watch {
  errors: string[]
  requests: string[]
  dialogs: string[]
}

async function open(context: BrowserContext, url: string): Promise<{page: Page; watch: Watch}> {
  const page = await context.newPage()
  const watch: Watch = {errors: [], requests: [], dialogs: []}
  page.on('console', (message) => {
    if (message.type() === 'error') watch.errors.push(message.text())
  })
  page.on('pageerror', (error) => watch.errors.push(error.message))
  page.on('request', (request) => watch.requests.push(request.url()))
  page.on('dialog', (dialog) => {
    watch.dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  await page.goto(url)
  await page.waitForSelector('#runs-table tbody tr')
  return {page, watch}
}

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(png: Buffer): {width: number; height: number} {
  expect(png.subarray(0, 8).toString('hex')).to.equal('89504e470d0a1a0a')
  return {width: png.readUInt32BE(16), height: png.readUInt32BE(20)}
}

/** A static server over the project folder, as `npx http-server` would be. */
function serve(root: string): Promise<Server> {
  const server = createServer((request, response) => {
    const file = path.join(root, decodeURIComponent(new URL(request.url!, 'http://x').pathname))
    if (!file.startsWith(root)) return void response.writeHead(403).end()
    readFile(file).then(
      (body) =>
        response.writeHead(200, {'content-type': file.endsWith('.html') ? 'text/html' : 'application/json'}).end(body),
      () => response.writeHead(404).end(),
    )
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

describe('HTML report in headless Chromium', function () {
  this.timeout(240_000)
  let context: BrowserContext
  let tmp: string
  let dir: string
  let html: string

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      console.log(`      skipped: ${CHROMIUM} is absent (Debian's chromium; scripts/ensure-gh.sh installs it as root)`)
      this.skip()
    }
    tmp = await mkdtemp(path.join(tmpdir(), 'ghx-bench-html-'))
    context = await chromium.launchPersistentContext(await mkdtemp(path.join(tmp, 'profile-')), {
      executablePath: CHROMIUM,
      headless: true,
      viewport: {width: 1280, height: 900},
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    })
    dir = await makeProject({'.ghxbenchrc.yml': CONFIG, 'smoke-gated.yml': SUITE})
    // The report is the subject, not how the run was started: the run in-process.
    const result = await runCliInProcess(['run', 'smoke-gated.yml', '--run-id', 'smoke'], {cwd: dir, env: {CI: '1'}})
    html = path.join(dir, 'reports', 'smoke', 'summary.html')
    expect(result.stdout, result.stderr + result.stdout).to.include(`wrote ${html}`)
  })

  after(async () => {
    await context?.close()
  })

  it('draws every chart, raises no error, requests nothing, and shows a run’s trace on click (file://)', async () => {
    const {page, watch} = await open(context, pathToFileURL(html).href)
    const charts = page.locator('svg.chart')
    const count = await charts.count()
    // 4 distributions, 4 forest plots (mcp against agent_direct: tokens, agent and wall latency, tool calls), 10 gate checks.
    expect(count).to.equal(4 + 4 + 10)
    for (let i = 0; i < count; i++) {
      const chart = charts.nth(i)
      expect(await chart.isVisible(), `chart ${i}`).to.equal(true)
      const box = (await chart.boundingBox())!
      expect(box.width, `chart ${i}`).to.be.above(100)
      expect(box.height, `chart ${i}`).to.be.above(10)
    }
    for (const metric of ['tokens_active', 'latency_agent', 'latency_wall', 'tool_calls']) {
      const boxes = page.locator(`#dist-${metric} g.box`)
      expect(await boxes.count(), metric).to.equal(2)
      for (let i = 0; i < 2; i++) expect((await boxes.nth(i).boundingBox())!.width, metric).to.be.above(0)
    }
    expect(await page.locator('#gate .banner').textContent()).to.match(/FAIL|PASS|INCONCLUSIVE/)
    expect(await page.locator('#runs-status').textContent()).to.equal('20 runs; 20 shown by the filters')

    await page.selectOption('#f-mode', {label: 'mcp'})
    expect(await page.locator('#runs-table tbody tr').count()).to.equal(8)
    await page.locator('#runs-table tbody tr', {hasText: 'issue-view-001'}).first().click()
    const detail = page.locator('#run-detail')
    await detail.locator('.trace').waitFor()
    expect(await detail.locator('h3').textContent()).to.match(/issue-view-001 · mcp · iteration \d/)
    expect(await detail.locator('.trace .tool-name').first().textContent()).to.equal('get_issue')
    const text = (await detail.textContent())!
    expect(text)
      .to.include('Prompt')
      .and.include('Turns and tool calls')
      .and.include('Messages')
      .and.include('"issue_number": 1')
    expect(await detail.locator('a.trace-link').getAttribute('href')).to.match(
      /^\.\.\/\.\.\/results\/smoke\/traces\/issue-view-001__mcp__agent-loop__i\d__a1\.json$/,
    )

    const shot = path.join(tmp, 'report.png')
    await page.screenshot({path: shot, fullPage: true})
    await copyFile(shot, SCREENSHOT_COPY)
    const size = pngSize(await readFile(shot))
    expect(size.width).to.equal(1280)
    expect(size.height).to.be.above(2000)
    expect(watch.errors).to.deep.equal([])
    expect(watch.dialogs).to.deep.equal([])
    expect(watch.requests).to.deep.equal([pathToFileURL(html).href])
    await page.close()
  })

  it('links a trace it does not embed: the link opens the trace file from file://, and over http the page shows it', async () => {
    const config = await loadConfig({cwd: dir, env: {}})
    const {loaded, report} = await judge(config, {
      cwd: dir,
      runId: 'smoke',
      resamples: 500,
      report: true,
      gate: null,
      output: null,
    })
    const [file] = await writeHtmlReport({
      dir: path.join(dir, 'reports', 'linked'),
      loaded,
      report: report!,
      gate: null,
      verdict: null,
      cwd: dir,
      traceBudget: {totalBytes: 0, perTraceBytes: 0},
    })

    const local = await open(context, pathToFileURL(file!).href)
    await local.page.locator('#runs-table tbody tr').first().click()
    await local.page.locator('#run-detail .trace-box p').waitFor()
    expect(await local.page.locator('#run-detail .trace-box').textContent()).to.include('not embedded in the page')
    const href = (await local.page.locator('#run-detail a.trace-link').getAttribute('href'))!
    const target = fileURLToPath(new URL(href, local.page.url()))
    expect(existsSync(target), target).to.equal(true)
    const [opened] = await Promise.all([
      context.waitForEvent('page'),
      local.page.locator('#run-detail a.trace-link').click(),
    ])
    await opened.waitForLoadState()
    expect(opened.url()).to.equal(pathToFileURL(target).href)
    expect(await opened.locator('body').textContent()).to.include('"scenario_id"')
    expect(local.watch.errors).to.deep.equal([])
    await opened.close()
    await local.page.close()

    const server = await serve(dir)
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const remote = await open(context, `${base}/reports/linked/summary.html`)
      await remote.page.locator('#runs-table tbody tr').first().click()
      await remote.page.locator('#run-detail .trace .turns').waitFor()
      expect(remote.watch.errors).to.deep.equal([])
      expect(remote.watch.requests).to.have.length(2)
      expect(remote.watch.requests[1]).to.match(new RegExp(`^${base}/results/smoke/traces/.+__a1\\.json$`))
      await remote.page.close()
    } finally {
      server.close()
    }
  })

  it('stays responsive with 100,000 runs: the index decodes, filters, sorts and pages in the page', async () => {
    const modes = ['agent_direct', 'mcp', 'ghx']
    const lines: string[] = []
    for (let i = 0; i < 100_000; i++) {
      const mode = modes[i % 3]!
      lines.push(
        JSON.stringify(
          makeRow({
            run_id: 'big',
            scenario_id: `scenario-${(Math.floor(i / 3) % 50).toString().padStart(3, '0')}`,
            mode,
            iteration: Math.floor(i / 150) + 1,
            success: i % 23 !== 0,
            activeTokens: 500 + ((i * 7919) % 4000),
            latency_ms_wall: 1000 + ((i * 104_729) % 30_000),
          }),
        ),
      )
    }
    // Two files under the size at which rows are read by worker threads.
    const project = await makeProject({
      '.ghxbenchrc.yml': CONFIG,
      'rows/a.jsonl': lines.slice(0, 50_000).join('\n') + '\n',
      'rows/b.jsonl': lines.slice(50_000).join('\n') + '\n',
    })
    const config = await loadConfig({cwd: project, env: {}})
    const {files} = await judge(config, {
      cwd: project,
      inputs: ['rows'],
      resamples: 1000,
      report: true,
      gate: null,
      gateBeside: true,
      output: {cwd: project, out: 'report', formats: ['html'], env: {}},
    })
    const timings: string[] = []
    const time = async (label: string, action: () => Promise<unknown>) => {
      const started = performance.now()
      await action()
      timings.push(`${label} ${Math.round(performance.now() - started)} ms`)
    }
    let page!: Page
    let watch!: Watch
    await time(
      'open and show the first page',
      async () => ({page, watch} = await open(context, pathToFileURL(files[0]!).href)),
    )
    const status = (text: string) =>
      page.waitForFunction((expected) => document.querySelector('#runs-status')?.textContent === expected, text)
    await status('100,000 runs; 100,000 shown by the filters')
    await time('filter by mode', async () => {
      await page.selectOption('#f-mode', {label: 'mcp'})
      await status('100,000 runs; 33,333 shown by the filters')
    })
    await time('sort by active tokens', async () => {
      await page.click('#runs-table th[data-key="tokens_active"]')
      await page.waitForSelector('#runs-table th[data-key="tokens_active"]:has-text("▲")')
    })
    const tokens = await page.locator('#runs-table tbody tr td:nth-child(6)').allTextContents()
    const values = tokens.map((t) => Number(t.replace(/,/g, '')))
    expect(values).to.deep.equal([...values].sort((a, b) => a - b))
    await time('last page', async () => {
      await page.click('#p-last')
      await page.waitForSelector('#p-info:has-text("page 334 of 334")')
    })
    console.log(`      100,000 runs in Chromium: ${timings.join('; ')}`)
    expect(watch.errors).to.deep.equal([])
    await page.close()
  })

  it('pages through the runs and keeps hostile row content as text', async () => {
    const evil = '<img src=x onerror=alert(1)>'
    const rows: Row[] = []
    for (let i = 0; i < 250; i++) {
      rows.push(
        makeRow({
          run_id: 'evil',
          scenario_id: i % 5 === 0 ? evil : `scenario-${i % 5}`,
          mode: i % 2 ? '"><script>alert(2)</script>' : 'agent_direct',
          iteration: Math.floor(i / 10) + 1,
          success: i % 7 !== 0,
          error: i % 7 === 0 ? {type: 'x', message: '</script><script>alert(3)</script>'} : null,
        }),
      )
    }
    const project = await makeProject({
      '.ghxbenchrc.yml': CONFIG,
      'results/evil.jsonl': rows.map((r) => JSON.stringify(r)).join('\n') + '\n',
    })
    const config = await loadConfig({cwd: project, env: {}})
    const {files} = await judge(config, {
      cwd: project,
      runId: 'evil',
      resamples: 200,
      report: true,
      gate: null,
      gateBeside: true,
      output: {cwd: project, formats: ['html'], env: {}},
    })
    const {page, watch} = await open(context, pathToFileURL(files[0]!).href)
    expect(await page.locator('#runs-table tbody tr').count()).to.equal(100)
    expect(await page.locator('#p-info').textContent()).to.equal('runs 1–100 of 250 (page 1 of 3)')
    await page.click('#p-next')
    expect(await page.locator('#p-info').textContent()).to.equal('runs 101–200 of 250 (page 2 of 3)')
    await page.click('#p-last')
    expect(await page.locator('#runs-table tbody tr').count()).to.equal(50)
    await page.fill('#f-text', 'alert(3)')
    await page.waitForFunction(() =>
      document.querySelector('#runs-status')?.textContent?.endsWith('36 shown by the filters'),
    )
    await page.locator('#runs-table tbody tr').first().click()
    await page.locator('#run-detail .error').waitFor()
    expect(await page.locator('#run-detail .error').textContent()).to.equal('x: </script><script>alert(3)</script>')
    expect(await page.locator('#runs-table tbody td', {hasText: evil}).count()).to.be.above(0)
    expect(await page.locator('img').count()).to.equal(0)
    expect(await page.locator('script').count()).to.equal(4)
    expect(watch.dialogs).to.deep.equal([])
    expect(watch.errors).to.deep.equal([])
    await page.close()
  })
})
