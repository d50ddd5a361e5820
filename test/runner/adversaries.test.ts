// What each adversary model plays: a made-up or empty envelope, the plan on another resource, the plan's reads.
import {expect} from 'chai'
import {ghxAccounting} from '../../plugins/mode-ghx/accounting.js'
import {changesGithub, madeUpEnvelope, wrongTargetVariables} from '../../src/runner/adversaries.js'
import type {AtomicScenario, Scenario} from '../../src/schemas/scenario.js'
import type {Manifest} from '../../src/seeding/manifest.js'

const manifest = {
  version: 1,
  seed_id: 'cal',
  generated_at: '2026-11-27T00:00:00Z',
  repo: {owner: 'ghx-bench', name: 'sandbox', full_name: 'ghx-bench/sandbox', default_branch: 'main'},
  actors: {agent: 'ghx-bench-agent', reviewer: 'ghx-bench-reviewer'},
  resources: {
    issue: {seeded: {}, number: 1, node_id: 'I_1'},
    issue_for_triage: {seeded: {}, number: 2, node_id: 'I_2'},
    pr_with_mixed_threads: {seeded: {}, number: 9, resolved_thread_id: 'T_r', unresolved_thread_id: 'T_u'},
    release: {seeded: {}, id: 4, tag_name: 'v1'},
  },
} as unknown as Manifest

const atomic = (fields: Partial<AtomicScenario>): AtomicScenario =>
  ({
    type: 'atomic',
    id: 'a',
    name: 'a',
    task: 'issue.labels.add',
    input: {owner: '{{owner}}', name: '{{repo}}', issueNumber: '{{issue}}', labels: ['enhancement']},
    assertions: {
      expected_outcome: 'success',
      required_data_fields: ['labels'],
      data_type: 'object',
      require_tool_calls: true,
      min_tool_calls: 1,
    },
    ...fields,
  }) as AtomicScenario
const variables = {owner: 'ghx-bench', repo: 'sandbox', issue: 2}

describe('adversaries', () => {
  describe('liar and empty', () => {
    it('liar: a well-formed envelope that echoes the input and fills the fields the answer must have', () => {
      const envelope = madeUpEnvelope(atomic({}), variables, 'made_up')
      expect(envelope).to.deep.include({ok: true})
      expect(envelope.data).to.deep.equal({
        owner: 'ghx-bench',
        name: 'sandbox',
        issueNumber: 2,
        labels: ['enhancement'],
      })
      const list = madeUpEnvelope(
        atomic({
          task: 'issue.list',
          input: {owner: '{{owner}}', name: '{{repo}}'},
          assertions: {expected_outcome: 'success', data_type: 'array', require_tool_calls: true, min_tool_calls: 1},
        }),
        variables,
        'made_up',
      )
      expect(list.data).to.deep.equal([{owner: 'ghx-bench', name: 'sandbox'}])
    })
    it('liar: numbers, flags and texts made up by the field’s name; empty: their empty values', () => {
      const scenario = atomic({
        task: 'pr.view',
        input: {owner: '{{owner}}', name: '{{repo}}', prNumber: 9},
        assertions: {
          expected_outcome: 'success',
          required_data_fields: ['number', 'title', 'isDraft', 'files'],
          data_type: 'object',
          require_tool_calls: true,
          min_tool_calls: 1,
        },
      })
      expect(madeUpEnvelope(scenario, variables, 'made_up').data).to.deep.include({
        number: 9,
        title: 'title of pr.view',
        isDraft: true,
      })
      expect(madeUpEnvelope(scenario, variables, 'empty').data).to.deep.equal({
        items: [],
        number: 0,
        title: '',
        isDraft: false,
        files: [],
      })
    })
  })

  describe('wrong_target', () => {
    const bound = (bindings: Record<string, string>): Scenario =>
      atomic({fixture: {requires: ['issue_for_triage'], bindings}})
    it('moves a binding to another resource of the same family, all of a resource’s bindings to the same one', () => {
      expect(
        wrongTargetVariables(
          bound({issue: 'resources.issue_for_triage.number', node: 'resources.issue_for_triage.node_id'}),
          {...variables, node: 'I_2'},
          manifest,
        ),
      ).to.deep.include({issue: 1, node: 'I_1'})
    })
    it('each binding moves whatever its order: the pull request to another, its thread to the other thread', () => {
      const threadFirst = bound({
        thread: 'resources.pr_with_mixed_threads.unresolved_thread_id',
        pr: 'resources.pr_with_mixed_threads.number',
      })
      const prFirst = bound({
        pr: 'resources.pr_with_mixed_threads.number',
        thread: 'resources.pr_with_mixed_threads.unresolved_thread_id',
      })
      const withPulls = {
        ...manifest,
        resources: {...manifest.resources, pr: {seeded: {}, number: 8}},
      } as unknown as Manifest
      for (const scenario of [threadFirst, prFirst])
        expect(wrongTargetVariables(scenario, {...variables, pr: 9, thread: 'T_u'}, withPulls)).to.deep.include({
          pr: 8,
          thread: 'T_r',
        })
    })
    it('a resource alone in its family moves to its sibling field (the other thread)', () => {
      expect(
        wrongTargetVariables(
          bound({
            pr: 'resources.pr_with_mixed_threads.number',
            thread: 'resources.pr_with_mixed_threads.unresolved_thread_id',
          }),
          {...variables, pr: 9, thread: 'T_u'},
          manifest,
        ),
      ).to.deep.include({pr: 9, thread: 'T_r'})
    })
    it('an "other" resource with this one’s id is the same resource: none of its bindings move (the plan would act on the right run)', () => {
      const run: Scenario = atomic({
        fixture: {
          requires: ['workflow_run'],
          bindings: {run_id: 'resources.workflow_run.id', job_id: 'resources.workflow_run.job_id'},
        },
      })
      const runs = (otherId: number) =>
        ({
          ...manifest,
          resources: {
            ...manifest.resources,
            workflow_run: {seeded: {}, id: 7, job_id: 70},
            workflow_run_in_progress: {seeded: {}, id: otherId, job_id: 80},
          },
        }) as unknown as Manifest
      expect(wrongTargetVariables(run, {...variables, run_id: 7, job_id: 70}, runs(7))).to.equal(undefined)
      expect(wrongTargetVariables(run, {...variables, run_id: 7, job_id: 70}, runs(8))).to.deep.include({
        run_id: 8,
        job_id: 80,
      })
    })
    it('nothing to move: undefined (the adversary does not apply)', () => {
      expect(
        wrongTargetVariables(bound({release: 'resources.release.id'}), {...variables, release: 4}, manifest),
      ).to.equal(undefined)
      expect(wrongTargetVariables(atomic({}), variables, manifest)).to.equal(undefined)
    })
  })

  describe('read_only: which plan steps change GitHub', () => {
    const noLayer = {}
    const ghx = {accounting: ghxAccounting}
    const shell = (command: string) => ({tool: 'shell', args: {command}})
    it('gh commands and gh api calls by their operation', () => {
      expect(changesGithub(shell('gh issue view 2 -R o/r --json labels'), noLayer)).to.equal(false)
      expect(changesGithub(shell('gh issue edit 2 -R o/r --add-label enhancement'), noLayer)).to.equal(true)
      expect(changesGithub(shell('gh api repos/o/r/issues/2'), noLayer)).to.equal(false)
      expect(changesGithub(shell('gh api repos/o/r/issues/2/labels -f labels[]=x'), noLayer)).to.equal(true)
      expect(changesGithub(shell('gh api -X DELETE repos/o/r/issues/2/labels/x'), noLayer)).to.equal(true)
    })
    it('MCP tools by their operation, unknown ones by their verb', () => {
      expect(changesGithub({tool: 'get_issue', args: {}}, noLayer)).to.equal(false)
      expect(changesGithub({tool: 'update_issue', args: {labels: ['x']}}, noLayer)).to.equal(true)
      expect(changesGithub({tool: 'list_commits', args: {}}, noLayer)).to.equal(false)
      expect(changesGithub({tool: 'create_or_update_file', args: {}}, noLayer)).to.equal(true)
    })
    it('ghx capabilities by their kind, through the mode’s accounting', () => {
      expect(
        changesGithub(shell(`ghx run issue.view --input '{"owner":"o","name":"r","issueNumber":2}'`), ghx),
      ).to.equal(false)
      expect(
        changesGithub(
          shell(`ghx run issue.labels.add --input '{"owner":"o","name":"r","issueNumber":2,"labels":["x"]}'`),
          ghx,
        ),
      ).to.equal(true)
    })
    it('a GraphQL mutation is a change even when its selection reads what a query pattern names (parent { … })', () => {
      expect(
        changesGithub(
          shell(
            `gh api graphql -f query='mutation { addSubIssue(input: {issueId: "I_1", subIssueId: "I_2"}) { issue { parent { id } } } }'`,
          ),
          noLayer,
        ),
      ).to.equal(true)
      expect(
        changesGithub(
          shell(
            `gh api graphql -f query='query { repository(owner: "o", name: "r") { issue(number: 2) { parent { id } } } }'`,
          ),
          noLayer,
        ),
      ).to.equal(false)
    })
    it('a step it cannot read (no GitHub operation named) counts as a change, so read_only never plays it', () => {
      expect(changesGithub(shell('./fix.sh && git push'), noLayer)).to.equal(true)
    })
  })
})
