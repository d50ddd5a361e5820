// A tool spawner that dies during a run is the harness's failure, not the agent's: the run is recorded
// as an infrastructure error (and retried), never as a fail of the tool layer.
import {expect} from 'chai'
import {
  marker,
  project,
  rowsOf,
  runCli,
  shellCommandScenario,
  sleep,
  sleepsOf,
  suite,
  toolSpawnerAbove,
} from '../support/reliability.js'

describe('reliability: a dead tool spawner', function () {
  this.timeout(120_000)

  it('is recorded as an infrastructure error of the run, with why, and retried', async () => {
    // The test kills the spawner from outside while the tool runs, at each attempt: a tool cannot see it
    // from inside its PID namespace.
    const m = marker()
    const dir = await project({
      'catalogue/scenarios/repo-spawner-001.yml': shellCommandScenario(
        'repo-spawner-001',
        'A tool whose spawner dies under it',
        60_000,
        `sleep ${m}`,
      ),
      'catalogue/spawner.yml': suite('spawner', ['repo-spawner-001'], ['infra_retries: 1']),
    })
    const running = runCli(['run', 'catalogue/spawner.yml', '--run-id', 'spawner', '--no-report'], {
      cwd: dir,
      env: {CI: '1'},
    })
    for (let attempt = 1; attempt <= 2; attempt++) {
      let sleeps: string[]
      while ((sleeps = sleepsOf(m)).length === 0) await sleep(250)
      process.kill(toolSpawnerAbove(Number(sleeps[0]!.trim().split(/\s+/)[0])), 'SIGKILL')
      while (sleepsOf(m).length > 0) await sleep(250)
    }
    const result = await running
    expect(result.code, result.stderr).to.equal(0)
    const [row] = rowsOf(dir, 'spawner')
    expect(row!.outcome).to.equal('infra_error')
    expect(row!.error?.message).to.match(/tool spawner process stopped/)
    expect(row!.attempts, 'retried once').to.have.length(2)
  })
})
