// A tool spawner that dies during a run is the harness's failure, not the agent's: the run is recorded
// as an infrastructure error (and retried), never as a fail of the tool layer.
import {expect} from 'chai'
import {project, rowsOf, runCli, shellCommandScenario, suite} from '../support/reliability.js'

describe('reliability: a dead tool spawner', function () {
  this.timeout(120_000)

  it('is recorded as an infrastructure error of the run, with why, and retried', async () => {
    // The tool kills the process that started it: the tool spawner (its subreaper's parent; its own parent without perl).
    const killSpawner = `p=$(cut -d' ' -f4 /proc/$PPID/stat); case $(tr '\\\\0' ' ' < /proc/$p/cmdline) in *tool-spawner*) kill -9 $p;; *) kill -9 $PPID;; esac; sleep 5`
    const dir = await project({
      'catalogue/scenarios/repo-spawner-001.yml': shellCommandScenario('repo-spawner-001', 'A tool that kills the tool spawner', 60_000, killSpawner),
      'catalogue/spawner.yml': suite('spawner', ['repo-spawner-001'], ['infra_retries: 1']),
    })
    const result = await runCli(['run', 'catalogue/spawner.yml', '--run-id', 'spawner', '--no-report'], {cwd: dir, env: {CI: '1'}})
    expect(result.code, result.stderr).to.equal(0)
    const [row] = rowsOf(dir, 'spawner')
    expect(row!.outcome).to.equal('infra_error')
    expect(row!.error?.message).to.match(/tool spawner process stopped/)
    expect(row!.attempts, 'retried once').to.have.length(2)
  })
})
