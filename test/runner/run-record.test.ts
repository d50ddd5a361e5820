// A run id's record before a resume: the rows already recorded must come from the same suite, model,
// provider, modes and seed as the run that resumes them (issue 27, item 2: rows of two models mixed).
// And the tools a ghx-bench of this project left running end as a run opens; another project's do not
// (issue 33, item 4).
import {spawn} from 'node:child_process'
import path from 'node:path'
import {expect} from 'chai'
import {checkResume, openRunRecord, type RecordedRun, type RunIdentity} from '../../src/runner/run-record.js'
import {BadInputError} from '../../src/shared/diagnostics.js'
import {marker, scratch, sleep, sleepsOf} from '../support/reliability.js'

const now: RunIdentity = {
  suite: 'smoke',
  model: 'ghx-bench/oracle',
  providers: ['agent-loop'],
  modes: ['agent_direct', 'ghx'],
  seed: 1,
}

function recorded(overrides: Partial<RecordedRun> = {}): RecordedRun {
  return {
    keys: new Set(['a/agent_direct/agent-loop/1', 'a/ghx/agent-loop/1']),
    suites: new Set(['smoke']),
    models: new Set(['ghx-bench/oracle']),
    providers: new Set(['agent-loop']),
    modes: new Set(['agent_direct', 'ghx']),
    info: {
      run_id: 'x',
      suite: 'smoke',
      seed: 1,
      modes: ['agent_direct'],
      providers: ['agent-loop'],
      unavailable: [{mode: 'ghx', reason: 'ghx not found'}],
      not_applicable: [],
    },
    ...overrides,
  }
}

function refusal(record: RecordedRun, identity: RunIdentity = now): string {
  try {
    checkResume(record, identity, 'x', '/p/results/x.jsonl', '/p')
  } catch (error) {
    expect(error).to.be.instanceOf(BadInputError)
    const [diagnostic] = (error as BadInputError).diagnostics
    expect(diagnostic).to.include({file: 'results/x.jsonl', code: 'config'})
    return diagnostic!.message
  }
  expect.fail('checkResume should refuse')
}

describe('run record: resuming a run id', () => {
  it('resumes rows of the same run (modes left out by preflight count as planned), and any run id with no rows', () => {
    expect(() => checkResume(recorded(), now, 'x', '/p/results/x.jsonl', '/p')).to.not.throw()
    expect(() =>
      checkResume(
        recorded({keys: new Set(), models: new Set()}),
        {...now, model: 'other', seed: 9},
        'x',
        '/p/results/x.jsonl',
        '/p',
      ),
    ).to.not.throw()
  })

  it('names every difference: suite, model (also two models already mixed), providers, modes, seed', () => {
    expect(refusal(recorded(), {...now, suite: 'full', providers: ['opencode']})).to.equal(
      'run id "x" holds 2 row(s) of another run: recorded with suite "smoke" (now "full"); providers "agent-loop" (now "opencode"). Resuming adds rows to the same run: resume with the suite, model, providers, modes and seed it was recorded with, or choose another --run-id',
    )
    expect(refusal(recorded({models: new Set(['ghx-bench/oracle', 'ghx-bench/noop'])}))).to.include(
      'recorded with model "ghx-bench/oracle", "ghx-bench/noop" (now "ghx-bench/oracle")',
    )
    expect(refusal(recorded(), {...now, modes: ['ghx']})).to.include('recorded with modes agent_direct, ghx (now ghx)')
    expect(refusal(recorded(), {...now, seed: 2})).to.include('recorded with seed 1 (now 2)')
  })

  it('resumes a run of several providers with the same providers only (run.json names them, whatever rows are recorded yet)', () => {
    const two = recorded({info: {...recorded().info!, providers: ['agent-loop', 'claude-code']}})
    expect(() =>
      checkResume(two, {...now, providers: ['claude-code', 'agent-loop']}, 'x', '/p/results/x.jsonl', '/p'),
    ).to.not.throw()
    expect(refusal(two)).to.include('recorded with providers "agent-loop", "claude-code" (now "agent-loop")')
    // Before run.json named providers: the rows' provider must be one of the run's.
    expect(() =>
      checkResume(
        recorded({info: undefined}),
        {...now, providers: ['agent-loop', 'codex']},
        'x',
        '/p/results/x.jsonl',
        '/p',
      ),
    ).to.not.throw()
    expect(refusal(recorded({info: undefined}), {...now, providers: ['codex']})).to.include(
      'recorded with providers "agent-loop" (now "codex")',
    )
  })

  it('without run.json, refuses rows of a mode the run does not have', () => {
    expect(() =>
      checkResume(
        recorded({info: undefined}),
        {...now, modes: ['agent_direct', 'ghx', 'mcp'], seed: 5},
        'x',
        '/p/results/x.jsonl',
        '/p',
      ),
    ).to.not.throw()
    expect(refusal(recorded({info: undefined}), {...now, modes: ['agent_direct']})).to.include(
      'recorded with modes agent_direct, ghx (now agent_direct)',
    )
  })
})

describe('run record: tools left running by a ghx-bench that is gone', function () {
  this.timeout(60_000)

  /** `sleep <mark>` as a tool a ghx-bench of `resultsDir`'s project (pid 999999999: gone) left running. */
  function leftover(mark: string, resultsDir: string) {
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      GHX_BENCH_RUN_TOKEN: '999999999.0.gone',
      GHX_BENCH_PROJECT: resultsDir,
    }
    const child = spawn('sleep', [mark], {env, stdio: 'ignore', detached: true})
    child.unref()
    return child
  }

  it('a run opening ends this project’s leftovers and says whose; another project’s survive it', async () => {
    const dir = await scratch()
    const results = path.join(dir, 'results')
    const ours = marker()
    const theirs = marker()
    leftover(ours, results)
    const other = leftover(theirs, path.join(dir, 'another-project', 'results'))
    try {
      while (sleepsOf(ours).length + sleepsOf(theirs).length < 2) await sleep(20)
      const warnings: string[] = []
      // What `run` does as it opens a run id, before any run starts.
      const lock = await openRunRecord(results, 'r1', path.join(results, 'r1.jsonl'), {
        namedBy: '--run-id',
        cwd: dir,
        warn: (text) => warnings.push(text),
      })
      lock.release()
      expect(warnings).to.deep.equal([
        'ended 1 tool process(es) left running by a ghx-bench of this project (results in results) that is gone',
      ])
      const until = Date.now() + 5000
      while (sleepsOf(ours).length > 0 && Date.now() < until) await sleep(20)
      expect(sleepsOf(ours), 'this project’s leftover').to.deep.equal([])
      expect(sleepsOf(theirs), 'another project’s leftover').to.have.length(1)
    } finally {
      other.kill('SIGKILL')
    }
  })
})
