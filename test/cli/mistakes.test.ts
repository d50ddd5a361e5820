// A user's typing mistakes: each is bad input (exit 2) said in one line, naming what was typed and what it was
// probably meant to be; never a usage dump, never a folder the user did not name.
import {expect} from 'chai'
import {makeProject, type CliResult} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'

const oneLine = (result: CliResult): string => {
  expect(result.code, result.stdout + result.stderr).to.equal(2)
  const lines = result.stderr.trim().split('\n')
  expect(lines, result.stderr).to.have.length(1)
  return lines[0]!
}

describe('typing mistakes (CLI)', function () {
  this.timeout(60_000)
  let dir: string
  before(async () => {
    dir = await makeProject({
      '.ghxbenchrc.yml': 'target: sandbox\nmodel: oracle\n',
      'suites/example.yml': 'name: example\nscenarios: {ids: [x]}\nmodes: [agent_direct]\n',
    })
  })

  it('a mistyped command, with the words after it, and a topic’s mistyped command', async () => {
    expect(oneLine(await runCliInProcess(['rn', 'suites/example.yml'], {cwd: dir}))).to.equal(
      'ghx-bench rn error: unknown command (did you mean "ghx-bench run"?); ghx-bench --help lists the commands',
    )
    expect(oneLine(await runCliInProcess(['fixtures', 'sed'], {cwd: dir}))).to.equal(
      'ghx-bench fixtures sed error: unknown command (did you mean "ghx-bench fixtures seed"?); ghx-bench --help lists the commands',
    )
  })

  it('a mistyped flag, and one given with its value', async () => {
    expect(oneLine(await runCliInProcess(['run', 'suites/example.yml', '--repetitons', '2'], {cwd: dir}))).to.equal(
      '--repetitons error: unknown flag (did you mean "--repetitions"?); ghx-bench run --help lists its flags',
    )
    expect(oneLine(await runCliInProcess(['gate', '--profle=verify_pr'], {cwd: dir}))).to.match(
      /^--profle=verify_pr error: unknown flag \(did you mean "--profile"\?\)/,
    )
  })

  it('a missing argument and a value not among the options', async () => {
    expect(oneLine(await runCliInProcess(['run'], {cwd: dir}))).to.equal(
      'ghx-bench run error: Missing 1 required arg: suite (the suite YAML file); ghx-bench run --help lists its flags',
    )
    expect(oneLine(await runCliInProcess(['gate', '--decision', 'foo'], {cwd: dir}))).to.equal(
      'ghx-bench gate error: Expected --decision=foo to be one of: ci, point; ghx-bench gate --help lists its flags',
    )
  })

  it('a flag value its parser refuses (a number out of range or not one), said in one line naming the flag', async () => {
    expect(oneLine(await runCliInProcess(['run', 'suites/example.yml', '-r', '1e12'], {cwd: dir}))).to.equal(
      '--repetitions error: Expected an integer but received: 1e12; ghx-bench run --help lists its flags',
    )
    expect(oneLine(await runCliInProcess(['run', 'suites/example.yml', '--concurrency', '0'], {cwd: dir}))).to.equal(
      '--concurrency error: Expected an integer greater than or equal to 1 but received: 0; ghx-bench run --help lists its flags',
    )
    expect(oneLine(await runCliInProcess(['gate', '--seed', '-1'], {cwd: dir}))).to.match(
      /^--seed error: Expected an integer greater than or equal to 0 but received: -1; ghx-bench gate --help/,
    )
    // Without a bound, plan's simulation of 10^9 datasets ran for days.
    expect(
      oneLine(await runCliInProcess(['plan', 'suites/example.yml', '--datasets', '1000000000'], {cwd: dir})),
    ).to.match(/^--datasets error: Expected an integer less than or equal to 100000 but received: 1000000000/)
    expect(oneLine(await runCliInProcess(['init', 'x', '--shards', '1000000000'], {cwd: dir}))).to.match(
      /^--shards error: Expected an integer less than or equal to 1024 but received: 1000000000/,
    )
    expect(oneLine(await runCliInProcess(['report', '--compare', 'x', '--tolerance', 'abc'], {cwd: dir}))).to.equal(
      '--tolerance error: must be a number >= 0, not "abc"',
    )
  })

  it('a mistyped suite path, with the suite file it was probably meant to be', async () => {
    expect(oneLine(await runCliInProcess(['run', 'suites/exmple.yml'], {cwd: dir}))).to.equal(
      'suites/exmple.yml error: no such suite file (did you mean "suites/example.yml"?)',
    )
  })

  it('a mistyped --profile, reported at the flag', async () => {
    expect(oneLine(await runCliInProcess(['gate', '--profile', 'verify_rp'], {cwd: dir}))).to.equal(
      '--profile error: unknown profile "verify_rp" (did you mean "verify_pr"?)',
    )
  })
})
