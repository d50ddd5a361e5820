import {readdirSync, readFileSync} from 'node:fs'
import {mkdir, mkdtemp, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import type {ProviderToolCall, ToolLayerAccounting} from 'ghx-bench'
import agentDirectPlugin from '../../plugins/mode-agent-direct/index.js'
import ghxPlugin from '../../plugins/mode-ghx/index.js'
import {ghxEnvelopes} from '../../plugins/mode-ghx/accounting.js'
import {callLogPath, layerLogDir, readCallLog, readLayerLog} from '../../src/agent/shell-tool.js'
import {buildRow, type AttemptRecord} from '../../src/runner/row.js'
import type {SuiteContext} from '../../src/runner/suite-context.js'
import {accountToolCalls} from '../../src/tool-accounting/accounting.js'
import {shellCommands} from '../../src/tool-accounting/shell-commands.js'
import {sharedPath, skipWithoutShared} from '../support/shared.js'

const call = (tool: string, args: Record<string, unknown>, output = '', ok = true) => ({tool, args, output, ok, ms: 1})
const shell = (command: string, output = '', ok = true) => call('shell', {command}, output, ok)
// ghx is read by its mode's accounting hook, as the runner hands it over for a run of mode ghx.
const GHX = ghxPlugin.modes[0]!.accounting!
const account = (...calls: ReturnType<typeof call>[]) => accountToolCalls(calls, new Set(), GHX)
const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0)

// What ghx 0.8 prints: `ghx run` one compact line, or with --verbose the whole envelope as
// JSON.stringify(x, null, 2); `ghx chain` {status, results} compact, with --verbose its meta too.
const compact = (value: unknown) => `${JSON.stringify(value)}\n`
const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`
const HEREDOC_CHAIN = `ghx chain --steps - <<'EOF'
[
  {"task":"issue.view","input":{"issueNumber":3}},
  {"task":"issue.comments.create","input":{"issueNumber":3,"body":"hi; gh pr merge 1"}}
]
EOF`

describe('shell tokenizer', () => {
  it('splits a line at ; && || | & and newlines, quotes and escapes respected, commands in "$( )" included', () => {
    expect(
      shellCommands(
        `gh label create bug --force && gh issue edit 3 --add-label 'a;b' | jq .x; echo "$(gh pr view 1 --json headRefOid)"`,
      ),
    ).to.deep.equal([
      'gh label create bug --force',
      "gh issue edit 3 --add-label 'a;b'",
      'jq .x',
      'gh pr view 1 --json headRefOid',
      'echo "$(gh pr view 1 --json headRefOid)"',
    ])
    expect(shellCommands('gh pr view 1 || gh pr view 2 & gh run list\ngh issue list |& cat')).to.deep.equal([
      'gh pr view 1',
      'gh pr view 2',
      'gh run list',
      'gh issue list',
      'cat',
    ])
    expect(shellCommands(`echo "a \\" ; b" $'c \\' ; d' e\\;f 'g"h'; gh pr view 1`)).to.deep.equal([
      `echo "a \\" ; b" $'c \\' ; d' e\\;f 'g"h'`,
      'gh pr view 1',
    ])
  })

  it('finds the commands inside if, while, for, case, subshells, braces, $( ), backquotes and <( )', () => {
    expect(shellCommands('while read id; do ghx run issue.view --input "$id"; done')).to.deep.equal([
      'read id',
      'ghx run issue.view --input "$id"',
    ])
    expect(shellCommands('for n in 1 2; do gh issue view $n; done')).to.deep.equal(['gh issue view $n'])
    expect(
      shellCommands('if gh pr view 1; then gh pr merge 1; elif true; then :; else gh pr close 1; fi'),
    ).to.deep.equal(['gh pr view 1', 'gh pr merge 1', 'true', ':', 'gh pr close 1'])
    expect(shellCommands('case "$s" in\n  open|draft) gh pr merge 1 ;;\n  (*) gh pr view 1 ;;\nesac')).to.deep.equal([
      'gh pr merge 1',
      'gh pr view 1',
    ])
    expect(shellCommands('x=$(gh api repos/o/r --jq .id)')).to.deep.equal([
      'gh api repos/o/r --jq .id',
      'x=$(gh api repos/o/r --jq .id)',
    ])
    expect(shellCommands('( gh pr view 1 ) && { gh pr view 2; gh pr view 3; }')).to.deep.equal([
      'gh pr view 1',
      'gh pr view 2',
      'gh pr view 3',
    ])
    expect(shellCommands('echo `gh pr view 9` $(echo $(gh pr view 10)); diff <(gh pr diff 1) x')).to.deep.equal([
      'gh pr view 9',
      'gh pr view 10',
      'echo $(gh pr view 10)',
      'echo `gh pr view 9` $(echo $(gh pr view 10))',
      'gh pr diff 1',
      'diff <(gh pr diff 1) x',
    ])
    expect(shellCommands('f() { gh pr view 1; }; a=(gh pr view); echo $((1 + 2)) ${x:-gh}')).to.deep.equal([
      'gh pr view 1',
      'a=(gh pr view)',
      'echo $((1 + 2)) ${x:-gh}',
    ])
  })

  it('reads here-document bodies as input, not commands, except $( ) in an unquoted one; redirections and comments are no commands', () => {
    expect(shellCommands(`${HEREDOC_CHAIN}\necho done`)).to.deep.equal(["ghx chain --steps - <<'EOF'", 'echo done'])
    expect(shellCommands('cat <<EOF | gh api graphql --input -\ngh pr view 1\n$(gh pr view 2)\nEOF')).to.deep.equal([
      'cat <<EOF',
      'gh api graphql --input -',
      'gh pr view 2',
    ])
    expect(shellCommands('cat <<-"END" >out\n\tgh pr view 1\n\tEND\ngh pr view 3')).to.deep.equal([
      'cat <<-"END" >out',
      'gh pr view 3',
    ])
    expect(shellCommands('gh pr view 1 2>&1 >/dev/null &>log; gh x <<<"gh y" # gh z\n# gh w')).to.deep.equal([
      'gh pr view 1 2>&1 >/dev/null &>log',
      'gh x <<<"gh y"',
    ])
  })
})

describe('tool-call accounting', () => {
  it('maps gh porcelain, gh api REST and GraphQL to canonical operations', () => {
    const result = account(
      shell('gh issue view 3 -R o/r --json labels'),
      shell('gh issue edit 3 -R o/r --remove-label triage --add-label bug --body "not --add-assignee"'),
      shell("gh api -X POST repos/o/r/issues/3/comments -f body='hi' --jq '{id}'"),
      shell("gh api 'repos/o/r/issues/3/comments?per_page=50'"),
      shell("gh api graphql -f query='mutation($t:ID!){resolveReviewThread(input:{threadId:$t}){thread{id}}}' -f t=X"),
      shell(
        'gh api graphql --input - <<EOF\n{"query": "query { repository(owner:\\"o\\", name:\\"r\\") { pullRequest(number: 1) { reviewThreads(first: 50) { nodes { id } } } } }"}\nEOF',
      ),
      shell('gh run rerun 9 -R o/r --failed'),
      shell('ls -la'),
    )
    expect(result.by_category).to.deep.equal({gh_cli: 7, shell: 1})
    expect(result.by_operation).to.deep.equal({
      'issue.view': 1,
      'issue.labels.remove': 1,
      'issue.labels.add': 1,
      'issue.comments.create': 1,
      'issue.comments.list': 1,
      'pr.threads.resolve': 1,
      'pr.threads.list': 1,
      'workflow.run.rerun.failed': 1,
    })
    expect(result.invocations).to.deep.equal({gh: 7, ghx: 0})
    expect(result.failed).to.equal(0)
  })

  it('counts each gh invocation once wherever it stands: loops, conditions, substitutions, groups, runners, assignments, bash -c', () => {
    const result = account(
      shell('for n in 1 2; do gh issue view $n; done'),
      shell('if gh pr view 1 --json state; then gh pr merge 1 --squash; fi'),
      shell('x=$(gh api repos/o/r/labels) && echo "$x" | jq length'),
      shell('( gh pr checks 1 ) || { gh run list; gh run view 5 --log; }'),
      shell(
        'noglob gh api repos/o/r/issues/1/labels -f labels[]=bug; env -u X GH_REPO=o/r gh issue close 2; command gh issue reopen 2; time gh release list',
      ),
      shell('VAR=1 gh label list\ngh repo view o/r 2>&1 | head -1'),
      shell(
        "echo 4 5 | xargs -n 1 gh issue comment --body ok; bash -c 'gh pr diff 1'; command -v gh; which gh; echo gh pr view 1",
      ),
    )
    expect(result.invocations).to.deep.equal({gh: 15, ghx: 0})
    expect(result.by_operation).to.deep.equal({
      'issue.view': 1,
      'pr.view': 1,
      'pr.merge': 1,
      'repo.labels.list': 2,
      'pr.checks.list': 1,
      'workflow.runs.list': 1,
      'workflow.job.logs.view': 1,
      'issue.labels.add': 1,
      'issue.close': 1,
      'issue.reopen': 1,
      'release.list': 1,
      'repo.view': 1,
      'issue.comments.create': 1,
      'pr.diff.view': 1,
    })
    expect(result.by_category).to.deep.equal({gh_cli: 7})
  })

  it('counts MCP tools by name, refining update_issue and pull_request_review_write by their arguments', () => {
    const tools = new Set(['get_issue', 'update_issue', 'add_issue_comment', 'pull_request_review_write'])
    const result = accountToolCalls(
      [
        call('get_issue', {issue_number: 1}),
        call('update_issue', {labels: ['a']}),
        call('update_issue', {state: 'closed'}),
        call('add_issue_comment', {body: 'x'}),
        call('github_pull_request_review_write', {method: 'create'}),
        call('github_pull_request_review_write', {method: 'submit_pending', event: 'COMMENT'}),
      ],
      tools,
    )
    expect(result.by_category).to.deep.equal({mcp_tool: 6})
    expect(result.by_operation).to.deep.equal({
      'issue.view': 1,
      'issue.labels.set': 1,
      'issue.close': 1,
      'issue.comments.create': 1,
      'pr.reviews.create_pending': 1,
      'pr.reviews.submit': 1,
    })
  })

  it('counts an MCP isError result as failed: from the ok flag (agent loop) and from a CallToolResult in the output text', () => {
    const tools = new Set(['get_issue'])
    const isError = JSON.stringify({
      content: [{type: 'text', text: 'failed to get issue: 404 Not Found'}],
      isError: true,
    })
    const result = accountToolCalls(
      [
        call('get_issue', {issue_number: 1}, 'failed to get issue: 404 Not Found', false), // plugins/mode-mcp: ok = isError !== true
        call('github_get_issue', {issue_number: 2}, isError, true), // a runtime that hands the result on as text
        call(
          'get_issue',
          {issue_number: 3},
          JSON.stringify({content: [{type: 'text', text: '{"isError": true}'}], isError: false}),
        ),
        call('get_issue', {issue_number: 4}, '{"number": 4, "title": "isError"}'),
      ],
      tools,
    )
    expect(result.by_category).to.deep.equal({mcp_tool: 4})
    expect(result.failed).to.equal(2)
  })

  it('counts failed calls: a non-zero exit, ok:false printed by ghx run (exit 0), a chain with a failed step; never more than one per call', () => {
    const notFound = compact({
      ok: false,
      error: {code: 'NOT_FOUND', message: 'Could not resolve to an Issue with the number of 99.'},
    })
    const result = account(
      shell(
        'gh pr view 99',
        'GraphQL: Could not resolve to a PullRequest with the number of 99.\n[exit code 1]',
        false,
      ),
      shell('ghx run issue.view --input \'{"issueNumber":99}\'', notFound),
      shell(
        HEREDOC_CHAIN,
        compact({
          status: 'partial',
          results: [
            {task: 'issue.view', ok: true, data: {}},
            {task: 'issue.comments.create', ok: false, error: {code: 'VALIDATION', message: 'x'}},
          ],
        }),
      ),
      shell(
        'ghx run issue.view --input - <<<\'{"issueNumber":98}\'; ghx run issue.view --input - <<<\'{"issueNumber":99}\'',
        `${notFound}${notFound}`,
      ),
      shell('ghx run issue.view --input \'{"issueNumber":1}\'', compact({ok: true, data: {number: 1}})),
      shell('echo \'{"ok":false}\'', '{"ok":false}\n'), // not ghx: its output is no envelope
    )
    expect(result.failed).to.equal(4)
    expect(result.by_category).to.deep.equal({gh_cli: 1, ghx_capability: 4, shell: 1})
  })

  it('takes ghx routes only from meta.route_used: compact envelopes have none and count as unknown', () => {
    const result = account(
      shell(`ghx run issue.view --input - <<'EOF'\n{"issueNumber": 3}\nEOF`, compact({ok: true, data: {number: 3}})),
      shell(
        `ghx run pr.view --input '{"prNumber":1}' --verbose`,
        pretty({
          ok: true,
          data: {number: 1, body: '{\n}'},
          meta: {
            capability_id: 'pr.view',
            route_used: 'graphql',
            reason: 'CARD_PREFERRED',
            attempts: [
              {route: 'graphql', status: 'error', error_code: 'NETWORK'},
              {route: 'graphql', status: 'success'},
            ],
          },
        }),
      ),
      shell(`ghx run issue.close --input '{"issueNumber":3}' | jq .ok`, 'true\n'), // the envelope went to jq
    )
    expect(result.by_operation).to.deep.equal({'issue.view': 1, 'pr.view': 1, 'issue.close': 1})
    expect(result.by_route).to.deep.equal({unknown: 2, graphql: 1})
    expect(result.internal_retries).to.equal(1)
    expect(result.invocations).to.deep.equal({gh: 0, ghx: 3})
  })

  it('reads several ghx envelopes of one call, compact and pretty-printed, among other output', () => {
    const verbose = (route: string) =>
      pretty({
        ok: true,
        data: {items: [{id: 1}]},
        meta: {
          capability_id: 'issue.list',
          route_used: route,
          reason: 'CARD_FALLBACK',
          attempts: [
            {route: 'graphql', status: 'error'},
            {route, status: 'success'},
          ],
        },
      })
    const output = `== labels ==\n${compact({ok: true, data: {items: []}, pagination: {has_next_page: false}})}== issues ==\n${verbose('cli')}${verbose('rest')}done\n`
    const result = account(
      shell(
        'echo "== labels =="; ghx run repo.labels.list --input "{}"; echo "== issues =="; ghx run issue.list --input "{}" --verbose && ghx run issue.list --input "{}" --verbose; echo done',
        output,
      ),
    )
    expect(ghxEnvelopes(output)).to.have.length(3)
    expect(result.by_operation).to.deep.equal({'repo.labels.list': 1, 'issue.list': 2})
    expect(result.by_route).to.deep.equal({unknown: 1, cli: 1, rest: 1})
    expect(result.internal_retries).to.equal(2)
    expect(result.failed).to.equal(0)
  })

  it('reads ghx chain: steps from the here-document, a route per step from the chain meta (verbose) or unknown (compact)', () => {
    const steps = [
      {task: 'issue.view', ok: true, data: {number: 3}},
      {task: 'issue.comments.create', ok: true, data: {id: 'C_1'}},
    ]
    const result = account(
      shell(HEREDOC_CHAIN, compact({status: 'success', results: steps})),
      shell(
        `${HEREDOC_CHAIN.replace('--steps -', '--steps - --verbose')}`,
        pretty({status: 'success', results: steps, meta: {route_used: 'graphql', total: 2, succeeded: 2, failed: 0}}),
      ),
      shell(
        `ghx chain --steps '[{"task":"pr.view","input":{}}]'`,
        compact({
          status: 'success',
          results: [
            {
              task: 'pr.view',
              ok: true,
              meta: {
                route_used: 'cli',
                attempts: [
                  {route: 'graphql', status: 'error'},
                  {route: 'cli', status: 'success'},
                ],
              },
            },
          ],
        }),
      ),
      shell(
        'ghx chain --steps - < steps.json',
        compact({
          status: 'success',
          results: [
            {task: 'pr.checks.list', ok: true},
            {task: 'pr.merge.status', ok: true},
          ],
        }),
      ),
    )
    expect(result.by_category).to.deep.equal({ghx_capability: 4})
    expect(result.by_operation).to.deep.equal({
      'issue.view': 2,
      'issue.comments.create': 2,
      'pr.view': 1,
      'pr.checks.list': 1,
      'pr.merge.status': 1,
    })
    expect(result.by_route).to.deep.equal({unknown: 4, graphql: 2, cli: 1})
    expect(sum(result.by_route)).to.equal(sum(result.by_operation))
    expect(result.internal_retries).to.equal(1)
    expect(result.invocations).to.deep.equal({gh: 0, ghx: 4})
    expect(result.failed).to.equal(0)
  })

  it('does not count what the shell never ran: a command whose glob matched nothing in zsh, a program not found', () => {
    // Outputs as zsh 5.9, bash 5.2 and dash print them (checked against the shells with stub gh/ghx).
    const result = account(
      // zsh skips an external command whose glob matches nothing and goes on ...
      shell(
        'gh pr view 1; gh api repos/o/r/pulls/1/reviews -f comments[0][path]=a.ts; gh pr view 2',
        '{}\n{}\nzsh:1: no matches found: comments[0][path]=a.ts\n',
      ),
      // ... but stops the script at a builtin's.
      shell('gh pr view 3; echo a[0]=x; gh pr view 4', '{}\nzsh:1: no matches found: a[0]=x\n[exit code 1]', false),
      shell('ghx run issue.view --input "{}"; gh issue view 1', 'bash: line 1: ghx: command not found\n{"number":1}\n'),
      shell('ghx --version', 'zsh:1: command not found: ghx\n[exit code 127]', false),
      shell('ghx --version', 'sh: 1: ghx: not found\n[exit code 127]', false),
      shell('noglob gh api repos/o/r -f a[0]=1', 'bash: line 1: noglob: command not found\n[exit code 127]', false), // bash has no noglob
    )
    expect(result.invocations).to.deep.equal({gh: 4, ghx: 0})
    expect(result.by_operation).to.deep.equal({'pr.view': 3, 'issue.view': 1})
    expect(result.by_category).to.deep.equal({gh_cli: 3, shell: 3})
    expect(result.by_route).to.deep.equal({})
    expect(result.failed).to.equal(6)
  })
})

describe('tool-call accounting of a mode’s tool layer (Mode.accounting)', () => {
  const ENVELOPE = compact({ok: false, error: {code: 'NOT_FOUND', message: 'no'}})

  it('without the mode’s hook, the layer’s commands are plain shell: not counted, not read', () => {
    const result = accountToolCalls(
      [
        shell('ghx run issue.view --input \'{"issueNumber":9}\'', ENVELOPE),
        shell('ghx chain --steps - < s.json; gh pr view 1'),
      ],
      new Set(),
    )
    expect(result.by_category).to.deep.equal({shell: 1, gh_cli: 1})
    expect(result.by_operation).to.deep.equal({'pr.view': 1})
    expect(result.by_route).to.deep.equal({})
    expect(result.invocations).to.deep.equal({gh: 1})
    expect(result.internal_retries).to.equal(null)
    expect(result.failed).to.equal(0)
  })

  it('counts any layer through its hook: its programs wherever they stand, its category, and what it reads from the output', () => {
    const seen: unknown[] = []
    const acme: ToolLayerAccounting = {
      programs: ['acme', 'acmectl'],
      category: 'acme_tool',
      account(commands, output) {
        seen.push(commands)
        return {
          operations: commands.map((c) => `acme.${c.args[0]}`),
          routes: {fast: commands.length},
          retries: 1,
          failed: output.includes('FAIL'),
        }
      },
    }
    const result = accountToolCalls(
      [
        shell('acme deploy --env prod && gh pr view 1', 'deployed\n'),
        shell('for x in 1 2; do acmectl status "$x"; done; acme apply <<<\'{"a":1}\'', 'FAIL\n'),
        shell('acme deploy', 'bash: line 1: acme: command not found\n[exit code 127]', false),
        shell('ls'),
      ],
      new Set(),
      acme,
    )
    expect(seen).to.deep.equal([
      [{program: 'acme', args: ['deploy', '--env', 'prod']}],
      [
        {program: 'acmectl', args: ['status', '$x']},
        {program: 'acme', args: ['apply'], stdin: '{"a":1}'},
      ],
    ])
    expect(result.by_category).to.deep.equal({acme_tool: 2, shell: 2})
    expect(result.by_operation).to.deep.equal({'acme.deploy': 1, 'pr.view': 1, 'acme.status': 1, 'acme.apply': 1})
    expect(result.by_route).to.deep.equal({fast: 3})
    expect(result.invocations).to.deep.equal({gh: 1, acme: 2, acmectl: 1})
    expect(result.internal_retries).to.equal(2)
    expect(result.failed).to.equal(2) // the layer said FAIL; the shell could not run acme
  })

  it('a hook that throws counts its layer’s executions under the route unknown, with no operation', () => {
    const broken: ToolLayerAccounting = {
      programs: ['acme'],
      category: 'acme_tool',
      account: () => {
        throw new Error('cannot read that')
      },
    }
    const result = accountToolCalls([shell('acme one; acme two')], new Set(), broken)
    expect(result.by_category).to.deep.equal({acme_tool: 1})
    expect(result.by_route).to.deep.equal({unknown: 2})
    expect(result.by_operation).to.deep.equal({})
    expect(result.invocations).to.deep.equal({gh: 0, acme: 2})
  })
})

// ghx 0.8.0's own log lines (GHX_LOG_LEVEL=info), as test/plugins/mode-ghx-accounting.test.ts records them.
const logLine = (pid: number, msg: string, fields: Record<string, unknown>) =>
  `${JSON.stringify({ts: '2026-11-27T00:03:31.604Z', pid, ppid: 1, level: 'info', version: '0.8.0', msg, ...fields})}\n`
const executed = (pid: number, task: string, route: string, ok = true) =>
  logLine(pid, 'execute.complete', {
    capability_id: task,
    ok,
    route_used: route,
    duration_ms: 80,
    error_code: ok ? null : 'UNKNOWN',
  })
const chainEnded = (pid: number, total: number) =>
  logLine(pid, 'execute_batch.complete', {
    ok: true,
    status: 'success',
    total,
    succeeded: total,
    failed: 0,
    duration_ms: 90,
  })

describe('tool-call accounting: routes from the tool layer’s own log (ToolLayerAccounting.readLog)', () => {
  it('counts each execution by the route ghx logged, compact envelopes or not; the run’s route is its last command’s', () => {
    const calls = [
      shell(
        "ghx run workflow.view --input '{}'",
        compact({ok: false, error: {code: 'UNKNOWN', message: 'unknown flag: --json'}}),
      ),
      shell(HEREDOC_CHAIN, compact({status: 'success', results: []})),
    ]
    const log =
      executed(10, 'workflow.view', 'cli', false) + executed(11, 'issue.comments.create', 'cli') + chainEnded(11, 2)
    const result = accountToolCalls(calls, new Set(), GHX, log)
    expect(result.by_route).to.deep.equal({cli: 2, graphql: 1})
    // The chain ran one step in GraphQL: ghx's chain envelope would say graphql.
    expect(result.last_route).to.equal('graphql')
    // Without the log: nothing says.
    expect(accountToolCalls(calls, new Set(), GHX).by_route).to.deep.equal({unknown: 3})
    expect(accountToolCalls(calls, new Set(), GHX).last_route).to.equal(null)
  })

  it('unknown only for the executions no log line names: written beyond the logged ones; a log that names none leaves the envelopes to say', () => {
    const calls = [
      shell('ghx run issue.view --input \'{"issueNumber":1}\''),
      shell(
        'ghx run issue.view --input \'{"issueNumber":2}\' --verbose',
        pretty({ok: true, data: {}, meta: {route_used: 'cli'}}),
      ),
    ]
    expect(accountToolCalls(calls, new Set(), GHX, executed(1, 'issue.view', 'graphql')).by_route).to.deep.equal({
      graphql: 1,
      unknown: 1,
    })
    // A loop ran ghx more often than it is written: the log counts each pass.
    expect(
      accountToolCalls(
        calls,
        new Set(),
        GHX,
        executed(1, 'issue.view', 'graphql') + executed(2, 'issue.view', 'graphql') + executed(3, 'issue.view', 'cli'),
      ).by_route,
    ).to.deep.equal({graphql: 2, cli: 1})
    // A log of no execution (other events only): the envelopes decide, --verbose names its route.
    const envelopes = accountToolCalls(
      calls,
      new Set(),
      GHX,
      logLine(1, 'route.plan', {capability_id: 'issue.view', route: 'graphql'}),
    )
    expect(envelopes.by_route).to.deep.equal({unknown: 1, cli: 1})
    expect(envelopes.last_route).to.equal('cli')
  })

  it('keeps route names to short words, and reads a hook that throws as no log: a log line cannot put a secret into a row', () => {
    const token = 'ghs_0123456789abcdefghijABCDEFGHIJ012345'
    const acme: ToolLayerAccounting = {
      programs: ['acme'],
      category: 'acme_tool',
      account: (commands) => ({operations: [], routes: {[token]: commands.length}, lastRoute: token}),
      readLog: (text) => ({
        routes: {[token]: 1, fast: 1, 'Bearer x': 1},
        lastRoute: text.includes('last') ? token : 'fast',
      }),
    }
    const result = accountToolCalls([shell('acme go; acme go')], new Set(), acme, 'log')
    expect(result.by_route).to.deep.equal({unknown: 2, fast: 1})
    expect(result.last_route).to.equal('fast')
    expect(accountToolCalls([shell('acme go')], new Set(), acme, 'last').last_route).to.equal(null)
    expect(accountToolCalls([shell('acme go')], new Set(), acme).by_route).to.deep.equal({unknown: 1})
    const throwing: ToolLayerAccounting = {
      ...acme,
      account: () => ({operations: [], routes: {fast: 1}}),
      readLog: () => {
        throw new Error('unreadable')
      },
    }
    expect(accountToolCalls([shell('acme go')], new Set(), throwing, 'log').by_route).to.deep.equal({fast: 1})
  })
})

describe('tool-call accounting: fallbacks (a failed call of the mode’s tool layer, then a GitHub tool call that worked)', () => {
  const failedGhx = shell(
    "ghx run workflow.view --input '{}'",
    compact({ok: false, error: {code: 'UNKNOWN', message: 'unknown flag: --json'}}),
  )
  const ghWorks = shell('gh api repos/o/r/actions/workflows/ci.yml', '{"id":1}\n')
  const ghFails = shell('gh api repos/o/r/actions/workflows/ci.yml', 'HTTP 404\n[exit code 1]', false)
  it('is a fallback when a ghx call failed (ok:false, or a non-zero exit) and a later gh call succeeded', () => {
    expect(account(failedGhx, ghWorks).fallback).to.equal(true)
    expect(
      account(shell("ghx run x.y --input '{}'", 'Missing --input JSON\n[exit code 1]', false), shell('ls'), ghWorks)
        .fallback,
    ).to.equal(true)
    expect(accountToolCalls([failedGhx, call('get_issue', {}, '{}')], new Set(['get_issue']), GHX).fallback).to.equal(
      true,
    )
  })
  it('is none when ghx did not fail, when gh failed too, when gh came first, or when only other tools followed', () => {
    expect(account(shell("ghx run repo.view --input '{}'", compact({ok: true, data: {}})), ghWorks).fallback).to.equal(
      false,
    )
    expect(account(failedGhx, ghFails).fallback).to.equal(false)
    expect(account(ghWorks, failedGhx).fallback).to.equal(false)
    expect(account(failedGhx, shell('echo done')).fallback).to.equal(false)
    expect(
      account(failedGhx, shell("ghx run repo.view --input '{}'", compact({ok: true, data: {}}))).fallback,
    ).to.equal(false)
    // Without a tool layer (agent_direct, mcp) there is nothing to fall back from.
    expect(accountToolCalls([failedGhx, ghWorks], new Set()).fallback).to.equal(false)
  })
  it('is unknown when a layer call could not be read and a gh call followed', () => {
    const broken: ToolLayerAccounting = {
      programs: ['ghx'],
      category: 'ghx_capability',
      account: () => {
        throw new Error('cannot read that')
      },
    }
    expect(accountToolCalls([shell('ghx run a.b'), ghWorks], new Set(), broken).fallback).to.equal(null)
    expect(accountToolCalls([shell('ghx run a.b'), shell('ls')], new Set(), broken).fallback).to.equal(false)
  })
})

/** A suite context with the ghx and agent_direct modes, enough for buildRow. */
function rowContext(): SuiteContext {
  const modes = new Map([
    ['ghx', {mode: ghxPlugin.modes[0]!, options: {}}],
    ['agent_direct', {mode: agentDirectPlugin.modes[0]!, options: {}}],
  ])
  return {
    modes,
    runId: 'r',
    suite: 's',
    scenarioSet: null,
    provider: {name: 'agent-loop'},
    model: {label: 'oracle'},
    versions: {harness: '0', plugins: {}},
    git: null,
    fixtures: {manifest: {seed_id: 'x'}},
  } as unknown as SuiteContext
}

/** One passed attempt whose single turn made these tool calls. */
function passedAttempt(calls: ProviderToolCall[], over: Partial<AttemptRecord> = {}): AttemptRecord {
  const usage = {input: 0, output: 0, reasoning: 0, cache_read: 0, cache_write: 0}
  return {
    record: {
      attempt: 1,
      outcome: 'pass',
      error: null,
      started_at: '',
      latency_ms_wall: 0,
      tokens: {...usage, total: 0, active: 0},
    },
    outcome: 'pass',
    error: null,
    tokens: {...usage, total: 0, active: 0},
    trace: {turns: [{usage, tool_calls: calls, started_at: '', ms: 0}], final_text: 'done', stop_reason: 'final'},
    checkpoints: [],
    variables: null,
    apiCalls: null,
    agentMs: null,
    timing: {model_ms: 0, tools_ms: 0, session_ms: 0, fixtures_ms: 0, checkpoints_ms: 0, turns: 1},
    tracePath: null,
    toolSchema: undefined,
    mcpTools: [],
    invocations: null,
    layerLog: null,
    injectedFaults: 0,
    ...over,
  }
}

describe('tool-call accounting in a row: the hook of the run’s own mode', () => {
  it('a ghx run is read by mode ghx’s hook; the same calls in an agent_direct run are its shell’s', () => {
    const ctx = rowContext()
    const verbose = pretty({
      ok: true,
      data: {},
      meta: {
        route_used: 'graphql',
        attempts: [
          {route: 'graphql', status: 'error'},
          {route: 'graphql', status: 'success'},
        ],
      },
    })
    const calls = [shell('ghx run issue.view --input \'{"issueNumber":1}\' --verbose', verbose), shell('gh pr view 1')]
    const attempt = passedAttempt(calls)
    const scenario = {
      type: 'workflow',
      id: 'x-001',
      assertions: {expected_outcome: 'success', checkpoints: []},
    } as never
    const row = (mode: string) =>
      buildRow(ctx, {scenario_id: 'x-001', mode, iteration: 1} as never, scenario, [attempt], {
        startedAt: new Date(),
        wallMs: 1,
      })
    expect(row('ghx').tool_calls).to.deep.include({
      by_category: {ghx_capability: 1, gh_cli: 1},
      by_route: {graphql: 1},
      invocations: {gh: 1, ghx: 1},
    })
    expect(row('ghx').internal_retries).to.equal(1)
    expect(row('agent_direct').tool_calls).to.deep.include({
      by_category: {shell: 1, gh_cli: 1},
      by_route: {},
      invocations: {gh: 1},
    })
    expect(row('agent_direct').internal_retries).to.equal(null)
    // The route the --verbose envelope in the calls names; no fallback (ghx did not fail).
    expect(row('ghx')).to.include({route_used: 'graphql', fallback: false})
    expect(row('agent_direct')).to.include({route_used: null, fallback: false})
  })

  it('a ghx run’s row: by_route and route_used from ghx’s log read beside the call log, the final envelope’s route first; a fallback; unknown without a trace', async () => {
    const ctx = rowContext()
    const workdir = await mkdtemp(path.join(tmpdir(), 'row-layer-log-'))
    await writeFile(callLogPath(workdir), 'agent ghx\nagent gh\n')
    await mkdir(layerLogDir(workdir))
    await writeFile(path.join(layerLogDir(workdir), 'ghx-2026-11-27.jsonl'), executed(7, 'workflow.view', 'cli', false))
    const [invocations, layerLog] = await Promise.all([readCallLog(workdir), readLayerLog(workdir)])
    const calls = [
      shell(
        "ghx run workflow.view --input '{}'",
        compact({ok: false, error: {code: 'UNKNOWN', message: 'unknown flag: --json'}}),
      ),
      shell('gh api repos/o/r/actions/workflows/ci.yml', '{"id":1}\n'),
    ]
    const attempt = passedAttempt(calls, {invocations, layerLog})
    const scenario = {type: 'atomic', id: 'x-001', assertions: {expected_outcome: 'success'}} as never
    const row = (mode: string, over: Partial<AttemptRecord> = {}) =>
      buildRow(ctx, {scenario_id: 'x-001', mode, iteration: 1} as never, scenario, [{...attempt, ...over}], {
        startedAt: new Date(),
        wallMs: 1,
      })
    expect(row('ghx').tool_calls).to.deep.include({by_route: {cli: 1}, invocations: {ghx: 1, gh: 1}})
    expect(row('ghx')).to.include({route_used: 'cli', fallback: true})
    // The final answer's envelope names its route (--verbose): it wins.
    expect(row('ghx', {assertion: {route_used: 'graphql'} as never})).to.include({route_used: 'graphql'})
    // No trace: whether the run fell back is unknown under ghx; agent_direct has no layer to fall back from.
    expect(row('ghx', {trace: undefined})).to.include({route_used: 'cli', fallback: null})
    expect(row('agent_direct', {trace: undefined})).to.include({route_used: null, fallback: false})
    expect(row('agent_direct').tool_calls.by_route).to.deep.equal({})
  })
})

describe('tool-call accounting on the real ghx eval sessions (pr-review-comment-001)', () => {
  const folder = sharedPath('datasets', 'ghx-eval-2026-03', 'sessions', 'pr-review-comment-001')
  const OFFICIAL_MCP_TOOLS = new Set([
    'pull_request_read',
    'pull_request_review_write',
    'add_comment_to_pending_review',
  ])

  before(function () {
    skipWithoutShared(this, folder)
  })

  function session(file: string): ReturnType<typeof call>[] {
    const trace = JSON.parse(readFileSync(path.join(folder, file), 'utf8')) as {
      events: Array<{type: string; name: string; input: Record<string, unknown>; output?: string; success?: boolean}>
    }
    return trace.events
      .filter((e) => e.type === 'tool_call')
      .map((e) => call(e.name, e.input, e.output ?? '', e.success !== false))
  }

  /**
   * A second, independent count of the gh/ghx commands a call ran: here-document bodies and quoted
   * strings removed with regular expressions, then gh or ghx counted where a command starts. Enough
   * for these sessions (checked by hand against the table below), not a shell reader.
   */
  function regexCount(command: string, output: string): {gh: number; ghx: number} {
    // zsh does not run a command whose glob matches nothing (these calls hold one command each).
    if (/^zsh:\d+: no matches found: /.test(output)) return {gh: 0, ghx: 0}
    const bare = command
      .replace(/<<-?\s*(['"]?)(\w+)\1[^\n]*\n[\s\S]*?\n\2(?=\n|$)/g, '')
      .replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, "''")
    const found = [...bare.matchAll(/(?:^|[;&|(\n]|\$\()\s*(?:noglob\s+|[A-Za-z_]\w*=\S*\s+)*(ghx|gh)(?=\s|$)/g)].map(
      (m) => m[1],
    )
    return {gh: found.filter((p) => p === 'gh').length, ghx: found.filter((p) => p === 'ghx').length}
  }

  // Read off the traces by hand. baseline-iter-0 wrote 7 gh commands, but zsh refused one
  // (`-f comments[0][path]=…`: no matches found), so 6 ran. Each ghx chain counts as one ghx command.
  const BY_HAND: Record<string, {calls: number; gh: number; ghx: number}> = {
    'baseline-iter-0.json': {calls: 7, gh: 6, ghx: 0},
    'baseline-iter-1.json': {calls: 6, gh: 5, ghx: 0},
    'baseline-iter-2.json': {calls: 7, gh: 7, ghx: 0},
    'baseline-iter-4.json': {calls: 9, gh: 9, ghx: 0},
    'ghx-iter-0.json': {calls: 3, gh: 0, ghx: 3},
    'ghx-iter-1.json': {calls: 3, gh: 0, ghx: 3},
    'ghx-iter-2.json': {calls: 2, gh: 0, ghx: 2},
    'ghx-iter-3.json': {calls: 2, gh: 0, ghx: 2},
    'ghx-iter-4.json': {calls: 2, gh: 0, ghx: 2},
    'mcp-iter-0.json': {calls: 9, gh: 0, ghx: 0},
    'mcp-iter-1.json': {calls: 8, gh: 0, ghx: 0},
    'mcp-iter-2.json': {calls: 8, gh: 0, ghx: 0},
    'mcp-iter-3.json': {calls: 7, gh: 0, ghx: 0},
    'mcp-iter-4.json': {calls: 8, gh: 0, ghx: 0},
  }

  it('counts, in each of the 14 sessions, exactly the gh and ghx commands that ran', () => {
    expect(readdirSync(folder).sort()).to.deep.equal(Object.keys(BY_HAND).sort())
    for (const [file, hand] of Object.entries(BY_HAND)) {
      const calls = session(file)
      const byRegex = {gh: 0, ghx: 0}
      for (const c of calls) {
        if (typeof c.args.command !== 'string') continue
        const n = regexCount(c.args.command, c.output)
        byRegex.gh += n.gh
        byRegex.ghx += n.ghx
      }
      const result = accountToolCalls(calls, OFFICIAL_MCP_TOOLS, GHX)
      expect(calls.length, file).to.equal(hand.calls)
      expect(byRegex, `${file}: regex vs by hand`).to.deep.equal({gh: hand.gh, ghx: hand.ghx})
      expect(result.invocations, `${file}: accounting`).to.deep.equal({gh: hand.gh, ghx: hand.ghx})
      expect(sum(result.by_category), file).to.equal(calls.length)
    }
  })

  it('classifies every session into its own arm and its review operations; ghx routes unknown (compact output), one per capability', () => {
    for (const file of Object.keys(BY_HAND)) {
      const result = accountToolCalls(session(file), OFFICIAL_MCP_TOOLS, GHX)
      const arm = file.split('-')[0]!
      const kinds = Object.keys(result.by_category)
      if (arm === 'baseline') {
        // The agent with gh: gh calls, plus a jq or a file read now and then.
        expect(result.by_category.gh_cli, file).to.be.at.least(5)
        expect(
          kinds.filter((k) => k !== 'gh_cli' && k !== 'shell' && k !== 'other'),
          file,
        ).to.deep.equal([])
        expect(result.by_operation, file).to.include.keys('pr.view', 'pr.reviews.submit')
        expect(result.by_route, file).to.deep.equal({})
      } else if (arm === 'ghx') {
        expect(kinds, file).to.deep.equal(['ghx_capability'])
        // A chain of pr.view + pr.diff.files (+ pr.diff.view), then pr.diff.view if not chained, then pr.reviews.submit.
        expect(result.by_operation, file).to.deep.equal({
          'pr.view': 1,
          'pr.diff.files': 1,
          'pr.diff.view': 1,
          'pr.reviews.submit': 1,
        })
        expect(result.by_route, file).to.deep.equal({unknown: 4})
      } else {
        expect(kinds, file).to.deep.equal(['mcp_tool'])
        expect(result.by_operation, file).to.include({
          'pr.view': 1,
          'pr.reviews.create_pending': 1,
          'pr.reviews.submit': 1,
        })
        expect(result.by_operation['pr.reviews.comment'], file).to.be.at.least(3)
      }
      // Retries are the tool layer's to report: none here, and none at all in the arms that did not run it.
      expect(result.internal_retries, file).to.equal(arm === 'ghx' ? 0 : null)
      expect(
        Object.keys(result.by_operation).filter((op) => op.startsWith('rest.') || op === 'graphql.other'),
        file,
      ).to.deep.equal([])
    }
  })

  it('counts as failed the one call zsh refused to run; the traces mark every call a success', () => {
    const failed = Object.fromEntries(
      Object.keys(BY_HAND).map((file) => [file, accountToolCalls(session(file), OFFICIAL_MCP_TOOLS, GHX).failed]),
    )
    expect(failed).to.deep.equal(
      Object.fromEntries(Object.keys(BY_HAND).map((file) => [file, file === 'baseline-iter-0.json' ? 1 : 0])),
    )
  })
})
