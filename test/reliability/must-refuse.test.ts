// Issue 27, item 9: every input ghx-bench must refuse exits 2, names where the problem is (a file with
// its line and column, a flag, a setting, a port) and prints no stack: the out-of-range numbers,
// duplicates, unknown keys and references the schema alone lets through, and the environment's
// failures (a port in use, a folder where a file belongs, a corrupt state file), which are not bugs
// of ghx-bench and say what to fix. In-process (about 0.1 s a case): none of these starts a run.
import {execFileSync} from 'node:child_process'
import {readFileSync, writeFileSync} from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import {expect} from 'chai'
import {runCliInProcess} from '../support/cli-in-process.js'
import {makeRow} from '../support/rows.js'
import {project, suite} from '../support/reliability.js'

const REPO_VIEW = readFileSync(
  path.join(import.meta.dirname, '..', '..', 'suites', 'scenarios', 'repo-view-001.yml'),
  'utf8',
)
const PROFILE = readFileSync(path.join(import.meta.dirname, '..', '..', 'suites', 'profiles', 'verify_pr.yml'), 'utf8')

interface Case {
  name: string
  files?: Record<string, string>
  /** Lines added to the project's .ghxbenchrc.yml. */
  config?: string
  /** The arguments; `{dir}` stands for the project's folder, `{port}` for a port in use. */
  args: string[]
  /** A named pipe made at this path of the project, with no writer. */
  fifo?: string
  /** Where the message must point, and what it must say. */
  names: RegExp
}

const oneSuite = (extra: string[], ids = ['repo-view-001']) => ({'catalogue/one.yml': suite('one', ids, extra)})

const CASES: Case[] = [
  // Numbers beyond what the schema allows, given as flags.
  {
    name: 'run -r 1000001 (the schema allows 1000)',
    args: ['run', 'catalogue/one.yml', '-r', '1000001', '--dry-run'],
    names: /--repetitions[\s\S]*less than or equal to 1000\b/,
  },
  {
    name: 'report --resamples 10^9',
    args: ['report', '--input', 'rows.jsonl', '--resamples', '1000000000'],
    names: /--resamples[\s\S]*100000\b/,
  },
  {
    name: 'gate --resamples 10^9',
    args: ['gate', '--input', 'rows.jsonl', '--resamples', '1000000000'],
    names: /--resamples[\s\S]*100000\b/,
  },
  {
    name: 'run --seed 2^53',
    args: ['run', 'catalogue/one.yml', '--seed', '9007199254740993', '--dry-run'],
    names: /--seed[\s\S]*less than or equal to 4294967295/,
  },
  {
    name: 'run --until-decided --looks 5,10^7',
    args: ['run', 'catalogue/one.yml', '--until-decided', '--looks', '5,10000000', '--dry-run'],
    names: /--looks error: looks must be at most 1000 repetitions/,
  },
  {
    name: 'run --scenario X --scenario X (every run key twice)',
    args: ['run', 'catalogue/one.yml', '--scenario', 'repo-view-001', '--scenario', 'repo-view-001', '--dry-run'],
    names: /--scenario: repo-view-001 is given twice/,
  },
  {
    name: 'simulate --repetitions 10^9',
    args: ['simulate', '--repetitions', '1000000000'],
    names: /--repetitions error: expected positive integers up to 1000/,
  },
  {
    name: 'simulate --datasets 10^9',
    args: ['simulate', '--datasets', '1000000000'],
    names: /--datasets[\s\S]*less than or equal to 100000\b/,
  },
  // Files that are not files: read until they end, which a device or a pipe no one writes to never does.
  {
    name: '--config /dev/zero',
    args: ['validate', '--config', '/dev/zero'],
    names: /\/dev\/zero error: not a regular file/,
  },
  {
    name: 'a suite that is a named pipe',
    fifo: 'pipe.yml',
    args: ['run', 'pipe.yml', '--dry-run'],
    names: /pipe\.yml error: not a regular file/,
  },
  // A suite the schema accepts but that cannot mean what it says.
  {
    name: 'gate baseline = candidate in a suite',
    files: oneSuite(['gate: {baseline: agent_direct, candidate: agent_direct}']),
    args: ['validate'],
    names: /catalogue\/one\.yml:\d+:\d+ error: gate candidate "agent_direct" is the baseline/,
  },
  {
    name: 'exclude of an unknown scenario',
    files: {
      'catalogue/one.yml':
        'name: one\nscenarios: {ids: [repo-view-*], exclude: [repo-veiw-001]}\nmodes: [agent_direct]\n',
    },
    args: ['validate'],
    names:
      /catalogue\/one\.yml:2:\d+ error: exclude: unknown scenario "repo-veiw-001" \(did you mean "repo-view-001"\?\)/,
  },
  {
    name: 'a scenario listed twice',
    files: oneSuite([], ['repo-view-001', 'repo-view-001']),
    args: ['validate'],
    names: /catalogue\/one\.yml:2:\d+ error: scenarios\.ids must NOT have duplicate items/,
  },
  {
    name: 'a set that lists a scenario twice',
    files: {'catalogue/sets/twice.yml': 'name: twice\nscenarios: [repo-view-001, repo-view-001]\n'},
    args: ['validate'],
    names: /catalogue\/sets\/twice\.yml:2:12 error: scenarios must NOT have duplicate items/,
  },
  // A scenario's reference plan for a mode no plugin provides.
  {
    name: 'a reference plan for a mode that does not exist',
    files: {'catalogue/scenarios/repo-view-001.yml': REPO_VIEW.replace('  agent_direct:\n', '  agent_drect:\n')},
    args: ['validate'],
    names:
      /repo-view-001\.yml:\d+:3 error: reference plan for unknown mode "agent_drect" \(did you mean "agent_direct"\?\)/,
  },
  // A profile whose name is not its file's.
  {
    name: 'a profile whose name is not its file’s',
    files: {'catalogue/profiles/strict.yml': PROFILE.replace('name: verify_pr', 'name: strict_pr')},
    args: ['validate'],
    names: /catalogue\/profiles\/strict\.yml:2:7 error: profile name "strict_pr" does not match its file name "strict"/,
  },
  // The configuration: plugin options and references checked against the plugins, as a suite's are.
  {
    name: 'provider options with an unknown key (config)',
    config: 'provider: {name: agent-loop, options: {max_turn: 5}}',
    args: ['validate'],
    names:
      /\.ghxbenchrc\.yml:\d+:\d+ error: provider agent-loop options: unknown key "max_turn".*\(did you mean "max_turns"\?\)/,
  },
  {
    name: 'provider options with an unknown key (suite)',
    files: oneSuite(['provider: {name: agent-loop, options: {max_turn: 5}}']),
    args: ['validate'],
    names: /catalogue\/one\.yml:\d+:\d+ error: .*unknown key "max_turn"/,
  },
  {
    name: 'an unknown provider (config)',
    config: 'provider: agent-lop',
    args: ['validate'],
    names: /\.ghxbenchrc\.yml:\d+:\d+ error: unknown provider "agent-lop" \(did you mean "agent-loop"\?\)/,
  },
  {
    name: 'gate baseline = candidate (config)',
    config: 'gate: {baseline: mcp, candidate: mcp}',
    args: ['validate'],
    names: /\.ghxbenchrc\.yml:\d+:\d+ error: gate candidate "mcp" is the baseline/,
  },
  {
    name: 'an unknown gate profile (config)',
    config: 'gate: {profile: verify_pull}',
    args: ['validate'],
    names: /\.ghxbenchrc\.yml:\d+:\d+ error: unknown profile "verify_pull" \(did you mean "verify_pr"\?\)/,
  },
  {
    name: 'gate --baseline X --candidate X',
    args: ['gate', '--input', 'rows.jsonl', '--baseline', 'agent_direct', '--candidate', 'agent_direct'],
    names: /--candidate error: .*is the baseline/,
  },
  // The environment: not a bug of ghx-bench; the message says what to fix.
  {
    name: 'sandbox serve on a port in use',
    args: ['sandbox', 'serve', '--port', '{port}'],
    names: /--port error: port \d+ on 127\.0\.0\.1 is in use/,
  },
  {
    name: 'sandbox serve --state on a folder',
    files: {'state/keep': ''},
    args: ['sandbox', 'serve', '--state', 'state'],
    names: /--state error: state is a folder, not a regular file/,
  },
  {
    name: 'sandbox serve --state with a corrupt state',
    files: {'state.json': '{"version": 1, "repos": {"a/b": null}}\n'},
    args: ['sandbox', 'serve', '--state', 'state.json'],
    names: /state\.json error: not a sandbox state file/,
  },
  {
    name: 'run --fixture-manifest on a folder',
    files: {'manifest/keep': ''},
    args: ['run', 'catalogue/one.yml', '--fixture-manifest', 'manifest', '--dry-run'],
    names: /--fixture-manifest error: manifest is a folder, not a regular file/,
  },
  {
    name: 'report --out where a file of the report is a folder',
    files: {'out/summary.md/keep': ''},
    args: ['report', '--input', 'rows.jsonl', '--out', 'out'],
    names: /out\/summary\.md.* error: .*folder/,
  },
  {
    name: 'results_dir under a file',
    files: {'results-file': 'x'},
    config: 'results_dir: results-file/sub',
    args: ['run', 'catalogue/one.yml', '-r', '1'],
    names: /results-file.* error: .*not a folder/,
  },
]

describe('reliability: every must-refuse input exits 2 with a location', function () {
  this.timeout(30_000)
  let busy: net.Server

  before(async () => {
    busy = net.createServer()
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve))
  })
  after(() => new Promise((resolve) => busy.close(resolve)))

  for (const c of CASES) {
    it(c.name, async () => {
      const dir = await project({...c.files, 'rows.jsonl': JSON.stringify(makeRow({})) + '\n'})
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
      if (c.fifo) execFileSync('mkfifo', [path.join(dir, c.fifo)])
      const port = String((busy.address() as net.AddressInfo).port)
      const result = await runCliInProcess(
        c.args.map((arg) => arg.replace('{port}', port).replace('{dir}', dir)),
        {cwd: dir, env: {CI: '1'}},
      )
      expect(result.code, `${result.stderr}${result.stdout}`).to.equal(2)
      expect(result.stderr, result.stderr).to.match(c.names)
      expect(result.stderr).to.not.match(/\n\s+at /)
      expect(result.stderr).to.not.match(/internal error/)
    })
  }
})
