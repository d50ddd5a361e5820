// `ghx-bench regrade`: stored task results judged again with the catalogue's current conditions.
import {readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {makeRow} from '../support/rows.js'
import {makeProject, PROJECT_ROOT} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'

describe('ghx-bench regrade (CLI)', () => {
  it('re-judges stored checkpoint results offline and reports the verdicts that changed', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': `suites_dir: ${path.join(PROJECT_ROOT, 'suites')}\n`})
    const issue = {labels: ['bench-fixture', 'bench-seed:x', 'enhancement']}
    const stored = (passed: boolean) =>
      makeRow({
        scenario_id: 'issue-triage-comment-wf-001',
        scenario_type: 'workflow',
        success: false,
        outcome: 'fail',
        variables: {owner: 'o', repo: 'r', issue_number: 1},
        checkpoints: [
          {name: 'comment_added', task: 'issue.comments.list', passed, result: [{body: 'Triaged — tracking as enhancement.'}]},
          {name: 'enhancement_added', task: 'issue.view', passed: true, result: issue},
          // Judged with an older condition that did not allow the seed label: a false failure.
          {name: 'triage_labels_removed', task: 'issue.view', passed: false, result: issue},
        ],
      })
    const imported = makeRow({scenario_id: 'issue-view-001', iteration: 2})
    await writeFile(path.join(dir, 'run.jsonl'), [stored(true), imported].map((r) => JSON.stringify(r)).join('\n') + '\n')
    const result = await runCliInProcess(['regrade', '--input', 'run.jsonl'], {cwd: dir})
    expect(result.code, result.stderr).to.equal(0)
    expect(result.stdout).to.include('2 rows: 1 re-graded, 1 copied as they were, 1 verdict(s) changed')
    expect(result.stdout).to.include('issue-triage-comment-wf-001 agent_direct #1: fail -> pass; triage_labels_removed: all 3 elements of labels pass field_matches')
    const rows = (await readFile(path.join(dir, 'run.regraded.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as {success: boolean; outcome: string})
    expect(rows.map((r) => [r.success, r.outcome])).to.deep.equal([[true, 'pass'], [true, 'pass']])
  })
})
