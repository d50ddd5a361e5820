/** Every fixture kind by name: the table seeding, reset, digests and status look a kind up in. */
import {fixtureKinds} from '../schemas/common.js'
import type {FixtureKind} from '../schemas/scenario.js'
import {issueWithBranchKind} from './issue-with-branch.js'
import {issueKind} from './issues.js'
import type {FixtureKindEntry} from './kind.js'
import {projectKind} from './projects.js'
import {pullKind} from './pulls.js'
import {releaseKind} from './releases.js'
import {workflowRunKind} from './workflow-runs.js'

export const FIXTURE_KINDS: Record<FixtureKind, FixtureKindEntry> = {
  issue: issueKind('issue'),
  issue_for_triage: issueKind('issue_for_triage'),
  issue_bug_to_close: issueKind('issue_bug_to_close'),
  issue_closed: issueKind('issue_closed'),
  issue_with_branch: issueWithBranchKind,
  pr: pullKind('pr'),
  pr_with_bugs: pullKind('pr_with_bugs'),
  pr_with_changes: pullKind('pr_with_changes'),
  pr_with_reviews: pullKind('pr_with_reviews'),
  pr_with_mixed_threads: pullKind('pr_with_mixed_threads'),
  pr_with_fix_request: pullKind('pr_with_fix_request'),
  pr_conflicting: pullKind('pr_conflicting'),
  pr_behind_base: pullKind('pr_behind_base'),
  pr_failing_lint: pullKind('pr_failing_lint'),
  workflow_run: workflowRunKind('workflow_run'),
  workflow_run_in_progress: workflowRunKind('workflow_run_in_progress'),
  release: releaseKind,
  project: projectKind,
}

/** Every kind, dependencies first (the schema lists them in that order). */
export const ALL_KINDS: FixtureKind[] = [...fixtureKinds]

export function withDependencies(kinds: Iterable<FixtureKind>): FixtureKind[] {
  const wanted = new Set<FixtureKind>()
  const add = (kind: FixtureKind) => {
    for (const dependency of FIXTURE_KINDS[kind].dependencies) add(dependency)
    wanted.add(kind)
  }
  for (const kind of kinds) add(kind)
  return ALL_KINDS.filter((kind) => wanted.has(kind))
}
