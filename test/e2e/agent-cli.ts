// What the end-to-end tests of a real agent CLI (Claude Code, Codex) share: finding the pinned binary
// that scripts/ensure-<cli>.sh installed as the providers find it (never installing it: tests do not reach a registry), and
// running it to its end with a fresh home, a clean environment and a time limit, its JSON event
// stream read line by line.
import {spawn} from 'node:child_process'
import {readdirSync, readFileSync} from 'node:fs'
import {mkdir, mkdtemp, readdir, readFile, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {SERVED_LOG_VARIABLE, startScriptedModels, type ScriptedModels} from '../../src/agent/scripted-models.js'
import {findAgentCli, type AgentCli} from '../../src/plugin-kit/index.js'
import type {Row} from '../../src/results/row-schema.js'
import {makeProject, PROJECT_ROOT, runCli} from '../support/cli.js'
import {shellCommandScenario} from '../support/scenarios.js'

/**
 * In a describe: the pinned CLI and the scripted models on loopback for its tests, both ended after
 * them; the suite leaves itself out, saying so in one line, when the CLI is not installed.
 */
export function agentCliSuite(cli: AgentCli): {binary(): string; models(): ScriptedModels} {
  let binary: string | undefined
  let models: ScriptedModels | undefined
  before(async function () {
    binary = await findAgentCli(cli, {})
    if (!binary) {
      console.log(`    ${cli.title} not installed: run scripts/${cli.script}`)
      this.skip()
    }
    models = await startScriptedModels()
  })
  after(async () => {
    await models?.close()
    await removeFreshFolders()
  })
  return {binary: () => binary!, models: () => models!}
}

export interface CliRun {
  code: number | null
  events: Array<Record<string, unknown>>
  stderr: string
}

const folders: string[] = []

/** A folder of its own for one run's home, config and working directory (removed by removeFreshFolders). */
export async function freshFolder(name: string): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), `ghx-bench-${name}-`))
  folders.push(folder)
  return folder
}

export async function removeFreshFolders(): Promise<void> {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, {recursive: true, force: true})))
}

/**
 * Runs the CLI with only the given environment (and PATH): no credential of the caller's reaches it.
 * Its stdout is JSON lines; a line that is not JSON fails the test, as it would fail a provider.
 */
export function runJsonLines(
  binary: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
  timeoutMs = 90_000,
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    // TMPDIR the run's own folder: the CLIs keep sockets and scratch files there (Claude Code's cc-socks).
    const child = spawn(binary, args, {
      cwd,
      env: {PATH: process.env.PATH ?? '/usr/bin:/bin', TMPDIR: cwd, ...env},
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      try {
        const events = stdout
          .split('\n')
          .filter((line) => line.trim())
          .map((line) => JSON.parse(line) as Record<string, unknown>)
        resolve({code, events, stderr})
      } catch (error) {
        reject(
          new Error(
            `${path.basename(binary)} printed a line that is not JSON: ${(error as Error).message}\n${stdout.slice(0, 2000)}`,
          ),
        )
      }
    })
  })
}

/** The answers the scripted models served, a JSON line each (SERVED_LOG_VARIABLE). */
interface Served {
  run: string
  tools: string[]
  usage: {input: number; cacheRead: number; cacheWrite: number; output: number}
}

/** The CLIs' shell tools, as they offer them to the model. */
const SHELL_TOOLS = ['Bash', 'exec_command', 'write_stdin']

/** Processes alive now whose environment (or command line) holds `marker` (the test's own temporary folder, a command's unique argument). */
function processesMarked(marker: string, where: 'environ' | 'cmdline' = 'environ'): number[] {
  const found: number[] = []
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      if (readFileSync(`/proc/${name}/${where}`).includes(marker)) found.push(Number(name))
    } catch {
      // gone, or not ours to read
    }
  }
  return found
}

/**
 * In a describe: the whole pipeline, `ghx-bench run` on the sandbox with the scripted models, under
 * the provider driving `cli` (left out, in one line, when the CLI is not installed). A read and a
 * workflow of the smoke suite under agent_direct and mcp: the oracle passes them, noop fails them;
 * each row's tokens are, field by field, what the scripted models served its run; nothing of the
 * CLI's outlives the run, and nothing is written outside the project and the temporary folder
 * ghx-bench removes (the caller's HOME untouched).
 */
export function providerPipelineSuite(cli: AgentCli, provider: string): void {
  let binary: string | undefined
  let scratch: string
  before(async function () {
    binary = await findAgentCli(cli, {})
    if (!binary) {
      console.log(`    ${cli.title} not installed: run scripts/${cli.script}`)
      this.skip()
    }
    scratch = await freshFolder(`${provider}-pipeline`)
  })
  after(removeFreshFolders)

  it('oracle passes a read and a workflow under agent_direct and mcp, each row’s tokens what the model served; noop fails them; nothing is left behind', async () => {
    const [home, temp, served] = [
      path.join(scratch, 'home'),
      path.join(scratch, 'tmp'),
      path.join(scratch, 'served.jsonl'),
    ]
    await Promise.all([mkdir(home), mkdir(temp)])
    const dir = await makeProject({
      '.ghxbenchrc.yml': [
        'target: sandbox',
        'model: oracle',
        `provider: {name: ${provider}, options: {binary: ${JSON.stringify(binary)}}}`,
        `suites_dir: ${path.join(PROJECT_ROOT, 'suites')}`,
        `fixtures: {repo: ghx-bench/sandbox, manifest: fixtures/latest.json, seed_id: ${provider.slice(0, 2)}, sandbox_repos: [ghx-bench/sandbox]}`,
        '',
      ].join('\n'),
    })
    const env = {CI: '1', HOME: home, TMPDIR: temp, [SERVED_LOG_VARIABLE]: served}
    const suite = path.join(PROJECT_ROOT, 'suites', 'smoke.yml')
    // What is in /tmp itself before: a CLI that writes there whatever TMPDIR says (Codex's sandbox made /tmp/.git) is caught.
    const inSlashTmp = async () => (await readdir('/tmp')).filter((name) => !name.startsWith('ghx-bench-'))
    const slashTmpBefore = await inSlashTmp()
    const oracle = await runCli(
      ['run', suite, '--run-id', 'oracle', '--no-report', '-s', 'repo-view-001', '-s', 'issue-triage-comment-wf-001'],
      {cwd: dir, env},
    )
    expect(oracle.code, oracle.stderr + oracle.stdout).to.equal(0)
    const rows = (await readFile(path.join(dir, 'results', 'oracle.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Row)
    expect(rows.map((r) => `${r.scenario_id}/${r.mode}`).sort()).to.deep.equal([
      'issue-triage-comment-wf-001/agent_direct',
      'issue-triage-comment-wf-001/mcp',
      'repo-view-001/agent_direct',
      'repo-view-001/mcp',
    ])
    // One run at a time: the served answers, grouped by run in the order served, are the rows in the order recorded.
    const answers = (await readFile(served, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Served)
    const runs = [...new Set(answers.map((a) => a.run))].map((run) => answers.filter((a) => a.run === run))
    expect(runs).to.have.length(rows.length)
    for (const [index, row] of rows.entries()) {
      const what = `${row.scenario_id}/${row.mode}`
      expect(row.outcome, `${what}: ${row.error?.message}`).to.equal('pass')
      expect(row.provider).to.equal(provider)
      expect(row.versions.runtime, what).to.deep.equal({[provider]: cli.version})
      const sum = (field: keyof Served['usage']) => runs[index]!.reduce((total, a) => total + a.usage[field], 0)
      expect(
        {
          input: row.tokens.input,
          cache_read: row.tokens.cache_read,
          cache_write: row.tokens.cache_write,
          output: row.tokens.output,
          reasoning: row.tokens.reasoning,
        },
        what,
      ).to.deep.equal({
        input: sum('input'),
        cache_read: sum('cacheRead'),
        cache_write: sum('cacheWrite'),
        output: sum('output'),
        reasoning: 0,
      })
      const offered = runs[index]![0]!.tools
      const trace = JSON.parse(await readFile(path.join(dir, 'results', row.trace!), 'utf8')) as {
        runtime: {tools?: string[]}
        turns: Array<{tool_calls: Array<{tool: string}>}>
      }
      // What the CLI says it offered (when it says) is what the model was offered.
      if (trace.runtime.tools) expect(trace.runtime.tools, what).to.have.members(offered)
      if (row.mode === 'mcp') {
        expect(row.tool_calls.by_category?.mcp_tool, what).to.be.at.least(1)
        expect(row.tool_calls.by_category?.gh_cli, what).to.equal(undefined)
        // The server's tools and no shell (Codex adds built-ins of its own no switch turns off: view_image, MCP resource reads).
        expect(
          offered.filter((tool) => tool.includes('github')),
          what,
        ).to.have.length.above(10)
        expect(
          offered.filter((tool) => SHELL_TOOLS.includes(tool)),
          what,
        ).to.deep.equal([])
      } else {
        expect(
          offered.filter((tool) => tool.includes('github')),
          what,
        ).to.deep.equal([])
        expect(row.tool_calls.by_category?.gh_cli, what).to.be.at.least(1)
        expect(row.tool_calls.by_category?.mcp_tool, what).to.equal(undefined)
      }
    }
    const noop = await runCli(
      ['run', suite, '--run-id', 'noop', '--model', 'noop', '--no-report', '-s', 'repo-view-001'],
      {cwd: dir, env},
    )
    expect(noop.code, noop.stderr + noop.stdout).to.equal(0)
    const noopRows = (await readFile(path.join(dir, 'results', 'noop.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Row)
    expect(noopRows.map((r) => `${r.mode}:${r.outcome}:${r.tool_calls.total}`).sort()).to.deep.equal([
      'agent_direct:fail:0',
      'mcp:fail:0',
    ])
    // Every process of the CLI (and of what it started) carried the test's temporary folder in its environment.
    expect(processesMarked(temp)).to.deep.equal([])
    // tsx, which runs ghx-bench from source here, keeps its compile cache there (tsx-<uid>).
    const left = (await readdir(temp)).filter((name) => !name.startsWith('tsx-'))
    expect(left, 'the temporary folder (ghx-bench’s root, the CLI’s homes in it) is removed').to.deep.equal([])
    expect(await readdir(home), 'the caller’s HOME').to.deep.equal([])
    expect(
      (await inSlashTmp()).filter((name) => !slashTmpBefore.includes(name)),
      'new in /tmp',
    ).to.deep.equal([])
  })

  it('a run that hangs is timed out, and the CLI and the command it was running are gone', async () => {
    // Not `sleep`: Claude Code refuses a long sleep in the foreground. The marker is tail's poll interval.
    const marker = `${Date.now() % 100000}.${provider.length}7`
    const dir = await makeProject({
      '.ghxbenchrc.yml': `target: sandbox\nmodel: oracle\nprovider: {name: ${provider}, options: {binary: ${JSON.stringify(binary)}}}\nsuites_dir: catalogue\nfixtures: {seed_id: hang}\n`,
      'catalogue/hang.yml': 'name: hang\nscenarios: {ids: [repo-hang-001]}\nmodes: [agent_direct]\n',
      'catalogue/scenarios/repo-hang-001.yml': shellCommandScenario(
        'repo-hang-001',
        'A tool that never returns',
        8000,
        `tail -f /dev/null -s ${marker}`,
      ),
    })
    const temp = path.join(scratch, 'hang-tmp')
    await mkdir(temp)
    const result = await runCli(['run', 'catalogue/hang.yml', '--run-id', 'hang', '--no-report'], {
      cwd: dir,
      env: {CI: '1', TMPDIR: temp},
    })
    expect(result.code, result.stderr).to.equal(0)
    const row = JSON.parse((await readFile(path.join(dir, 'results', 'hang.jsonl'), 'utf8')).trim()) as Row
    expect(row.outcome).to.equal('timeout')
    expect(processesMarked(temp)).to.deep.equal([])
    expect(processesMarked(marker, 'cmdline')).to.deep.equal([])
  })
}
