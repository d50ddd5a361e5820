// The in-process CLI (test/support/cli-in-process.ts), which most command tests use, against the bin as a
// child process: the same stdout, stderr and exit code for a success, bad input (with and without --json),
// an unknown command, an internal error, and a setting from the environment. (oclif's help wraps at the
// terminal's width, which a child through a pipe does not have: no help here.)
import {mkdirSync, writeFileSync} from 'node:fs'
import path from 'node:path'
import {expect} from 'chai'
import {makeRow} from '../support/rows.js'
import {makeProject, runCli, type CliResult} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'

const THROWING_PLUGIN = `export default {apiVersion: 1, name: 'boom-plugin', version: '1.0.0', conditions: [{name: 'boom', paramsSchema: {type: 'object'}, evaluate: () => { throw new TypeError('boom: a bug in a plugin') }}]}\n`
const SCENARIO = [
  'type: workflow',
  'id: repo-boom-001',
  'name: w',
  'prompt: do it',
  'assertions:',
  '  expected_outcome: success',
  '  checkpoints:',
  '    - {name: c, task: repo.view, condition: {type: boom}}',
  '',
].join('\n')

async function project(): Promise<string> {
  const dir = await makeProject({
    '.ghxbenchrc.yml': 'target: sandbox\nsuites_dir: catalogue\nplugins: [./plug/index.js]\n',
    'plug/index.js': THROWING_PLUGIN,
    'catalogue/scenarios/repo-boom-001.yml': SCENARIO,
    'broken/.ghxbenchrc.yml': 'target: sandboxx\n',
  })
  const row = makeRow({
    scenario_id: 'repo-boom-001',
    scenario_type: 'workflow',
    variables: {},
    checkpoints: [{name: 'c', passed: true, result: {name: 'x'}}],
  })
  mkdirSync(path.join(dir, 'in'))
  writeFileSync(path.join(dir, 'in', 'rows.jsonl'), JSON.stringify(row) + '\n')
  return dir
}

describe('the in-process CLI (test support)', function () {
  this.timeout(60_000)

  it('gives what the bin gives: stdout, stderr and the exit code', async () => {
    const dir = await project()
    const cases: Array<{args: string[]; cwd?: string; env?: NodeJS.ProcessEnv; code: number}> = [
      {args: ['validate'], code: 0},
      {args: ['plugins', '--json'], code: 0},
      {args: ['nope'], code: 2},
      {args: ['validate'], cwd: path.join(dir, 'broken'), code: 2},
      {args: ['validate', '--json'], cwd: path.join(dir, 'broken'), code: 2},
      {args: ['validate'], env: {GHX_BENCH_FIXTURES_REPO: 'not a repo'}, code: 2},
      {args: ['regrade', '--input', 'in/rows.jsonl', '--out', 'out.jsonl'], code: 4},
      {args: ['regrade', '--input', 'in/rows.jsonl', '--out', 'out.jsonl', '--json'], code: 4},
    ]
    for (const {args, cwd = dir, env, code} of cases) {
      const child: CliResult = await runCli(args, {cwd, env})
      const inProcess = await runCliInProcess(args, {cwd, env})
      const name = `${args.join(' ')} (in ${path.relative(dir, cwd) || 'the project'})`
      expect(child.code, `${name}: ${child.stderr}`).to.equal(code)
      expect(inProcess, name).to.deep.equal(child)
    }
  })
})
