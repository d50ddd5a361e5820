// The other fixture kinds on the sandbox: an issue with a branch, a failed workflow run, a draft
// release, a project board; each seeded, checked, changed, reset.
import {expect} from 'chai'
import type {FixtureContext} from '../../src/seeding/context.js'
import {seedIssue} from '../../src/seeding/issues.js'
import {issueWithBranchStatus, resetIssueWithBranch, seedIssueWithBranch} from '../../src/seeding/issue-with-branch.js'
import {projectStatus, resetProject, seedProject} from '../../src/seeding/projects.js'
import {releaseStatus, resetRelease, seedRelease} from '../../src/seeding/releases.js'
import {seedWorkflowRun, workflowRunStatus} from '../../src/seeding/workflow-runs.js'
import {startSandbox, type Sandbox} from '../../src/emulator/index.js'
import {fixtureContext, OWNER, REPO} from '../support/sandbox.js'

describe('other fixtures', () => {
  let sandbox: Sandbox
  let ctx: FixtureContext
  const repo = {owner: OWNER, repo: REPO}

  before(async () => {
    sandbox = await startSandbox({timing: {queued_ms: 20, running_ms: 40}})
    ctx = fixtureContext(sandbox)
  })
  after(() => sandbox.close())

  it('issue_with_branch: a branch with a fix; a pull request opened from it is closed by reset', async () => {
    const fixture = await seedIssueWithBranch(ctx)
    expect(await issueWithBranchStatus(ctx, fixture)).to.deep.equal([])
    await ctx.agent.rest.pulls.create({
      ...repo,
      title: 'Fix paging',
      head: fixture.branch,
      base: 'main',
      body: `Fixes #${fixture.number}`,
    })
    expect(await issueWithBranchStatus(ctx, fixture)).to.have.length(1)
    await resetIssueWithBranch(ctx, fixture)
    expect(await issueWithBranchStatus(ctx, fixture)).to.deep.equal([])
  })

  it('workflow_run: a completed run that failed on attempt 1, with its failed job', async () => {
    const run = await seedWorkflowRun(ctx, {pollMs: 20})
    expect(await workflowRunStatus(ctx, run)).to.deep.equal([])
    const job = await ctx.agent.rest.actions.getJobForWorkflowRun({...repo, job_id: run.job_id})
    expect(job.data).to.include({name: 'verify', conclusion: 'failure'})
    await ctx.agent.rest.actions.reRunWorkflowFailedJobs({...repo, run_id: run.id})
    expect((await workflowRunStatus(ctx, run))[0]).to.match(/is on attempt 2/)
    const fresh = await seedWorkflowRun(ctx, {pollMs: 20})
    expect(fresh.id).to.not.equal(run.id)
  })

  it('release: a draft that reset brings back after publishing', async () => {
    const release = await seedRelease(ctx)
    expect((await seedRelease(ctx)).id).to.equal(release.id)
    await ctx.agent.rest.repos.updateRelease({...repo, release_id: release.id, draft: false, body: 'shipped'})
    expect(await releaseStatus(ctx, release)).to.deep.equal([
      'published (seeded as a draft)',
      'notes differ from the seeded notes',
    ])
    await resetRelease(ctx, release)
    expect(await releaseStatus(ctx, release)).to.deep.equal([])
  })

  it('project: the fixture issue on a board with a Status field; extra items and values reset', async () => {
    const issue = await seedIssue(ctx, 'issue')
    const project = await seedProject(ctx, issue)
    expect((await seedProject(ctx, issue)).id).to.equal(project.id)
    expect(await projectStatus(ctx, project)).to.deep.equal([])
    await ctx.agent.graphql(
      'mutation($p: ID!, $i: ID!, $f: ID!, $o: String!) { updateProjectV2ItemFieldValue(input: {projectId: $p, itemId: $i, fieldId: $f, value: {singleSelectOptionId: $o}}) { projectV2Item { id } } }',
      {p: project.id, i: project.item_id, f: project.field_id, o: project.option_id},
    )
    const other = await ctx.agent.rest.issues.create({...repo, title: 'another'})
    await ctx.agent.graphql(
      'mutation($p: ID!, $c: ID!) { addProjectV2ItemById(input: {projectId: $p, contentId: $c}) { item { id } } }',
      {p: project.id, c: other.data.node_id},
    )
    expect(await projectStatus(ctx, project)).to.deep.equal([
      '2 item(s), seeded 1',
      'a Status value is set (seeded unset)',
    ])
    await resetProject(ctx, project)
    expect(await projectStatus(ctx, project)).to.deep.equal([])
  })
})
