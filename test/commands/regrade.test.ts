// `ghx-bench regrade`: stored task results judged again with the catalogue's current conditions.
import {mkdir, readdir, readFile, writeFile} from 'node:fs/promises'
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
          {
            name: 'comment_added',
            task: 'issue.comments.list',
            passed,
            result: [{body: 'Triaged — tracking as enhancement.'}],
          },
          {name: 'enhancement_added', task: 'issue.view', passed: true, result: issue},
          // Judged with an older condition that did not allow the seed label: a false failure.
          {name: 'triage_labels_removed', task: 'issue.view', passed: false, result: issue},
        ],
      })
    const imported = makeRow({scenario_id: 'issue-view-001', iteration: 2})
    await writeFile(
      path.join(dir, 'run.jsonl'),
      [stored(true), imported].map((r) => JSON.stringify(r)).join('\n') + '\n',
    )
    const result = await runCliInProcess(['regrade', '--input', 'run.jsonl'], {cwd: dir})
    expect(result.code, result.stderr).to.equal(0)
    expect(result.stdout).to.include('2 rows: 1 re-graded, 1 copied as they were, 1 verdict(s) changed')
    expect(result.stdout).to.include(
      'issue-triage-comment-wf-001 agent_direct #1: fail -> pass; triage_labels_removed: all 3 elements of labels pass field_matches',
    )
    const rows = (await readFile(path.join(dir, 'run.regraded.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as {success: boolean; outcome: string})
    expect(rows.map((r) => [r.success, r.outcome])).to.deep.equal([
      [true, 'pass'],
      [true, 'pass'],
    ])
  })
})

// Issue 27, item 7: bad input to regrade is exit 2 at file:line, with no stack and no partial file left;
// the rows of a run named X.regraded (before such names were refused) are never overwritten.
describe('ghx-bench regrade: bad input (CLI)', () => {
  it('exits 2 naming file:line of a bad line after thousands of rows, and leaves no partial file', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': `suites_dir: ${path.join(PROJECT_ROOT, 'suites')}\n`})
    // Enough rows that writes are in flight when the bad line is read.
    const rows = Array.from({length: 3000}, (_, i) => JSON.stringify(makeRow({iteration: i + 1})))
    await mkdir(path.join(dir, 'results'))
    await writeFile(
      path.join(dir, 'results', 'run-1.jsonl'),
      [...rows, 'not json', JSON.stringify(makeRow({iteration: 3001}))].join('\n') + '\n',
    )
    const result = await runCliInProcess(['regrade', '--run-id', 'run-1'], {cwd: dir})
    expect(result.code, result.stderr).to.equal(2)
    expect(result.stderr).to.match(
      new RegExp(`^${path.join('results', 'run-1.jsonl').replaceAll('.', '\\.')}:3001:1 error: not JSON`),
    )
    expect(result.stderr).to.not.match(/\n\s+at /)
    expect(await readdir(path.join(dir, 'results'))).to.deep.equal(['run-1.jsonl'])
  })

  it('refuses a results file that repeats a run, and to overwrite the rows of a run named X.regraded', async () => {
    const dir = await makeProject({'.ghxbenchrc.yml': `suites_dir: ${path.join(PROJECT_ROOT, 'suites')}\n`})
    await mkdir(path.join(dir, 'results'))
    const rows = [1, 2].map((i) => JSON.stringify(makeRow({iteration: i})))
    await writeFile(path.join(dir, 'results', 'run-1.jsonl'), [...rows, ...rows].join('\n') + '\n')
    const repeated = await runCliInProcess(['regrade', '--run-id', 'run-1'], {cwd: dir})
    expect(repeated.code, repeated.stderr).to.equal(2)
    expect(repeated.stderr).to.include(
      `${path.join('results', 'run-1.jsonl')}:3:1 error: this line repeats the run of line 1`,
    )
    expect((await readdir(path.join(dir, 'results'))).sort()).to.deep.equal(['run-1.jsonl'])

    const other =
      (await readFile(path.join(dir, 'results', 'run-1.jsonl'), 'utf8'))
        .split('\n')
        .slice(0, 2)
        .join('\n')
        .replaceAll('"run-1"', '"run-2.regraded"') + '\n'
    await writeFile(path.join(dir, 'results', 'run-2.jsonl'), rows.join('\n').replaceAll('"run-1"', '"run-2"') + '\n')
    await writeFile(path.join(dir, 'results', 'run-2.regraded.jsonl'), other)
    const overwrite = await runCliInProcess(['regrade', '--run-id', 'run-2'], {cwd: dir})
    expect(overwrite.code, overwrite.stderr).to.equal(2)
    expect(overwrite.stderr).to.include(
      `${path.join('results', 'run-2.regraded.jsonl')}:1:1 error: holds the rows of run "run-2.regraded", not re-graded rows`,
    )
    expect(await readFile(path.join(dir, 'results', 'run-2.regraded.jsonl'), 'utf8')).to.equal(other)
  })
})
