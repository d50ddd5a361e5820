// Each adversary model, played through the real mode and provider, against two built-in scenarios: the
// answer it gives has the shape the old judge asked for (output_valid: the envelope keeps its contract),
// and it passed there; the checkpoints now read GitHub and the answer's truth, and it fails.
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {makeProject} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'
import {rowsOf, sandboxConfig, SUITES} from '../support/sandbox-project.js'

const SCENARIOS = ['issue-labels-add-001', 'issue-list-001']

async function project(): Promise<string> {
  const files: Record<string, string> = {
    '.ghxbenchrc.yml': sandboxConfig('catalogue'),
    'catalogue/two.yml': `name: two\nscenarios: {ids: [${SCENARIOS.join(', ')}]}\nmodes: [agent_direct, mcp]\nrepetitions: 1\ntimeouts: {checkpoint_ms: 1000}\n`,
  }
  for (const id of SCENARIOS)
    files[`catalogue/scenarios/${id}.yml`] = await readFile(path.join(SUITES, 'scenarios', `${id}.yml`), 'utf8')
  return makeProject(files)
}

describe('adversary models against the checks (CLI, sandbox)', function () {
  this.timeout(120_000)
  let dir: string
  before(async () => {
    dir = await project()
  })

  const play = async (model: string) => {
    const result = await runCliInProcess(
      ['run', 'catalogue/two.yml', '--model', model, '--run-id', model, '--no-report'],
      {cwd: dir, env: {CI: '1'}},
    )
    expect(result.code, result.stderr + result.stdout.slice(-2000)).to.equal(0)
    return new Map(rowsOf(dir, model).map((row) => [`${row.scenario_id}/${row.mode}`, row]))
  }
  const failedBy = (
    row: {success: boolean; output_valid: boolean; error: {type: string; message: string} | null} | undefined,
    checkpoint: string,
  ) => {
    expect(row, 'a row').to.not.equal(undefined)
    expect(row!.success).to.equal(false)
    expect(row!.error?.type).to.equal('checkpoint_failed')
    expect(row!.error?.message).to.include(checkpoint)
  }

  it('the oracle passes both in both modes (the checks can pass)', async () => {
    const rows = await play('oracle')
    expect([...rows.values()].map((r) => `${r.scenario_id}/${r.mode}/${r.outcome}`).sort()).to.deep.equal([
      'issue-labels-add-001/agent_direct/pass',
      'issue-labels-add-001/mcp/pass',
      'issue-list-001/agent_direct/pass',
      'issue-list-001/mcp/pass',
    ])
  })

  it('liar: reads, then a well-formed made-up answer (it had the shape asked for) fails on GitHub’s state and on the answer’s truth', async () => {
    const rows = await play('liar')
    for (const mode of ['agent_direct', 'mcp']) {
      const add = rows.get(`issue-labels-add-001/${mode}`)
      expect(add?.output_valid, 'the old judge’s shape check passes it').to.equal(true)
      // It read the issue (a tool-call minimum does not unmask it), changed nothing, and answered the input back.
      expect(add?.tool_calls.total).to.be.above(0)
      failedBy(add, 'labels_added')
      failedBy(rows.get(`issue-list-001/${mode}`), 'answer_true')
    }
  })

  it('empty: reads, then a well-formed empty list (it passed the old `data_type: array`) fails: the fixture has open issues', async () => {
    const rows = await play('empty')
    for (const mode of ['agent_direct', 'mcp']) {
      const list = rows.get(`issue-list-001/${mode}`)
      expect(list?.output_valid).to.equal(true)
      failedBy(list, 'answer_true')
      failedBy(rows.get(`issue-labels-add-001/${mode}`), 'labels_added')
    }
  })

  it('wrong_target: the plan played on another issue of the fixture fails (the right issue has no new label)', async () => {
    const rows = await play('wrong_target')
    for (const mode of ['agent_direct', 'mcp']) {
      const add = rows.get(`issue-labels-add-001/${mode}`)
      expect(add?.output_valid).to.equal(true)
      expect(add?.tool_calls.total).to.be.above(0)
      failedBy(add, 'labels_added')
    }
  })

  it('read_only: the plan’s reads only (gh issue view, get_issue) and an answer of the labels read: fails', async () => {
    const rows = await play('read_only')
    const direct = rows.get('issue-labels-add-001/agent_direct')
    expect(direct?.output_valid).to.equal(true)
    expect(direct?.tool_calls.by_operation).to.deep.equal({'issue.view': 1})
    failedBy(direct, 'labels_added')
    failedBy(rows.get('issue-labels-add-001/mcp'), 'labels_added')
  })
})
