// Defect 7: exit codes mean one thing each: 0 pass, 1 gate fail, 2 bad input or usage (naming the
// file, flag or plugin; a gate the suite names whose mode cannot run here, before the first run), 3
// inconclusive (a gate that cannot be computed from the rows included), 4 internal error. Under --json every error is JSON.
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import path from 'node:path'
import {expect} from 'chai'
import {makeRow} from '../support/rows.js'
import {makeProject, project, runCli, shellCommandScenario, type CliResult} from '../support/reliability.js'

const BOMB = [
  'a: &a [x, x, x, x, x, x, x, x, x]',
  'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
  'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
  'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
  'name: *d',
  '',
].join('\n')

const BAD_SCHEMA_PLUGIN = `export default {apiVersion: 1, name: 'odd-plugin', version: '1.0.0', conditions: [{name: 'odd', paramsSchema: {type: 'object', properties: {x: {type: 'nonsense'}}}, evaluate: () => ({passed: true, expected: 1, actual: 1, message: ''})}]}\n`
const THROWING_PLUGIN = `export default {apiVersion: 1, name: 'boom-plugin', version: '1.0.0', conditions: [{name: 'boom', paramsSchema: {type: 'object'}, evaluate: () => { throw new TypeError('boom: a bug in a plugin') }}]}\n`

function workflow(id: string, condition: string): string {
  return [
    'type: workflow',
    `id: ${id}`,
    'name: w',
    'prompt: do it',
    'assertions:',
    '  expected_outcome: success',
    '  checkpoints:',
    '    - name: c',
    '      task: repo.view',
    '      input: {owner: "{{owner}}", name: "{{repo}}"}',
    `      condition: ${condition}`,
    '',
  ].join('\n')
}

interface Case {
  name: string
  files?: Record<string, string>
  config?: string
  args: string[]
  /** What the message must name. */
  names: RegExp
  /** Also checked under --json. */
  json?: boolean
}

const CASES: Case[] = [
  {
    name: 'a YAML alias bomb',
    files: {'catalogue/bomb.yml': BOMB},
    args: ['validate'],
    names: /catalogue\/bomb\.yml:1:1 error: YAML: Excessive alias count/,
    json: true,
  },
  {
    name: 'an undefined alias',
    files: {'catalogue/alias.yml': 'name: *nowhere\n'},
    args: ['validate'],
    names: /catalogue\/alias\.yml:1:7 error: YAML: Unresolved alias .*nowhere/,
  },
  {
    name: 'a plugin with an invalid schema',
    files: {'plug/index.js': BAD_SCHEMA_PLUGIN},
    config: 'plugins: [./plug/index.js]',
    args: ['validate'],
    names: /plugin "\.\/plug\/index\.js": conditions\[0\] "odd" has a paramsSchema that is not a valid JSON Schema/,
  },
  {
    name: 'a truncated JSON array',
    files: {'in/rows.json': '[{"schema_version": 1, "run_id": "x"'},
    args: ['report', '--input', 'in/rows.json'],
    names: /in\/rows\.json:1:1 error: not JSON/,
    json: true,
  },
  {
    name: '--format xml',
    args: ['report', '--input', 'in/rows.jsonl', '--format', 'xml'],
    names: /--format error: unknown format "xml"/,
  },
  {
    name: '--out onto a file',
    files: {'a-file': 'x'},
    args: ['report', '--input', 'in/rows.jsonl', '--out', 'a-file'],
    names: /--out error: a-file is a file, not a folder/,
  },
  {
    name: 'init onto an existing file',
    files: {'a-file': 'x'},
    args: ['init', 'a-file'],
    names: /a-file error: is a file, not a folder/,
  },
  {
    name: 'field_matches flags "ii"',
    files: {
      'catalogue/scenarios/repo-match-001.yml': workflow(
        'repo-match-001',
        '{type: field_matches, path: name, pattern: x, flags: ii}',
      ),
    },
    args: ['validate'],
    names: /repo-match-001\.yml:11:\d+ error: condition field_matches: .*flags "ii"/,
  },
  {
    name: 'suites_dir: nope',
    config: 'suites_dir: nope',
    args: ['validate'],
    names: /nope error: suites_dir: no such folder/,
  },
  {
    name: 'a ragged CSV import',
    files: {'in/results.csv': 'run_id,scenario_id,mode,timing_wall_ms\nr,s,agent_direct,1,surplus\n'},
    args: ['report', '--input', 'in/results.csv'],
    names: /in\/results\.csv error: record 1 after the header has 5 field\(s\), the header has 4/,
  },
  {
    name: '--inject-faults ""',
    args: ['run', 'catalogue/one.yml', '--inject-faults', '', '--dry-run'],
    names: /--inject-faults error: expected a share between 0 and 1, got ""/,
    json: true,
  },
  {
    name: 'fixtures reset --kinds bogus',
    args: ['fixtures', 'reset', '--kinds', 'bogus,issue_for_traige'],
    names: /--kinds error: unknown fixture kind "bogus"[\s\S]*did you mean "issue_for_triage"/,
    json: true,
  },
  {name: 'an unknown flag', args: ['report', '--no-such-flag'], names: /^--no-such-flag error: unknown flag/m},
]

describe('reliability: exit codes', function () {
  this.timeout(120_000)

  it('every bad input exits 2 naming the file, flag or plugin, and is JSON under --json', async () => {
    const run = async (c: Case): Promise<[Case, CliResult, CliResult | undefined]> => {
      const dir = await project({...c.files, 'in/rows.jsonl': JSON.stringify(makeRow({})) + '\n'})
      // YAML refuses duplicate keys: the case's own setting replaces the default's line.
      if (c.config) {
        const file = path.join(dir, '.ghxbenchrc.yml')
        const key = c.config.split(':')[0]!
        writeFileSync(
          file,
          readFileSync(file, 'utf8')
            .split('\n')
            .filter((line) => !line.startsWith(`${key}:`))
            .join('\n') + `\n${c.config}\n`,
        )
      }
      return [c, await runCli(c.args, {cwd: dir}), c.json ? await runCli([...c.args, '--json'], {cwd: dir}) : undefined]
    }
    const results = await Promise.all(CASES.map(run))
    for (const [c, plain, json] of results) {
      expect(plain.code, `${c.name}: ${plain.stderr}${plain.stdout}`).to.equal(2)
      expect(plain.stderr, c.name).to.match(c.names)
      expect(plain.stderr, c.name).to.not.match(/\n\s+at /)
      if (!json) continue
      expect(json.code, `${c.name} --json`).to.equal(2)
      const lines = json.stdout.trim().split('\n')
      expect(
        () => JSON.parse(json.stdout.trim().startsWith('{"type"') ? lines.at(-1)! : json.stdout),
        `${c.name} --json: ${json.stdout}`,
      ).to.not.throw()
      expect(
        JSON.parse(json.stdout.trim().startsWith('{"type"') ? lines.at(-1)! : json.stdout),
        c.name,
      ).to.deep.include({ok: false})
    }
  })

  it('an internal error (a plugin that throws) exits 4, not 1, and is JSON under --json', async () => {
    const dir = await makeProject({
      '.ghxbenchrc.yml': 'target: sandbox\nsuites_dir: catalogue\nplugins: [./plug/index.js]\n',
      'plug/index.js': THROWING_PLUGIN,
      'catalogue/scenarios/repo-boom-001.yml': workflow('repo-boom-001', '{type: boom}'),
    })
    const row = makeRow({
      scenario_id: 'repo-boom-001',
      scenario_type: 'workflow',
      variables: {},
      checkpoints: [{name: 'c', passed: true, result: {name: 'x'}}],
    })
    mkdirSync(path.join(dir, 'in'))
    writeFileSync(path.join(dir, 'in', 'rows.jsonl'), JSON.stringify(row) + '\n')
    const [plain, json] = await Promise.all([
      runCli(['regrade', '--input', 'in/rows.jsonl'], {cwd: dir}),
      runCli(['regrade', '--input', 'in/rows.jsonl', '--json'], {cwd: dir}),
    ])
    expect(plain.code, plain.stderr).to.equal(4)
    expect(plain.stderr).to.match(/^internal error: boom: a bug in a plugin/)
    expect(json.code).to.equal(4)
    expect(JSON.parse(json.stdout)).to.deep.include({
      ok: false,
      error: {name: 'TypeError', message: 'boom: a bug in a plugin', exit: 4},
    })
  })

  it('run: a gate the suite names whose mode cannot run here stops before its first run, 2; with --no-gate, gate over the rows is inconclusive, 3, never 0', async () => {
    const dir = await project({
      'catalogue/scenarios/repo-probe-001.yml': shellCommandScenario('repo-probe-001', 'Probe', 20_000, 'true'),
      'catalogue/gated.yml': [
        'name: gated',
        'scenarios: {ids: [repo-probe-001]}',
        'modes: [{name: agent_direct, options: {gh: /nonexistent/gh}}, mcp]',
        'repetitions: 1',
        'infra_retries: 0',
        'gate: {profile: verify_pr, baseline: agent_direct, candidate: mcp}',
        '',
      ].join('\n'),
    })
    const result = await runCli(['run', 'catalogue/gated.yml', '--run-id', 'gated'], {cwd: dir, env: {CI: '1'}})
    expect(result.code, result.stderr + result.stdout).to.equal(2)
    expect(result.stderr).to.match(
      /^catalogue\/gated\.yml error: gate verify_pr \(mcp against agent_direct\) needs its baseline mode agent_direct, which cannot run here: gh not found.*Stopped before the first run, nothing run: .*or pass --no-gate/m,
    )
    const recorded = await runCli(['run', 'catalogue/gated.yml', '--run-id', 'gated', '--no-gate'], {
      cwd: dir,
      env: {CI: '1'},
    })
    // The runs decide: mcp has no shell for the probe's plan, its run failed.
    expect(recorded.code, recorded.stderr + recorded.stdout).to.equal(1)
    expect(recorded.stdout.trim().split('\n').at(-1)).to.equal('verdict: FAIL (exit 1): no gate: 1 of 1 run failed')
    const gate = await runCli(['gate', '--run-id', 'gated'], {cwd: dir})
    expect(gate.code, gate.stderr + gate.stdout).to.equal(3)
    expect(gate.stdout).to.match(
      /verdict: INCONCLUSIVE \(exit 3\): the gate cannot be computed: the gate compares agent_direct with mcp, and agent_direct: gh not found/,
    )
  })
})
