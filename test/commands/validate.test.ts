// `ghx-bench validate` from the command line: each error class at its exact file:line:col, exit 2.
import path from 'node:path'
import {expect} from 'chai'
import {loadProfile} from '../../src/catalogue/profiles.js'
import {undersizedSuiteWarning} from '../../src/report/gate/power.js'
import {PACKAGE_ROOT} from '../../src/shared/package-paths.js'
import {makeProject} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'
import {SUITES} from '../support/sandbox-project.js'
import {shellCommandScenario} from '../support/scenarios.js'

const verifyRelease = await loadProfile('verify_release', path.join(PACKAGE_ROOT, 'suites'))

const SCENARIO_HEADER = '# yaml-language-server: $schema=../../schemas/scenario.schema.json\n'

const validScenario = (id: string, extra = ''): string =>
  SCENARIO_HEADER +
  [
    'type: workflow',
    `id: ${id}`,
    'name: A scenario',
    'fixture:',
    '  bindings: {issue: resources.issue.number}',
    'prompt: Read issue {{issue}} in {{owner}}/{{repo}}.',
    'assertions:',
    '  expected_outcome: success',
    '  checkpoints:',
    '    - name: viewed',
    '      task: issue.view',
    '      input: {owner: "{{owner}}", name: "{{repo}}", issueNumber: "{{issue}}"}',
    '      condition: {type: non_empty}',
  ].join('\n') +
  '\n' +
  extra

async function validateIn(files: Record<string, string>, args: string[] = []) {
  const dir = await makeProject(files)
  return runCliInProcess(['validate', ...args], {cwd: dir})
}

describe('ghx-bench validate (CLI)', () => {
  it('passes on the built-in catalogue', async () => {
    const result = await runCliInProcess(['validate'])
    // Every built-in suite can pass its own gate; verify-release, at the predecessors' limits, is smaller than they need and says how much.
    expect(result.stderr).to.equal(`warning: ${undersizedSuiteWarning('verify-release', verifyRelease, 12, 20)}\n`)
    expect(result.stderr).to.match(
      /suite verify-release .* is smaller than its gate verify_release needs: .* 80% takes \d+ scenarios × \d+/,
    )
    expect(result.code).to.equal(0)
    expect(result.stdout).to.match(/^ok: \.ghxbenchrc\.yml, 4 suites, 71 scenarios, 17 sets, 2 profiles/)
  })

  it('warns (exit 0) about a suite too small to pass its own gate, naming the check and the runs it needs', async () => {
    const dir = await makeProject({
      '.ghxbenchrc.yml': `suites_dir: ${SUITES}\n`,
      'small.yml':
        '# yaml-language-server: $schema=schemas/suite.schema.json\nname: small\nscenarios: {ids: [repo-view-001, pr-view-001]}\nmodes: [agent_direct, ghx]\nrepetitions: 3\ngate: {profile: verify_pr, baseline: agent_direct, candidate: ghx}\n',
    })
    const result = await runCliInProcess(['validate', 'small.yml'], {cwd: dir})
    expect(result.code, result.stderr).to.equal(0)
    expect(result.stderr).to.match(
      /^warning: suite small \(2 scenarios × 3 repetitions\) cannot pass its gate verify_pr: reliability_timeout_stall_rate: .*6 runs cannot pass it \(with none, it takes \d+ runs\)/m,
    )
  })

  it('warns (exit 0) under the oracle about a suite mode a scenario has no reference plan for: every such run would fail', async () => {
    const files = (model: string) => ({
      '.ghxbenchrc.yml': `model: ${model}\nsuites_dir: catalogue\n`,
      'catalogue/scenarios/repo-echo-001.yml': shellCommandScenario(
        'repo-echo-001',
        'A plan for gh only',
        8000,
        'gh repo view',
      ),
      'catalogue/two.yml': 'name: two\nscenarios: {ids: [repo-echo-001]}\nmodes: [agent_direct, mcp]\n',
    })
    const oracle = await runCliInProcess(['validate'], {cwd: await makeProject(files('oracle'))})
    expect(oracle.code, oracle.stderr).to.equal(0)
    expect(oracle.stderr.trim()).to.equal(
      'warning: suite two: the oracle model has no reference plan under mcp for repo-echo-001: every such run fails (give reference.mcp, or not_applicable.mcp: reason)',
    )
    // Another model does not play the plans.
    const noop = await runCliInProcess(['validate'], {cwd: await makeProject(files('noop'))})
    expect(noop.code, noop.stderr).to.equal(0)
    expect(noop.stderr).to.equal('')
  })

  it('reports a YAML syntax error at its line and column, with the line and a caret', async () => {
    const result = await validateIn({'suites/scenarios/bad-001.yml': 'type: workflow\nid: bad-001\nname: [unclosed\n'})
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include('suites/scenarios/bad-001.yml:4:1 error: YAML syntax:')
    expect(result.stderr).not.to.match(/\n\s+at /)
  })

  it('reports a schema violation at the offending value', async () => {
    const result = await validateIn({
      'suites/scenarios/one-001.yml': validScenario('one-001').replace(
        'name: A scenario',
        'name: A scenario\ntimeout_ms: 5',
      ),
    })
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include('suites/scenarios/one-001.yml:5:13 error: timeout_ms must be >= 1000')
    expect(result.stderr).to.include(' 5 | timeout_ms: 5\n   |             ^')
  })

  it('reports an unknown key at the key, with a did-you-mean hint', async () => {
    const result = await validateIn({
      'suites/scenarios/one-001.yml': validScenario('one-001').replace('prompt:', 'promt: x\nprompt:'),
    })
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include(
      'suites/scenarios/one-001.yml:7:1 error: unknown key "promt" (did you mean "prompt"?)',
    )
  })

  it('reports a duplicate scenario id with where it was first defined', async () => {
    const result = await validateIn({
      'suites/scenarios/one-001.yml': validScenario('one-001'),
      'suites/scenarios/more/one-001.yml': validScenario('one-001').replace('$schema=../../', '$schema=../../../'),
    })
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include(
      'suites/scenarios/one-001.yml:3:5 error: duplicate scenario id "one-001" (first defined at suites/scenarios/more/one-001.yml:3:5)',
    )
  })

  it('reports an unknown set member at the list item', async () => {
    const result = await validateIn({
      'suites/scenarios/one-001.yml': validScenario('one-001'),
      'suites/sets/mine.yml': 'name: mine\nscenarios:\n  - one-001\n  - one-002\n',
    })
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include(
      'suites/sets/mine.yml:4:5 error: unknown scenario "one-002" in set "mine" (did you mean "one-001"?)',
    )
  })

  it('reports an unbound placeholder at the placeholder itself', async () => {
    const result = await validateIn({
      'suites/scenarios/one-001.yml': validScenario('one-001').replace('Read issue {{issue}}', 'Read issue {{isue}}'),
    })
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include(
      'suites/scenarios/one-001.yml:7:20 error: unbound placeholder {{isue}}: bind "isue" in fixture.bindings (did you mean "issue"?)',
    )
  })

  it('refuses an atomic scenario that changes GitHub without reading it back, or reads without checking its answer', async () => {
    const atomic = (id: string, task: string, checkpoints = '') =>
      SCENARIO_HEADER +
      [
        `type: atomic`,
        `id: ${id}`,
        'name: An atomic scenario',
        `tags: [${task.endsWith('.view') ? 'read' : 'mutation'}]`,
        'fixture:',
        '  bindings: {issue: resources.issue.number}',
        `task: ${task}`,
        'input: {owner: "{{owner}}", name: "{{repo}}", issueNumber: "{{issue}}"}',
        'assertions:',
        '  expected_outcome: success',
      ].join('\n') +
      '\n' +
      checkpoints
    const shapeOnly =
      '  checkpoints:\n    - name: has_title\n      task: issue.view\n      input: {owner: "{{owner}}", name: "{{repo}}", issueNumber: "{{issue}}"}\n      condition: {type: non_empty, path: title}\n'
    const truth =
      '  checkpoints:\n    - name: answer_true\n      task: issue.view\n      input: {owner: "{{owner}}", name: "{{repo}}", issueNumber: "{{issue}}"}\n      condition: {type: agrees_with, path: title, value: "{{answer.title}}"}\n'
    const result = await validateIn({
      'suites/scenarios/close-001.yml': atomic('close-001', 'issue.close'),
      'suites/scenarios/view-001.yml': atomic('view-001', 'issue.view', shapeOnly),
      'suites/scenarios/view-002.yml': atomic('view-002', 'issue.view', truth),
    })
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include(
      'suites/scenarios/close-001.yml:11:3 error: task "issue.close" changes GitHub: add a checkpoint that reads the state it must leave',
    )
    expect(result.stderr).to.include(
      'suites/scenarios/view-001.yml:11:3 error: task "issue.view" reads GitHub: add a checkpoint that compares {{answer}} with what GitHub holds',
    )
    expect(result.stderr).to.not.include('view-002')
  })

  it('{{answer}}, {{final_text}} and {{input}} are bound in checkpoints only', async () => {
    const result = await validateIn({
      'suites/scenarios/one-001.yml': validScenario('one-001').replace(
        'Read issue {{issue}}',
        'Read issue {{answer.number}}',
      ),
    })
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include('error: unbound placeholder {{answer.number}}: bind "answer" in fixture.bindings')
    expect(result.stderr).to.include('("answer" is known only to checkpoints)')
    const workflowInput = await validateIn({
      'suites/scenarios/one-001.yml': validScenario('one-001').replace(
        'condition: {type: non_empty}',
        'condition: {type: mentioned_in, path: title, text: "{{input}}"}',
      ),
    })
    expect(workflowInput.stderr, 'a workflow has no input').to.include('unbound placeholder {{input}}')
    const fine = await validateIn({
      'suites/scenarios/one-001.yml': validScenario('one-001').replace(
        'condition: {type: non_empty}',
        'condition: {type: mentioned_in, path: title, text: "{{final_text}}"}',
      ),
    })
    expect(fine.code, fine.stderr).to.equal(0)
  })

  it('reports a binding path that is not a dotted path', async () => {
    const result = await validateIn({
      'suites/scenarios/one-001.yml': validScenario('one-001').replace('resources.issue.number', 'resources..number'),
    })
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include(
      'suites/scenarios/one-001.yml:6:21 error: fixture.bindings.issue "resources..number" is not a dotted path',
    )
  })

  it('reports every error of a file at once, sorted by line', async () => {
    const broken = validScenario('one-001')
      .replace('name: A scenario', 'nam: A scenario')
      .replace('Read issue {{issue}}', 'Read issue {{nope}}')
    const result = await validateIn({'suites/scenarios/one-001.yml': broken})
    expect(result.code).to.equal(2)
    const locations = [...result.stderr.matchAll(/^(suites\/\S+:\d+:\d+) error/gm)].map((m) => m[1])
    expect(locations).to.deep.equal([
      'suites/scenarios/one-001.yml:2:1', // missing name (the document)
      'suites/scenarios/one-001.yml:4:1', // unknown key nam
      'suites/scenarios/one-001.yml:7:20', // unbound placeholder
    ])
    expect(result.stderr).to.include('3 problem(s) in 1 file(s)')
  })

  it('checks condition parameters against the condition, and names unknown conditions', async () => {
    const scenario = validScenario('one-001')
      .replace('condition: {type: non_empty}', 'condition: {type: count_gte, value: many}')
      .concat('')
    const other = validScenario('two-001').replace(
      'condition: {type: non_empty}',
      'condition: {type: cont_eq, value: 1}',
    )
    const result = await validateIn({'suites/scenarios/one-001.yml': scenario, 'suites/scenarios/two-001.yml': other})
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include(
      'suites/scenarios/one-001.yml:14:43 error: condition count_gte: assertions.checkpoints[0].condition.value must be an integer, not string',
    )
    expect(result.stderr).to.include(
      'suites/scenarios/two-001.yml:14:25 error: unknown condition "cont_eq" (did you mean "count_eq"?)',
    )
  })

  it('refuses a mutation scenario in a read-only set and suite', async () => {
    const mutation = validScenario('close-001').replace('name: A scenario', 'name: A scenario\ntags: [mutation]')
    const result = await validateIn({
      'suites/scenarios/close-001.yml': mutation,
      'suites/sets/checks.yml': 'name: checks\nread_only: true\nscenarios: [close-001]\n',
      'suites/checks.yml': 'name: checks\nscenarios: {ids: [close-*]}\nmodes: [agent_direct]\nread_only: true\n',
    })
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include(
      'suites/sets/checks.yml:3:13 error: set "checks" is read-only but "close-001" is tagged mutation',
    )
    expect(result.stderr).to.include(
      'suites/checks.yml:4:12 error: the suite is read-only but selects "close-001", which is tagged mutation',
    )
  })

  it('checks that suites reference real sets, scenarios, profiles and their own modes', async () => {
    const result = await validateIn({
      'suites/scenarios/one-001.yml': validScenario('one-001'),
      'suites/s.yml':
        'name: s\nscenarios: {set: nope, ids: [one-001, zzz-*]}\nmodes: [agent_direct, agent_direct]\ngate: {profile: verify_prr, candidate: ghx}\n',
    })
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include('suites/s.yml:2:18 error: unknown set "nope"')
    expect(result.stderr).to.include('suites/s.yml:2:39 error: pattern "zzz-*" matches no scenario')
    expect(result.stderr).to.include('suites/s.yml:3:23 error: mode "agent_direct" is listed twice')
    expect(result.stderr).to.include(
      'suites/s.yml:4:17 error: unknown profile "verify_prr" (did you mean "verify_pr"?)',
    )
    expect(result.stderr).to.include(
      'suites/s.yml:4:40 error: gate candidate "ghx" is not one of the suite\'s modes (agent_direct, agent_direct)',
    )
  })

  it('validates only the named files and what they reference', async () => {
    const result = await validateIn(
      {
        'suites/scenarios/one-001.yml': validScenario('one-001'),
        'suites/scenarios/broken-001.yml': 'type: atomic\n',
        'suites/s.yml': 'name: s\nscenarios: {ids: [one-001]}\nmodes: [agent_direct]\n',
      },
      ['suites/s.yml'],
    )
    // Nothing of broken-001, which s does not reference; only the warning that the oracle has no plan for one-001.
    expect(result.stderr.trim()).to.match(
      /^warning: suite s: the oracle model has no reference plan under agent_direct for one-001/,
    )
    expect(result.code).to.equal(0)
  })

  it('a named file fails for an error in what it references, however deep, and not for one elsewhere', async () => {
    const dir = await makeProject({
      'suites/scenarios/one-001.yml': validScenario('one-001'),
      'suites/scenarios/two-001.yml': 'type: atomic\n',
      'suites/scenarios/other-001.yml': 'type: atomic\n',
      'suites/sets/pair.yml': 'name: pair\nscenarios: [one-001, two-001]\n',
      'suites/s.yml': 'name: s\nscenarios: {set: pair}\nmodes: [agent_direct]\n',
      'suites/t.yml': 'name: t\nscenarios: {ids: [one-*]}\nmodes: [agent_direct]\n',
    })
    const validate = (...files: string[]) => runCliInProcess(['validate', ...files], {cwd: dir})
    // t selects one-001 only: two-001 (in pair) and other-001 are broken, and none of its business.
    for (const good of [['suites/t.yml'], ['suites/scenarios/one-001.yml']]) {
      const result = await validate(...good)
      expect(result.code, `${good.join(' ')}: ${result.stderr}`).to.equal(0)
      expect(result.stderr).to.not.include('two-001')
    }
    // s reaches two-001 through its set: its error is the suite's to report, other-001's is not.
    const suite = await validate('suites/s.yml')
    expect(suite.code).to.equal(2)
    expect(suite.stderr).to.include('suites/scenarios/two-001.yml:1:1 error:')
    expect(suite.stderr).to.not.include('other-001')
    expect((await validate('suites/scenarios/two-001.yml')).code).to.equal(2)
  })

  it('a named file keeps its did-you-mean hints and its duplicate check from the files it does not read', async () => {
    const result = await validateIn(
      {
        'suites/scenarios/one-001.yml': validScenario('one-001'),
        'suites/scenarios/more/one-001.yml': validScenario('one-001').replace('$schema=../../', '$schema=../../../'),
        'suites/scenarios/two-001.yml': validScenario('two-001'),
        'suites/s.yml': 'name: s\nscenarios: {ids: [two-01]}\nmodes: [agent_direct]\ngate: {profile: verify_prr}\n',
      },
      ['suites/s.yml', 'suites/scenarios/one-001.yml'],
    )
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include('suites/s.yml:2:19 error: unknown scenario "two-01" (did you mean "two-001"?)')
    expect(result.stderr).to.include(
      'suites/s.yml:4:17 error: unknown profile "verify_prr" (did you mean "verify_pr"?)',
    )
    expect(result.stderr).to.include(
      'suites/scenarios/one-001.yml:3:5 error: duplicate scenario id "one-001" (first defined at suites/scenarios/more/one-001.yml:3:5)',
    )
  })

  it('gives machine-readable findings with --json', async () => {
    const result = await validateIn(
      {'suites/scenarios/one-001.yml': validScenario('one-001').replace('prompt:', 'promt: x\nprompt:')},
      ['--json'],
    )
    expect(result.code).to.equal(2)
    const report = JSON.parse(result.stdout) as {ok: boolean; diagnostics: Array<Record<string, unknown>>}
    expect(report.ok).to.equal(false)
    expect(report.diagnostics[0]).to.include({
      file: 'suites/scenarios/one-001.yml',
      line: 7,
      col: 1,
      code: 'unknown_key',
    })
  })

  it('reports config errors at their place in .ghxbenchrc.yml and from the environment', async () => {
    const result = await runCliInProcess(['validate'], {
      cwd: await makeProject({'.ghxbenchrc.yml': 'target: sandboxx\nresults_dir: out\n'}),
      env: {GHX_BENCH_FIXTURES_REPO: 'not a repo'},
    })
    expect(result.code).to.equal(2)
    expect(result.stderr).to.include(
      '.ghxbenchrc.yml:1:9 error: target is "sandboxx", expected one of: sandbox, live (did you mean "sandbox"?)',
    )
    expect(result.stderr).to.include(
      '$GHX_BENCH_FIXTURES_REPO error: fixtures.repo "not a repo" is not a repository as owner/name',
    )
  })
})
