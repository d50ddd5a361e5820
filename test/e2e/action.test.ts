// The GitHub Action (action.yml, a composite action). GitHub itself cannot run here, so: its structure
// is checked (every expression names a declared input or an output a step writes, every ghx-bench
// flag exists, every script parses), and its shell steps are run in order by a small stand-in for the
// runner, against a project init scaffolded, with the packed package as the action's checkout and the
// sandbox GitHub as the pull request the report is commented on.
import {execFile, spawn} from 'node:child_process'
import {mkdir, mkdtemp, readFile, realpath, symlink, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {promisify} from 'node:util'
import {expect} from 'chai'
import {parse} from 'yaml'
import GateCommand from '../../src/commands/gate.js'
import MergeCommand from '../../src/commands/merge.js'
import ReportCommand from '../../src/commands/report.js'
import RunCommand from '../../src/commands/run.js'
import {BaseCommand} from '../../src/cli/base-command.js'
import {startSandbox, type Sandbox} from '../../src/emulator/index.js'
import {PROJECT_ROOT} from '../support/cli.js'
import {offlineEnv, packedPackage, runNode, type PackedPackage} from '../support/packed.js'

const exec = promisify(execFile)

interface Step {
  name?: string
  id?: string
  if?: string
  uses?: string
  with?: Record<string, string>
  run?: string
  shell?: string
  env?: Record<string, string>
  'working-directory'?: string
}

interface Action {
  name: string
  description: string
  inputs: Record<string, {description: string; required?: boolean; default?: string}>
  outputs: Record<string, {description: string; value: string}>
  runs: {using: string; steps: Step[]}
}

const ACTION_FILE = path.join(PROJECT_ROOT, 'action.yml')
const loadAction = async () => parse(await readFile(ACTION_FILE, 'utf8')) as Action
const EXPRESSION = /\$\{\{\s*([\s\S]*?)\s*\}\}/g
const stepLabel = (step: Step, index: number) => step.id ?? step.name ?? `#${index}`

/** Every string of a step, with where it sits (for messages). */
function strings(value: unknown, at: string): Array<{at: string; text: string}> {
  if (typeof value === 'string') return [{at, text: value}]
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${at}[${i}]`))
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => strings(v, `${at}.${k}`))
  return []
}

const OUTPUT_WRITES = (script: string) =>
  new Set([...script.matchAll(/(?:^|[\s"'])([a-z][a-z0-9-]*)(?:=|<<)/gm)].map((m) => m[1]!))

// --- a stand-in for the runner: GitHub's expressions as far as action.yml uses them -----------------

interface Contexts {
  inputs: Record<string, string>
  steps: Record<string, {outputs: Record<string, string>}>
  github: Record<string, unknown>
  runner: Record<string, string>
}

function lookup(reference: string, contexts: Contexts): string {
  let value: unknown = contexts
  for (const part of reference.split('.'))
    value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : ''
}

function evaluate(expression: string, contexts: Contexts): string | boolean {
  const terms = expression.split('&&').map((t) => t.trim())
  if (terms.length > 1) return terms.every((t) => evaluate(t, contexts) === true)
  if (expression === 'always()') return true
  const comparison = expression.match(/^([\w.-]+)\s*(==|!=)\s*'([^']*)'$/)
  if (comparison) return (lookup(comparison[1]!, contexts) === comparison[3]) === (comparison[2] === '==')
  if (/^[\w-]+(\.[\w-]+)+$/.test(expression)) return lookup(expression, contexts)
  throw new Error(`the stand-in runner does not know the expression "${expression}"`)
}

const interpolate = (text: string, contexts: Contexts) =>
  text.replace(EXPRESSION, (_, expression: string) => String(evaluate(expression, contexts)))

function condition(text: string, contexts: Contexts): boolean {
  const inner = text.trim().match(/^\$\{\{([\s\S]*)\}\}$/)
  return evaluate((inner ? inner[1]! : text).trim(), contexts) === true
}

/** GITHUB_OUTPUT's format: name=value lines and name<<DELIMITER blocks. */
function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const block = lines[i]!.match(/^([^=<]+)<<(.+)$/)
    if (block) {
      const body: string[] = []
      while (++i < lines.length && lines[i] !== block[2]) body.push(lines[i]!)
      outputs[block[1]!] = body.join('\n')
    } else if (lines[i]!.includes('=')) {
      const at = lines[i]!.indexOf('=')
      outputs[lines[i]!.slice(0, at)] = lines[i]!.slice(at + 1)
    }
  }
  return outputs
}

interface ActionRun {
  outputs: Record<string, string>
  steps: Contexts['steps']
  /** Steps run (or skipped / only recorded) in order, with what they printed. */
  log: Array<{step: string; status: 'ok' | 'failed' | 'skipped' | 'uses'; output: string}>
  /** The uses: steps as they would be called (with: evaluated). */
  uses: Array<{uses: string; with: Record<string, string>}>
  failed: boolean
  summary: string
}

async function runAction(
  action: Action,
  options: {
    inputs: Record<string, string>
    workspace: string
    actionPath: string
    github: Record<string, unknown>
    env?: NodeJS.ProcessEnv
    stepEnv?: Record<string, NodeJS.ProcessEnv>
  },
): Promise<ActionRun> {
  const temp = await mkdtemp(path.join(tmpdir(), 'ghx-bench-runner-'))
  const summaryFile = path.join(temp, 'step-summary.md')
  await writeFile(summaryFile, '')
  const inputs = Object.fromEntries(
    Object.entries(action.inputs).map(([name, spec]) => [name, options.inputs[name] ?? spec.default ?? '']),
  )
  for (const name of Object.keys(options.inputs)) if (!(name in action.inputs)) throw new Error(`no input ${name}`)
  const contexts: Contexts = {inputs, steps: {}, github: options.github, runner: {temp}}
  const result: ActionRun = {outputs: {}, steps: contexts.steps, log: [], uses: [], failed: false, summary: ''}
  for (const [index, step] of action.runs.steps.entries()) {
    const label = stepLabel(step, index)
    // The default condition is success(); only always() runs after a failure.
    if ((result.failed && !step.if?.includes('always()')) || (step.if && !condition(step.if, contexts))) {
      result.log.push({step: label, status: 'skipped', output: ''})
      continue
    }
    if (step.uses) {
      result.uses.push({
        uses: step.uses,
        with: Object.fromEntries(
          Object.entries(step.with ?? {}).map(([k, v]) => [k, interpolate(String(v), contexts)]),
        ),
      })
      result.log.push({step: label, status: 'uses', output: ''})
      continue
    }
    const outputFile = path.join(temp, `output-${index}`)
    await writeFile(outputFile, '')
    const script = path.join(temp, `step-${index}.sh`)
    await writeFile(script, step.run!)
    const env = {
      ...offlineEnv(options.env),
      GITHUB_ACTIONS: 'true',
      GITHUB_ACTION_PATH: options.actionPath,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_WORKSPACE: options.workspace,
      GITHUB_RUN_ID: '4242',
      GITHUB_RUN_ATTEMPT: '1',
      GITHUB_SERVER_URL:
        typeof options.github.server_url === 'string' ? options.github.server_url : 'https://github.com',
      RUNNER_TEMP: temp,
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, interpolate(String(v), contexts)])),
      ...options.stepEnv?.[step.name ?? ''],
    }
    const cwd = path.resolve(options.workspace, interpolate(step['working-directory'] ?? '.', contexts))
    // What GitHub runs for shell: bash.
    const {code, output} = await new Promise<{code: number; output: string}>((resolve, reject) => {
      const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
        cwd,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let output = ''
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
      child.on('error', reject)
      child.on('close', (c) => resolve({code: c ?? -1, output}))
    })
    if (step.id) contexts.steps[step.id] = {outputs: parseOutputs(await readFile(outputFile, 'utf8'))}
    result.log.push({step: label, status: code === 0 ? 'ok' : 'failed', output})
    if (code !== 0) result.failed = true
  }
  result.outputs = Object.fromEntries(
    Object.entries(action.outputs).map(([name, spec]) => [name, interpolate(spec.value, contexts)]),
  )
  result.summary = await readFile(summaryFile, 'utf8')
  return result
}

const stepOutput = (run: ActionRun, name: string) => run.log.find((l) => l.step === name)?.output ?? ''
const dump = (run: ActionRun) => run.log.map((l) => `--- ${l.step} (${l.status})\n${l.output}`).join('\n')

describe('the GitHub Action (action.yml)', function () {
  this.timeout(600_000)

  describe('structure', () => {
    let action: Action
    before(async () => {
      action = await loadAction()
    })

    it('is a composite action whose inputs and outputs are documented, with only suite required', () => {
      expect(action.runs.using).to.equal('composite')
      expect(action.name).to.equal('ghx-bench')
      for (const [name, input] of Object.entries(action.inputs))
        expect(input.description, name).to.be.a('string').with.length.above(10)
      expect(
        Object.entries(action.inputs)
          .filter(([, i]) => i.required)
          .map(([n]) => n),
      ).to.deep.equal(['suite'])
      for (const [name, output] of Object.entries(action.outputs))
        expect(output.description, name).to.be.a('string').with.length.above(10)
      expect(Object.keys(action.inputs)).to.include.members([
        'suite',
        'profile',
        'modes',
        'repetitions',
        'model',
        'working-directory',
        'node-version',
        'ghx-bench-source',
        'github-token',
        'fail-on-gate',
        'fail-on-inconclusive',
      ])
    })

    it('every ${{ inputs.x }} is declared, and every declared input is used', () => {
      const used = new Set<string>()
      for (const {at, text} of strings(action.runs, 'runs')) {
        for (const [, expression] of text.matchAll(EXPRESSION)) {
          for (const [, name] of expression!.matchAll(/\binputs\.([\w-]+)/g)) {
            expect(action.inputs, `${at}: inputs.${name}`).to.have.property(name!)
            used.add(name!)
          }
        }
      }
      expect(Object.keys(action.inputs).filter((name) => !used.has(name))).to.deep.equal([])
    })

    it('every steps.<id>.outputs.<name> names an earlier step that writes that output', () => {
      const written = new Map<string, Set<string>>()
      const check = (text: string, at: string) => {
        for (const [, expression] of text.matchAll(EXPRESSION)) {
          for (const [, id, name] of expression!.matchAll(/\bsteps\.([\w-]+)\.outputs\.([\w-]+)/g)) {
            expect(written.has(id!), `${at}: step ${id} does not come earlier`).to.equal(true)
            expect([...written.get(id!)!], `${at}: step ${id} does not write ${name}`).to.include(name)
          }
        }
      }
      for (const [index, step] of action.runs.steps.entries()) {
        for (const {at, text} of strings(step, `step ${stepLabel(step, index)}`)) check(text, at)
        if (step.id) written.set(step.id, OUTPUT_WRITES(step.run ?? ''))
      }
      for (const [name, output] of Object.entries(action.outputs)) check(output.value, `outputs.${name}`)
    })

    it('scripts are bash, take inputs through env only (no expression inside a script) and parse', async () => {
      for (const [index, step] of action.runs.steps.entries()) {
        if (step.uses) continue
        const label = stepLabel(step, index)
        expect(step.shell, label).to.equal('bash')
        expect(step.run, label).to.be.a('string')
        expect(step.run, `${label}: an expression in a script is a script injection`).not.to.match(/\$\{\{/)
        await exec('bash', ['-n', '-c', step.run!]).catch((error: {stderr: string}) =>
          expect.fail(`${label}: ${error.stderr}`),
        )
      }
    })

    it('uses only pinned major versions of GitHub’s own actions, with their real inputs', () => {
      const known: Record<string, string[]> = {
        'actions/setup-node@v4': ['node-version'],
        'actions/upload-artifact@v4': ['name', 'path', 'if-no-files-found'],
      }
      const uses = action.runs.steps.filter((s) => s.uses)
      expect(uses.map((s) => s.uses)).to.deep.equal(Object.keys(known))
      for (const step of uses) expect(known[step.uses!], step.uses).to.include.members(Object.keys(step.with ?? {}))
    })

    it('calls ghx-bench commands with flags they have, and files the package has', async () => {
      const bench = action.runs.steps.find((s) => s.id === 'bench')!.run!
      const commands = {run: RunCommand, report: ReportCommand, gate: GateCommand, merge: MergeCommand}
      const common = Object.keys(BaseCommand.baseFlags)
      let checked = 0
      for (const [, command, append, body] of bench.matchAll(
        /\b(run|report|gate|merge|common)_args(\+?)=\(([^)]*)\)/g,
      )) {
        // run_args=(run ...), report_args=(report ...): each array starts with its command.
        if (command !== 'common' && !append) expect(body!.split(/\s+/)[0], body).to.equal(command)
        for (const [, flag] of body!.matchAll(/(?:^|\s)--([a-z][a-z-]*)/g)) {
          const owners = command === 'common' ? Object.values(commands) : [commands[command as keyof typeof commands]]
          for (const owner of owners)
            expect([...Object.keys(owner.flags ?? {}), ...common], `${command}: --${flag}`).to.include(flag)
          checked++
        }
      }
      expect(checked).to.be.above(8)
      // The action's own checkout is the package: what it builds and runs must be there.
      const pkg = JSON.parse(await readFile(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>
        oclif: {commands: {target: string}}
        bin: Record<string, string>
      }
      const install = action.runs.steps.find((s) => s.id === 'install')!.run!
      expect(install).to.include('npm ci')
      expect(pkg.scripts.prepare, 'npm ci builds it').to.be.a('string')
      expect(install).to.include(`$GITHUB_ACTION_PATH/${pkg.oclif.commands.target.replace(/^\.\//, '')}`)
      expect(install).to.include('bin/run.js')
      expect(pkg.bin['ghx-bench']).to.equal('./bin/run.js')
      await readFile(path.join(PROJECT_ROOT, 'package-lock.json')).catch(() =>
        expect.fail('npm ci needs package-lock.json'),
      )
    })
  })

  describe('run by a stand-in for the runner', () => {
    let action: Action
    let pkg: PackedPackage
    let sandbox: Sandbox
    let ghConfig: string

    before(async () => {
      action = await loadAction()
      pkg = await packedPackage()
      sandbox = await startSandbox()
      ghConfig = await mkdtemp(path.join(tmpdir(), 'ghx-bench-gh-'))
    })
    after(async () => {
      await sandbox?.close()
    })

    /** A project scaffolded by the packed CLI's init, as the workflow's checkout. */
    async function workspace(): Promise<string> {
      const dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-workspace-'))
      const init = await runNode([pkg.bin, 'init'], {cwd: dir})
      expect(init.code, init.stderr).to.equal(0)
      // A project that gates ghx, on a runner without it (init, finding no ghx, gated mcp): the run stops before
      // its first run (exit 2) unless told --no-gate, when the runs decide and the action says no-gate.
      const suite = path.join(dir, 'suites', 'example.yml')
      await writeFile(suite, (await readFile(suite, 'utf8')).replace(/^ {2}candidate: mcp .*$/m, '  candidate: ghx'))
      return dir
    }

    async function markerComments(issue: number): Promise<Array<{id: number; body: string}>> {
      const response = await fetch(`${sandbox.url}/repos/ghx-bench/sandbox/issues/${issue}/comments?per_page=100`, {
        headers: {authorization: `token ${sandbox.token}`},
      })
      const comments = (await response.json()) as Array<{id: number; body: string}>
      return comments.filter((c) => c.body.startsWith('<!-- ghx-bench report:'))
    }

    it('on a pull request: runs the suite, summary once, artifact paths, one PR comment updated in place on the next push', async () => {
      const dir = await workspace()
      const created = await fetch(`${sandbox.url}/repos/ghx-bench/sandbox/issues`, {
        method: 'POST',
        headers: {authorization: `token ${sandbox.token}`, 'content-type': 'application/json'},
        body: JSON.stringify({title: 'A pull request under review', body: 'ghx-bench comments here'}),
      })
      const pr = ((await created.json()) as {number: number}).number
      // gh reaches the sandbox as GitHub (the comment step only; the benchmark has its own sandbox).
      const {GH_TOKEN: _token, ...ghEnv} = sandbox.ghEnv(ghConfig)
      const options = {
        // install-gh off everywhere here: tests reach nothing but 127.0.0.1 (npm test installs gh beforehand).
        // The suite's gate (ghx against agent_direct) cannot be computed without ghx: --no-gate records the rows
        // of the modes that can run, with no gate verdict.
        inputs: {
          suite: 'suites/example.yml',
          repetitions: '1',
          args: '--no-gate',
          'github-token': sandbox.token,
          'install-gh': 'false',
        },
        workspace: dir,
        actionPath: pkg.root,
        github: {
          event_name: 'pull_request',
          event: {pull_request: {number: pr}},
          repository: 'ghx-bench/sandbox',
          server_url: 'https://github.localhost',
          token: sandbox.token,
        },
        stepEnv: {'Comment on the pull request': ghEnv},
      }
      const first = await runAction(action, options)
      expect(first.failed, dump(first)).to.equal(false)
      expect(first.log.map((l) => `${l.step}:${l.status}`)).to.deep.equal([
        'Set up Node.js:uses',
        'install:ok',
        'Install the GitHub CLI if missing:ok',
        'bench:ok',
        'Comment on the pull request:ok',
        'Upload the reports:uses',
        'Judge:ok',
      ])
      expect(stepOutput(first, 'install')).to.include(`ghx-bench 0.1.0 from ${pkg.root}`)
      expect(first.outputs['exit-code']).to.equal('0')
      expect(first.outputs.verdict).to.equal('no-gate')
      expect(stepOutput(first, 'bench')).to.match(/^verdict: PASS \(exit 0\): no gate: all \d+ runs passed$/m)
      expect(first.outputs['run-id']).to.match(/^example-4242-1-\d{8}T\d{6}Z$/)
      const runId = first.outputs['run-id']!
      expect(first.outputs['report-dir']).to.equal(path.join(await realpath(dir), 'reports', runId))
      expect(await readFile(path.join(first.outputs['report-dir']!, 'summary.md'), 'utf8')).to.include(
        '# ghx-bench report',
      )

      // The harness appended its report to the job summary; the action added nothing (no gate was asked for).
      expect(first.summary.match(/^# ghx-bench report$/gm)).to.have.length(1)
      expect(first.summary).to.not.include('Gate skipped')

      const [, upload] = first.uses
      expect(upload!.uses).to.equal('actions/upload-artifact@v4')
      expect(upload!.with.name).to.equal(`ghx-bench-${runId}`)
      const root = await realpath(dir)
      expect(upload!.with.path!.split('\n').sort()).to.deep.equal([
        path.join(root, 'reports', runId),
        path.join(root, 'results', runId),
        path.join(root, 'results', `${runId}.jsonl`),
      ])
      expect(first.uses[0]).to.deep.equal({uses: 'actions/setup-node@v4', with: {'node-version': '20'}})

      expect(stepOutput(first, 'Comment on the pull request')).to.include(`posted the report on #${pr}`)
      const [comment] = await markerComments(pr)
      expect(comment!.body).to.include(`## ghx-bench: \`suites/example.yml\` — no gate\n`)
      expect(comment!.body).to.include(`Run \`${runId}\``)
      expect(comment!.body).to.include('<details><summary>Report</summary>')

      // The next push: the same comment, edited.
      const second = await runAction(action, options)
      expect(second.failed, dump(second)).to.equal(false)
      expect(stepOutput(second, 'Comment on the pull request')).to.include(`updated the report comment on #${pr}`)
      const comments = await markerComments(pr)
      expect(comments.map((c) => c.id)).to.deep.equal([comment!.id])
      expect(comments[0]!.body).to.include(`Run \`${second.outputs['run-id']}\``)
    })

    it('with a profile: run, then report and gate; a failed gate fails the job unless fail-on-gate is off', async () => {
      const dir = await workspace()
      // ghx-bench-source: project: the project's own install.
      await mkdir(path.join(dir, 'node_modules'))
      await symlink(pkg.root, path.join(dir, 'node_modules', 'ghx-bench'))
      // Decision ci decides nothing from cells of fewer than 3 runs: 3 repetitions.
      const inputs = {
        suite: 'suites/example.yml',
        'ghx-bench-source': 'project',
        modes: 'agent_direct, mcp',
        repetitions: '3',
        profile: 'verify_pr',
        candidate: 'mcp',
        'github-token': 'unused-here',
        'install-gh': 'false',
      }
      const options = {
        inputs,
        workspace: dir,
        actionPath: '/nonexistent',
        github: {event_name: 'push', repository: 'o/r'},
      }
      const gated = await runAction(action, options)
      // On the oracle the mcp arm sends about ten times the tokens of the gh arm: the gate fails.
      expect(gated.outputs.verdict, dump(gated)).to.equal('fail')
      expect(gated.outputs['exit-code']).to.equal('1')
      expect(stepOutput(gated, 'bench')).to.match(
        /ghx-bench run suites\/example\.yml --run-id \S+ --mode agent_direct --mode mcp --repetitions 3 --no-report/,
      )
      expect(stepOutput(gated, 'Comment on the pull request')).to.include('not a pull request')
      expect(gated.log.at(-1)).to.include({step: 'Judge', status: 'failed'})
      expect(gated.log.at(-1)!.output).to.include('::error::ghx-bench: the gate failed')
      expect(await readFile(path.join(gated.outputs['report-dir']!, 'gate.json'), 'utf8')).to.include(
        '"candidate": "mcp"',
      )
      // report and gate each appended their markdown once.
      expect(gated.summary.match(/^# ghx-bench report$/gm)).to.have.length(1)

      const tolerated = await runAction(action, {...options, inputs: {...inputs, 'fail-on-gate': 'false'}})
      expect(tolerated.failed, dump(tolerated)).to.equal(false)
      expect(tolerated.log.at(-1)!.output).to.include(
        '::warning::ghx-bench: the gate failed, or with no gate a run failed (fail-on-gate is off)',
      )
    })

    it('bad input fails the job, with the harness’s message in the job summary', async () => {
      const dir = await workspace()
      const run = await runAction(action, {
        inputs: {suite: 'suites/missing.yml', 'install-gh': 'false'},
        workspace: dir,
        actionPath: pkg.root,
        github: {event_name: 'push'},
      })
      expect(run.failed).to.equal(true)
      expect(run.outputs['exit-code']).to.equal('2')
      expect(run.outputs.verdict).to.equal('error')
      expect(run.outputs['report-dir']).to.equal('')
      expect(run.summary).to.include('### ghx-bench: suites/missing.yml failed (exit code 2)')
      expect(run.summary).to.include('suites/missing.yml')
      expect(run.log.find((l) => l.step === 'Upload the reports')!.status).to.equal('skipped')
      expect(run.log.at(-1)!.output).to.include('::error::ghx-bench failed with exit code 2')
      // A suite whose gate needs a mode that cannot run here (ghx) stops before its first run: bad input, said.
      const gated = await runAction(action, {
        inputs: {suite: 'suites/example.yml', repetitions: '1', 'install-gh': 'false'},
        workspace: dir,
        actionPath: pkg.root,
        github: {event_name: 'push'},
      })
      expect(gated.failed).to.equal(true)
      expect(gated.outputs['exit-code']).to.equal('2')
      expect(gated.outputs.verdict).to.equal('error')
      expect(gated.summary).to.include('### ghx-bench: suites/example.yml failed (exit code 2)')
      expect(gated.summary).to.match(/needs its candidate mode ghx, which cannot run here: .*or pass --no-gate/)
    })
  })
})
