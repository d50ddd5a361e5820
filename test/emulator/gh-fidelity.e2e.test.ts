// The gh commands agents commonly run on issue, pull request, workflow, release, repository, label and
// search work, with realistic flags and --json field sets, run exactly as the agent_direct arm runs gh
// (Debian's gh 2.23 with the sandbox's ghEnv, outside any git checkout, the repository named with -R):
// each exits 0 and, with --json, returns every field it asked for. A failure here is the emulator's,
// not the tool layer's: the benchmark would measure the sandbox.
//
// gh 2.23's quirks (the installed version): `gh search code` does not exist (agents use
// `gh api search/code`); `gh pr checks`, `gh release list` and `gh workflow list` have no --json;
// `gh repo view` takes the repository as an argument, not -R; `gh issue list` with --label,
// --milestone or --search, and `gh pr list` with --label, --author, --assignee, --draft or --search go
// through GraphQL's search (gh 2.23 asks `search(last: N)` for issues); `gh pr status` asks for the
// base branch's protection rule and searches `author:@me` and `review-requested:@me`.
import {execFile} from 'node:child_process'
import {mkdtemp} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {loadGithubOpenApi, type GithubOpenApi} from '../support/openapi.js'
import {OWNER, REPO, seedSandbox, waitForRun, type Seeded} from '../support/sandbox.js'
import {API_CHANGES, API_READS, R, type Case, type Fixture, type Json} from './gh-api-fidelity-cases.js'

const base = {owner: OWNER, repo: REPO}

// Every field of gh 2.23's `gh repo view --json`.
const REPO_VIEW_FIELDS =
  'assignableUsers,codeOfConduct,contactLinks,createdAt,defaultBranchRef,deleteBranchOnMerge,description,diskUsage,forkCount,fundingLinks,hasDiscussionsEnabled,hasIssuesEnabled,hasProjectsEnabled,hasWikiEnabled,homepageUrl,id,isArchived,isBlankIssuesEnabled,isEmpty,isFork,isInOrganization,isMirror,isPrivate,isSecurityPolicyEnabled,isTemplate,isUserConfigurationRepository,issueTemplates,issues,labels,languages,latestRelease,licenseInfo,mentionableUsers,mergeCommitAllowed,milestones,mirrorUrl,name,nameWithOwner,openGraphImageUrl,owner,parent,primaryLanguage,projects,pullRequestTemplates,pullRequests,pushedAt,rebaseMergeAllowed,repositoryTopics,securityPolicyUrl,squashMergeAllowed,sshUrl,stargazerCount,templateRepository,updatedAt,url,usesCustomOpenGraphImage,viewerCanAdminister,viewerDefaultCommitEmail,viewerDefaultMergeMethod,viewerHasStarred,viewerPermission,viewerPossibleCommitEmails,viewerSubscription,watchers'
// gh 2.23's `gh pr view --json` fields, all but potentialMergeCommit (GitHub's test merge commit, which the sandbox does not make: 501).
const PR_VIEW_FIELDS =
  'additions,assignees,author,baseRefName,body,changedFiles,closed,closedAt,comments,commits,createdAt,deletions,files,headRefName,headRefOid,headRepository,headRepositoryOwner,id,isCrossRepository,isDraft,labels,latestReviews,maintainerCanModify,mergeCommit,mergeStateStatus,mergeable,mergedAt,mergedBy,milestone,number,projectCards,reactionGroups,reviewDecision,reviewRequests,reviews,state,statusCheckRollup,title,updatedAt,url'
const ISSUE_VIEW_FIELDS =
  'assignees,author,body,closed,closedAt,comments,createdAt,id,labels,milestone,number,projectCards,reactionGroups,state,title,updatedAt,url'

const numbers = (out: string) => (JSON.parse(out) as Array<{number: number}>).map((i) => i.number)

/** The commands, in the order they run: reads of the seeded state, then the changes agents make. */
const CASES: Case[] = [
  // What an agent checks first: plain, every host gh knows (the sandbox's, from gh's config: no github.com to fail on).
  {args: () => ['auth', 'status']},
  // gh 2.23's `auth token` asks for github.com's unless told the host (GH_HOST does not move it).
  {
    args: () => ['auth', 'token', '--hostname', 'github.localhost'],
    check: (out, f) => expect(out.trim()).to.equal(f.s.sandbox.token),
  },

  // issues: reads
  {args: () => ['issue', 'list', '-R', R], check: (out) => expect(out).to.include('Crash on start')},
  {
    args: () => ['issue', 'list', '-R', R, '--label', 'bug', '--json', 'number,title,labels,assignees,milestone,state'],
    check: (out, f) => expect(numbers(out)).to.deep.equal([f.s.issue]),
  },
  {
    args: () => [
      'issue',
      'list',
      '-R',
      R,
      '--state',
      'all',
      '--json',
      'number,title,state,createdAt,updatedAt,closedAt,author,url',
    ],
    check: (out, f) => expect(numbers(out)).to.include.members([f.s.issue, f.docsIssue, f.gfiIssue]),
  },
  {
    args: () => ['issue', 'list', '-R', R, '--assignee', '@me', '--json', 'number,title,assignees'],
    check: (out, f) => expect(numbers(out)).to.deep.equal([f.s.issue]),
  },
  {
    args: () => ['issue', 'list', '-R', R, '--author', 'ghx-bench-reviewer', '--json', 'number,title,author'],
    check: (out, f) => expect(numbers(out)).to.deep.equal([f.gfiIssue]),
  },
  {
    args: () => ['issue', 'list', '-R', R, '--milestone', 'v1.0', '--json', 'number,title,milestone'],
    check: (out, f) => expect(numbers(out)).to.deep.equal([f.s.issue]),
  },
  {
    args: () => ['issue', 'list', '-R', R, '--search', 'crash in:title', '--json', 'number,title,state'],
    check: (out, f) => expect(numbers(out)).to.deep.equal([f.s.issue]),
  },
  {
    args: () => ['issue', 'list', '-R', R, '--label', 'good first issue', '--json', 'number,title,labels'],
    check: (out, f) => expect(numbers(out)).to.deep.equal([f.gfiIssue]),
  },
  {
    args: () => ['issue', 'list', '-R', R, '--state', 'closed', '--json', 'number,title,state'],
    check: (out, f) => expect(numbers(out)).to.deep.equal([f.docsIssue]),
  },
  {
    args: () => ['issue', 'list', '-R', R, '--mention', '@me', '--json', 'number,title'],
    check: (out, f) => expect(numbers(out)).to.deep.equal([f.s.issue]),
  },
  {
    args: (f) => ['issue', 'view', String(f.s.issue), '-R', R],
    check: (out) => expect(out).to.match(/^title:\tCrash on start/m),
  },
  {
    args: (f) => ['issue', 'view', String(f.s.issue), '-R', R, '--comments'],
    check: (out) => expect(out).to.include('can you take a look?'),
  },
  {args: (f) => ['issue', 'view', String(f.s.issue), '-R', R, '--json', ISSUE_VIEW_FIELDS]},
  {args: () => ['issue', 'status', '-R', R], check: (out) => expect(out).to.include('Crash on start')},
  {
    args: () => ['issue', 'status', '-R', R, '--json', 'number,title,state,labels'],
    groups: ['assigned', 'createdBy', 'mentioned'],
    check: (out, f) =>
      expect((JSON.parse(out) as {mentioned: Json[]}).mentioned.map((i) => i.number)).to.deep.equal([f.s.issue]),
  },

  // pull requests: reads
  {args: () => ['pr', 'list', '-R', R], check: (out) => expect(out).to.include('Add stats helpers')},
  {
    args: () => [
      'pr',
      'list',
      '-R',
      R,
      '--json',
      'number,title,state,author,headRefName,baseRefName,isDraft,labels,createdAt,url',
    ],
    check: (out, f) => expect(numbers(out)).to.include.members([f.s.pr, f.draftPr, f.approvedPr]),
  },
  {
    args: () => ['pr', 'list', '-R', R, '--label', 'enhancement', '--json', 'number,title,labels'],
    check: (out, f) => expect(numbers(out)).to.deep.equal([f.draftPr]),
  },
  {
    args: () => ['pr', 'list', '-R', R, '--author', '@me', '--json', 'number,title,author,isDraft'],
    check: (out, f) => expect(numbers(out).sort()).to.deep.equal([f.draftPr, f.approvedPr].sort()),
  },
  {
    args: () => ['pr', 'list', '-R', R, '--assignee', '@me', '--json', 'number,title,assignees'],
    check: (out, f) => expect(numbers(out)).to.deep.equal([f.draftPr]),
  },
  {
    args: () => ['pr', 'list', '-R', R, '--draft', '--json', 'number,title,isDraft'],
    check: (out, f) => expect(numbers(out)).to.deep.equal([f.draftPr]),
  },
  {
    args: () => ['pr', 'list', '-R', R, '--search', 'review:required', '--json', 'number,title,reviewDecision'],
    check: (out, f) => expect(numbers(out)).to.deep.equal([f.draftPr]),
  },
  {
    args: () => ['pr', 'list', '-R', R, '--search', 'review:approved', '--json', 'number,title,reviewDecision'],
    check: (out, f) => expect(numbers(out)).to.deep.equal([f.approvedPr]),
  },
  {
    args: () => ['pr', 'list', '-R', R, '--search', 'status:success', '--json', 'number,statusCheckRollup'],
    check: (out, f) => expect(numbers(out)).to.deep.equal([f.s.pr]),
  },
  {
    args: () => [
      'pr',
      'list',
      '-R',
      R,
      '--state',
      'merged',
      '--json',
      'number,title,state,mergedAt,mergedBy,mergeCommit',
    ],
    check: (out, f) => expect(numbers(out)).to.deep.equal([f.mergedPr]),
  },
  {
    args: () => ['pr', 'list', '-R', R, '--state', 'all', '--base', 'main', '--json', 'number,baseRefName,state'],
    check: (out, f) => expect(numbers(out)).to.include.members([f.s.pr, f.mergedPr]),
  },
  {
    args: () => ['pr', 'list', '-R', R, '--head', 'bench-bugs', '--json', 'number,headRefName'],
    check: (out, f) => expect(numbers(out)).to.deep.equal([f.s.pr]),
  },
  {
    args: (f) => ['pr', 'view', String(f.s.pr), '-R', R],
    check: (out) => expect(out).to.match(/^title:\tAdd stats helpers/m),
  },
  {args: (f) => ['pr', 'view', String(f.s.pr), '-R', R, '--comments']},
  {args: (f) => ['pr', 'view', String(f.s.pr), '-R', R, '--json', PR_VIEW_FIELDS]},
  {
    args: (f) => [
      'pr',
      'view',
      String(f.mergedPr),
      '-R',
      R,
      '--json',
      'number,state,mergedAt,mergedBy,mergeCommit,potentialMergeCommit',
    ],
    check: (out) => expect((JSON.parse(out) as Json).state).to.equal('MERGED'),
  },
  {
    args: (f) => ['pr', 'diff', String(f.s.pr), '-R', R],
    check: (out) => expect(out).to.include('+++ b/src/utils/stats.ts'),
  },
  {args: (f) => ['pr', 'checks', String(f.s.pr), '-R', R], check: (out) => expect(out).to.include('ci/lint')},
  {args: () => ['pr', 'status', '-R', R], check: (out, f) => expect(out).to.include(`#${f.draftPr}`)},
  {
    args: () => ['pr', 'status', '-R', R, '--json', 'number,title,state,reviewDecision,isDraft'],
    groups: ['createdBy', 'needsReview'],
    check: (out, f) =>
      expect((JSON.parse(out) as {createdBy: Json[]}).createdBy.map((i) => i.number).sort()).to.deep.equal(
        [f.draftPr, f.approvedPr].sort(),
      ),
  },

  // workflows and runs
  {args: () => ['workflow', 'list', '-R', R], check: (out) => expect(out).to.include('bench-rerun-failed')},
  {
    args: () => ['workflow', 'view', 'bench-rerun-failed.yml', '-R', R],
    check: (out) => expect(out).to.include('bench-rerun-failed'),
  },
  {
    args: () => [
      'run',
      'list',
      '-R',
      R,
      '--json',
      'conclusion,createdAt,databaseId,displayTitle,event,headBranch,headSha,name,number,startedAt,status,updatedAt,url,workflowDatabaseId,workflowName',
    ],
  },
  {
    args: () => [
      'run',
      'list',
      '-R',
      R,
      '--workflow',
      'bench-rerun-failed.yml',
      '--json',
      'databaseId,conclusion,status',
    ],
    check: (out, f) =>
      expect((JSON.parse(out) as Array<{databaseId: number}>).map((r) => r.databaseId)).to.include(f.s.runId),
  },
  {args: () => ['run', 'list', '-R', R, '--user', 'ghx-bench-agent', '--json', 'databaseId,workflowName']},
  {args: () => ['run', 'list', '-R', R, '--branch', 'main', '--limit', '5']},
  {args: (f) => ['run', 'view', String(f.s.runId), '-R', R], check: (out) => expect(out).to.include('verify')},
  {
    args: (f) => [
      'run',
      'view',
      String(f.s.runId),
      '-R',
      R,
      '--json',
      'conclusion,createdAt,databaseId,displayTitle,event,headBranch,headSha,jobs,name,number,startedAt,status,updatedAt,url,workflowDatabaseId,workflowName',
    ],
  },
  {
    args: (f) => ['run', 'view', String(f.s.runId), '-R', R, '--log-failed'],
    check: (out) => expect(out).to.include('simulated failure'),
  },
  {
    args: (f) => ['run', 'view', String(f.s.runId), '-R', R, '--log'],
    check: (out) => expect(out).to.include('simulated failure'),
  },
  {
    args: (f) => ['run', 'view', '--job', String(f.failedJobId), '-R', R],
    check: (out) => expect(out).to.include('verify'),
  },

  // releases, the repository, labels: reads
  {args: () => ['release', 'list', '-R', R], check: (out) => expect(out).to.include('v1.0.0')},
  {args: () => ['release', 'view', 'v1.0.0', '-R', R], check: (out) => expect(out).to.include('First release')},
  {
    args: () => [
      'release',
      'view',
      'v1.0.0',
      '-R',
      R,
      '--json',
      'apiUrl,assets,author,body,createdAt,id,isDraft,isPrerelease,name,publishedAt,tagName,tarballUrl,targetCommitish,uploadUrl,url,zipballUrl',
    ],
  },
  {args: () => ['repo', 'view', R], check: (out) => expect(out).to.include('ghx-bench/sandbox')},
  {
    args: () => [
      'repo',
      'view',
      R,
      '--json',
      'name,nameWithOwner,description,url,defaultBranchRef,isPrivate,isFork,isArchived,createdAt,pushedAt,primaryLanguage,languages,licenseInfo,stargazerCount,forkCount,hasIssuesEnabled,owner,repositoryTopics,homepageUrl,viewerPermission',
    ],
  },
  {args: () => ['repo', 'view', R, '--json', REPO_VIEW_FIELDS]},
  {args: () => ['label', 'list', '-R', R], check: (out) => expect(out).to.include('good first issue')},
  {args: () => ['label', 'list', '-R', R, '--json', 'color,createdAt,description,id,isDefault,name,updatedAt,url']},
  {
    args: () => ['label', 'list', '-R', R, '--search', 'bug', '--json', 'name,description'],
    check: (out) => expect((JSON.parse(out) as Array<{name: string}>).map((l) => l.name)).to.include('bug'),
  },

  // search
  {
    args: () => [
      'search',
      'issues',
      'crash',
      '--repo',
      R,
      '--json',
      'assignees,author,authorAssociation,body,closedAt,commentsCount,createdAt,id,isLocked,isPullRequest,labels,number,repository,state,title,updatedAt,url',
    ],
    check: (out, f) => expect(numbers(out)).to.deep.equal([f.s.issue]),
  },
  {
    args: () => ['search', 'issues', '--repo', R, '--label', 'bug', '--state', 'open'],
    check: (out) => expect(out).to.include('Crash on start'),
  },
  {
    args: () => ['search', 'issues', '--repo', R, '--assignee', '@me', '--json', 'number,title,assignees'],
    check: (out, f) => expect(numbers(out)).to.deep.equal([f.s.issue]),
  },
  {
    args: () => ['search', 'issues', '--repo', R, '--no-assignee', '--state', 'open', '--json', 'number,title'],
    check: (out, f) => expect(numbers(out)).to.deep.equal([f.gfiIssue]),
  },
  {
    args: () => ['search', 'issues', '--repo', R, '--milestone', 'v1.0', '--json', 'number,title'],
    check: (out, f) => expect(numbers(out)).to.deep.equal([f.s.issue]),
  },
  {
    args: () => [
      'search',
      'issues',
      'typo',
      '--repo',
      R,
      '--match',
      'title',
      '--state',
      'closed',
      '--json',
      'number,title,state',
    ],
    check: (out, f) => expect(numbers(out)).to.deep.equal([f.docsIssue]),
  },
  {
    args: () => ['search', 'prs', '--repo', R, '--review', 'required', '--json', 'number,title,isDraft'],
    check: (out, f) => expect(numbers(out)).to.deep.equal([f.draftPr]),
  },
  {
    args: () => ['search', 'prs', '--repo', R, '--draft', '--json', 'number,isDraft'],
    check: (out, f) => expect(numbers(out)).to.deep.equal([f.draftPr]),
  },
  {
    args: () => ['search', 'prs', '--repo', R, '--merged', '--json', 'number,state'],
    check: (out, f) => expect(numbers(out)).to.deep.equal([f.mergedPr]),
  },
  {
    args: () => [
      'search',
      'prs',
      '--repo',
      R,
      '--author',
      '@me',
      '--state',
      'open',
      '--json',
      'assignees,author,authorAssociation,body,closedAt,commentsCount,createdAt,id,isDraft,isLocked,isPullRequest,labels,number,repository,state,title,updatedAt,url',
    ],
    check: (out, f) => expect(numbers(out).sort()).to.deep.equal([f.draftPr, f.approvedPr].sort()),
  },
  {
    args: () => ['search', 'prs', '--repo', R, '--checks', 'success', '--json', 'number'],
    check: (out, f) => expect(numbers(out)).to.deep.equal([f.s.pr]),
  },
  {
    args: () => ['search', 'prs', '--repo', R, '--head', 'bench-bugs', '--base', 'main', '--json', 'number'],
    check: (out, f) => expect(numbers(out)).to.deep.equal([f.s.pr]),
  },
  {
    args: () => [
      'search',
      'repos',
      'sandbox',
      '--owner',
      OWNER,
      '--json',
      'createdAt,defaultBranch,description,forksCount,fullName,hasDownloads,hasIssues,hasPages,hasProjects,hasWiki,homepage,id,isArchived,isDisabled,isFork,isPrivate,language,license,name,openIssuesCount,owner,pushedAt,size,stargazersCount,updatedAt,url,visibility,watchersCount',
    ],
    check: (out) => expect((JSON.parse(out) as Array<{fullName: string}>).map((r) => r.fullName)).to.include(R),
  },
  {
    args: () => [
      'search',
      'commits',
      'initial',
      '--repo',
      R,
      '--json',
      'author,commit,committer,id,parents,repository,sha,url',
    ],
  },

  // gh api, as agents use it where gh has no command
  {
    args: () => ['api', `search/code?q=${encodeURIComponent(`fixtures repo:${R}`)}`],
    check: (out) =>
      expect((JSON.parse(out) as {items: Array<{path: string}>}).items.map((i) => i.path)).to.include('README.md'),
  },
  {
    args: (f) => ['api', `repos/${R}/commits/${f.s.prHeadSha}/status`],
    check: (out) => expect((JSON.parse(out) as Json).state).to.equal('success'),
  },
  {args: (f) => ['api', `repos/${R}/commits/${f.s.prHeadSha}/check-runs`]},
  {
    args: (f) => ['api', `repos/${R}/commits/${f.s.prHeadSha}/pulls`, '--jq', '.[].number'],
    check: (out, f) => expect(out.trim()).to.equal(String(f.s.pr)),
  },
  {args: (f) => ['api', `repos/${R}/pulls/${f.s.pr}/comments`]},
  {
    args: () => [
      'api',
      'graphql',
      '-f',
      `query=query { search(query: "repo:${R} is:issue is:open", type: ISSUE, first: 10) { issueCount nodes { ... on Issue { number title } } } }`,
    ],
    check: (out) =>
      expect((JSON.parse(out) as {data: {search: {issueCount: number}}}).data.search.issueCount).to.equal(2),
  },

  // gh api, as agents use it for most of their work (live agents: 53 of 74 gh calls): REST reads with --jq, the diff media type, GraphQL
  {args: () => ['api', `repos/${R}`, '--jq', '.default_branch'], check: (out) => expect(out.trim()).to.equal('main')},
  {
    args: (f) => ['api', `repos/${R}/issues/${f.s.issue}`, '--jq', '{number, state, labels: [.labels[].name]}'],
    check: (out) => expect((JSON.parse(out) as {labels: string[]}).labels).to.include('bug'),
  },
  {
    args: () => ['api', `repos/${R}/issues?state=all&per_page=50`, '--jq', '.[].number'],
    check: (out, f) => expect(out.split('\n').map(Number)).to.include.members([f.s.issue, f.docsIssue, f.gfiIssue]),
  },
  {
    args: (f) => ['api', `repos/${R}/issues/${f.s.issue}/comments`, '--jq', '.[].body'],
    check: (out) => expect(out).to.include('can you take a look?'),
  },
  {args: (f) => ['api', `repos/${R}/issues/${f.s.issue}/timeline`, '--jq', '.[].event']},
  {args: (f) => ['api', `repos/${R}/issues/${f.s.issue}/events`, '--jq', '.[].event']},
  {
    args: () => ['api', '--paginate', `repos/${R}/labels`, '--jq', '.[].name'],
    check: (out) => expect(out.split('\n')).to.include.members(['bug', 'enhancement', 'documentation']),
  },
  {
    args: () => ['api', `repos/${R}/milestones`, '--jq', '.[].title'],
    check: (out) => expect(out.trim()).to.equal('v1.0'),
  },
  {
    args: (f) => [
      'api',
      `repos/${R}/pulls/${f.s.pr}`,
      '--jq',
      '{title, state, mergeable, head: .head.ref, sha: .head.sha}',
    ],
    check: (out, f) => expect((JSON.parse(out) as Json).sha).to.equal(f.s.prHeadSha),
  },
  {
    args: (f) => ['api', `repos/${R}/pulls/${f.s.pr}/files`, '--jq', '.[].filename'],
    check: (out) => expect(out.trim()).to.equal('src/utils/stats.ts'),
  },
  {
    args: (f) => ['api', `repos/${R}/pulls/${f.s.pr}/commits`, '--jq', '.[].sha'],
    check: (out, f) => expect(out.split('\n')).to.include(f.s.prHeadSha),
  },
  {
    args: (f) => ['api', '-H', 'Accept: application/vnd.github.diff', `repos/${R}/pulls/${f.s.pr}`],
    check: (out) => expect(out).to.match(/^diff --git a\/src\/utils\/stats\.ts b\/src\/utils\/stats\.ts\n/),
  },
  {
    args: (f) => ['api', `repos/${R}/pulls/${f.approvedPr}/reviews`, '--jq', '.[].state'],
    check: (out) => expect(out.trim()).to.equal('APPROVED'),
  },
  {
    args: (f) => ['api', `repos/${R}/pulls/${f.draftPr}/requested_reviewers`, '--jq', '.users[].login'],
    check: (out) => expect(out.trim()).to.equal('ghx-bench-reviewer'),
  },
  {args: (f) => ['api', `repos/${R}/pulls/${f.mergedPr}/merge`]},
  {
    args: () => ['api', `repos/${R}/pulls?state=all&per_page=100`, '--jq', '.[] | "\\(.number) \\(.state)"'],
    check: (out, f) => expect(out).to.include(`${f.mergedPr} closed`),
  },
  {
    args: () => ['api', `repos/${R}/branches`, '--jq', '.[].name'],
    check: (out) => expect(out.split('\n')).to.include('main'),
  },
  {args: () => ['api', `repos/${R}/commits?sha=main&per_page=5`, '--jq', '.[].commit.message']},
  {
    args: () => [
      'api',
      `repos/${R}/compare/main...agent-empty`,
      '--jq',
      '{ahead_by, behind_by, files: [.files[].filename]}',
    ],
    check: (out) => expect(JSON.parse(out)).to.deep.equal({ahead_by: 1, behind_by: 0, files: ['src/empty.ts']}),
  },
  {args: () => ['api', `repos/${R}/readme`, '--jq', '.name'], check: (out) => expect(out.trim()).to.equal('README.md')},
  {
    args: () => ['api', '-H', 'Accept: application/vnd.github.raw', `repos/${R}/contents/src/empty.ts?ref=agent-empty`],
    check: (out) => expect(out).to.equal('export const empty = (xs: number[]) => xs.length === 0\n'),
  },
  {
    args: () => ['api', `repos/${R}/git/trees/agent-empty?recursive=1`, '--jq', '.tree[].path'],
    check: (out) => expect(out.split('\n')).to.include('src/empty.ts'),
  },
  {args: () => ['api', `repos/${R}/actions/workflows`, '--jq', '.workflows[].path']},
  {
    args: (f) => [
      'api',
      `repos/${R}/actions/runs/${f.s.runId}/jobs`,
      '--jq',
      '.jobs[] | select(.conclusion == "failure") | .id',
    ],
    check: (out, f) => expect(out.trim()).to.equal(String(f.failedJobId)),
  },
  {
    args: (f) => ['api', `repos/${R}/actions/jobs/${f.failedJobId}/logs`],
    check: (out) => expect(out).to.include('##[error]'),
  },
  {args: (f) => ['api', `repos/${R}/actions/runs/${f.s.runId}/artifacts`, '--jq', '.artifacts[].name']},
  {
    args: () => ['api', `repos/${R}/releases/latest`, '--jq', '.tag_name'],
    check: (out) => expect(out.trim()).to.equal('v1.0.0'),
  },
  {args: () => ['api', 'user', '--jq', '.login'], check: (out) => expect(out.trim()).to.equal('ghx-bench-agent')},
  {
    args: () => ['api', `search/issues?q=${encodeURIComponent(`repo:${R} is:pr is:open`)}`, '--jq', '.items[].number'],
    check: (out, f) => expect(out.split('\n').map(Number)).to.include.members([f.s.pr, f.approvedPr]),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      '-F',
      `owner=${OWNER}`,
      '-F',
      `name=${REPO}`,
      '-F',
      `number=${f.s.pr}`,
      '-f',
      'query=query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { pullRequest(number: $number) { reviewThreads(first: 50) { nodes { id isResolved path line comments(first: 10) { nodes { body author { login } } } } } } } }',
      '--jq',
      '.data.repository.pullRequest.reviewThreads.nodes[] | select(.isResolved | not) | .id',
    ],
    check: (out, f) => expect(out.split('\n')).to.include(f.s.threadIds[0]),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      '-f',
      `query=query { repository(owner: "${OWNER}", name: "${REPO}") { pullRequest(number: ${f.s.pr}) { commits(last: 1) { nodes { commit { oid statusCheckRollup { state } } } } } } }`,
      '--jq',
      '.data.repository.pullRequest.commits.nodes[0].commit.oid',
    ],
    check: (out, f) => expect(out.trim()).to.equal(f.s.prHeadSha),
  },
  ...API_READS,

  // issues: changes
  {
    args: () => [
      'issue',
      'create',
      '-R',
      R,
      '--title',
      'Flaky test in CI',
      '--body',
      'It fails one run in ten.',
      '--label',
      'bug',
      '--assignee',
      '@me',
    ],
    check: (out, f) => {
      f.created.issue = Number(/\/issues\/(\d+)/.exec(out)![1])
    },
  },
  {args: (f) => ['issue', 'comment', String(f.created.issue), '-R', R, '--body', 'Seen again on main.']},
  {
    args: (f) => [
      'issue',
      'edit',
      String(f.created.issue),
      '-R',
      R,
      '--add-label',
      'help wanted',
      '--remove-label',
      'bug',
      '--milestone',
      'v1.0',
      '--title',
      'Flaky stats test in CI',
    ],
  },
  {
    args: (f) => [
      'issue',
      'close',
      String(f.created.issue),
      '-R',
      R,
      '--comment',
      'Cannot reproduce.',
      '--reason',
      'not planned',
    ],
  },
  {args: (f) => ['issue', 'reopen', String(f.created.issue), '-R', R]},
  {args: (f) => ['issue', 'delete', String(f.created.issue), '-R', R, '--yes']},

  // pull requests: changes
  {
    args: () => [
      'pr',
      'create',
      '-R',
      R,
      '--title',
      'Handle empty input',
      '--body',
      'Fixes #1',
      '--base',
      'main',
      '--head',
      'agent-empty',
    ],
    check: (out, f) => {
      f.created.pr = Number(/\/pull\/(\d+)/.exec(out)![1])
    },
  },
  {args: (f) => ['pr', 'comment', String(f.created.pr), '-R', R, '--body', 'Ready for a look.']},
  {
    args: (f) => [
      'pr',
      'edit',
      String(f.created.pr),
      '-R',
      R,
      '--add-label',
      'bug',
      '--add-reviewer',
      'ghx-bench-reviewer',
      '--title',
      'Handle empty input in average()',
    ],
  },
  {args: (f) => ['pr', 'review', String(f.s.pr), '-R', R, '--comment', '--body', 'A few questions inline.']},
  {
    args: (f) => [
      'pr',
      'review',
      String(f.s.pr),
      '-R',
      R,
      '--request-changes',
      '--body',
      'Divide by zero on an empty list.',
    ],
  },
  {args: (f) => ['pr', 'ready', String(f.draftPr), '-R', R]},
  {args: (f) => ['pr', 'close', String(f.created.pr), '-R', R, '--comment', 'Superseded.']},
  {args: (f) => ['pr', 'reopen', String(f.created.pr), '-R', R]},
  {
    args: (f) => ['pr', 'merge', String(f.created.pr), '-R', R, '--squash', '--delete-branch'],
    check: (_out, f) => {
      f.created.merged = 'yes'
    },
  },

  // runs: changes
  {args: (f) => ['run', 'rerun', String(f.s.runId), '--failed', '-R', R]},
  {args: (f) => ['run', 'watch', String(f.s.runId), '-R', R, '--exit-status', '--interval', '1']},
  {args: () => ['workflow', 'run', 'bench-long-running.yml', '-R', R, '-f', 'seed_id=fidelity']},
  {
    args: () => [
      'run',
      'list',
      '-R',
      R,
      '--workflow',
      'bench-long-running.yml',
      '--json',
      'databaseId,status',
      '--limit',
      '1',
    ],
    check: (out, f) => {
      f.created.longRun = (JSON.parse(out) as Array<{databaseId: number}>)[0]!.databaseId
    },
  },
  {args: (f) => ['run', 'cancel', String(f.created.longRun), '-R', R]},

  // releases and labels: changes
  {
    args: () => [
      'release',
      'create',
      'v1.1.0',
      '-R',
      R,
      '--title',
      'v1.1.0',
      '--notes',
      'Faster startup.',
      '--target',
      'main',
    ],
  },
  {args: () => ['release', 'edit', 'v1.1.0', '-R', R, '--notes', 'Faster startup; fewer crashes.']},
  {args: () => ['release', 'delete', 'v1.1.0', '-R', R, '--yes']},
  {
    args: () => [
      'label',
      'create',
      'needs-repro',
      '-R',
      R,
      '--color',
      'd93f0b',
      '--description',
      'Needs a reproduction',
    ],
  },
  {args: () => ['label', 'create', 'needs-repro', '-R', R, '--color', 'fbca04', '--force']},
  {args: () => ['label', 'edit', 'needs-repro', '-R', R, '--description', 'Needs steps to reproduce']},
  {args: () => ['label', 'delete', 'needs-repro', '-R', R, '--yes']},

  // gh api: changes, as agents make them where a gh command is missing or --jq is wanted
  {
    args: () => [
      'api',
      '-X',
      'POST',
      `repos/${R}/issues`,
      '-f',
      'title=Crash when the config is empty',
      '-f',
      'body=Seen on main.',
      '-f',
      'labels[]=bug',
      '--jq',
      '.number',
    ],
    check: (out, f) => {
      f.created.apiIssue = Number(out.trim())
    },
  },
  {
    args: (f) => [
      'api',
      '-X',
      'POST',
      `repos/${R}/issues/${f.created.apiIssue}/comments`,
      '-f',
      'body=Reproduced.',
      '--jq',
      '.id',
    ],
  },
  {
    args: (f) => [
      'api',
      '-X',
      'POST',
      `repos/${R}/issues/${f.created.apiIssue}/labels`,
      '-f',
      'labels[]=help wanted',
      '--jq',
      '.[].name',
    ],
    check: (out) => expect(out.split('\n')).to.include.members(['bug', 'help wanted']),
  },
  {args: (f) => ['api', '-X', 'DELETE', `repos/${R}/issues/${f.created.apiIssue}/labels/bug`]},
  {
    args: (f) => [
      'api',
      '-X',
      'POST',
      `repos/${R}/issues/${f.created.apiIssue}/assignees`,
      '-f',
      'assignees[]=ghx-bench-agent',
      '--jq',
      '.assignees[].login',
    ],
    check: (out) => expect(out.trim()).to.equal('ghx-bench-agent'),
  },
  {
    args: (f) => [
      'api',
      '-X',
      'PATCH',
      `repos/${R}/issues/${f.created.apiIssue}`,
      '-f',
      'state=closed',
      '-f',
      'state_reason=completed',
      '--jq',
      '.state',
    ],
    check: (out) => expect(out.trim()).to.equal('closed'),
  },
  {
    args: (f) => [
      'api',
      '-X',
      'POST',
      `repos/${R}/issues/${f.created.apiIssue}/reactions`,
      '-f',
      'content=+1',
      '--jq',
      '.content',
    ],
  },
  {
    args: (f) => [
      'api',
      '-X',
      'POST',
      `repos/${R}/pulls/${f.approvedPr}/requested_reviewers`,
      '-f',
      'reviewers[]=ghx-bench-reviewer',
      '--jq',
      '.requested_reviewers[].login',
    ],
    check: (out) => expect(out.trim()).to.equal('ghx-bench-reviewer'),
  },
  {
    args: (f) => [
      'api',
      '-X',
      'POST',
      `repos/${R}/pulls/${f.s.pr}/reviews`,
      '-f',
      'event=COMMENT',
      '-f',
      'body=One question inline.',
      '--jq',
      '.state',
    ],
  },
  {
    args: (f) => [
      'api',
      'graphql',
      '-f',
      `query=mutation { addPullRequestReviewThreadReply(input: {pullRequestReviewThreadId: "${f.s.threadIds[0]}", body: "Fixed in the next commit."}) { comment { body } } }`,
      '--jq',
      '.data.addPullRequestReviewThreadReply.comment.body',
    ],
    check: (out) => expect(out.trim()).to.equal('Fixed in the next commit.'),
  },
  {
    args: (f) => [
      'api',
      'graphql',
      '-F',
      `id=${f.s.threadIds[0]}`,
      '-f',
      'query=mutation($id: ID!) { resolveReviewThread(input: {threadId: $id}) { thread { isResolved } } }',
      '--jq',
      '.data.resolveReviewThread.thread.isResolved',
    ],
    check: (out) => expect(out.trim()).to.equal('true'),
  },
  {
    args: (f) => [
      'api',
      '-X',
      'POST',
      `repos/${R}/statuses/${f.s.prHeadSha}`,
      '-f',
      'state=success',
      '-f',
      'context=ci/test',
      '--jq',
      '.state',
    ],
    check: (out) => expect(out.trim()).to.equal('success'),
  },
  {
    args: (f) => [
      'api',
      '-X',
      'POST',
      `repos/${R}/git/refs`,
      '-f',
      'ref=refs/heads/api-docs',
      '-f',
      `sha=${f.s.prHeadSha}`,
      '--jq',
      '.ref',
    ],
  },
  {
    args: () => [
      'api',
      '-X',
      'PUT',
      `repos/${R}/contents/docs/api.md`,
      '-f',
      'message=Document the API',
      '-f',
      `content=${Buffer.from('# API\n').toString('base64')}`,
      '-f',
      'branch=api-docs',
      '--jq',
      '.commit.sha',
    ],
  },
  {
    args: () => [
      'api',
      '-X',
      'POST',
      `repos/${R}/pulls`,
      '-f',
      'title=Document the API',
      '-f',
      'head=api-docs',
      '-f',
      'base=main',
      '--jq',
      '.number',
    ],
    check: (out, f) => {
      f.created.apiPr = Number(out.trim())
    },
  },
  {
    args: (f) => [
      'api',
      '-X',
      'PUT',
      `repos/${R}/pulls/${f.created.apiPr}/merge`,
      '-f',
      'merge_method=squash',
      '--jq',
      '.merged',
    ],
    check: (out) => expect(out.trim()).to.equal('true'),
  },
  {args: () => ['api', '-X', 'DELETE', `repos/${R}/git/refs/heads/api-docs`]},
  ...API_CHANGES,
]

/** Flags of gh 2.23's `gh api` that take a value (the endpoint is the first argument that is neither). */
const API_VALUE_FLAGS = new Set([
  '-X',
  '--method',
  '-f',
  '--raw-field',
  '-F',
  '--field',
  '-H',
  '--header',
  '-q',
  '--jq',
  '--input',
  '--hostname',
  '-t',
  '--template',
  '--cache',
])

/**
 * A whole REST answer of `gh api` (no --jq, no other media type, one page), validated against the
 * schema GitHub documents for the operation it called: every field GitHub requires, of its type.
 */
function checkRestAnswer(openApi: GithubOpenApi, args: string[], stdout: string): void {
  if (
    args[1] === 'graphql' ||
    args.some((a) => ['--jq', '-q', '-H', '--header', '--paginate', '-t', '--template'].includes(a))
  )
    return
  let endpoint: string | undefined
  for (let i = 1; i < args.length && endpoint === undefined; i++) {
    if (API_VALUE_FLAGS.has(args[i]!)) i++
    else if (!args[i]!.startsWith('-')) endpoint = args[i]
  }
  const methodAt = args.findIndex((a) => a === '-X' || a === '--method')
  const hasBody = args.some((a) => ['-f', '-F', '--raw-field', '--field', '--input'].includes(a))
  const method = methodAt === -1 ? (hasBody ? 'POST' : 'GET') : args[methodAt + 1]!
  const found = openApi.operationFor(method, endpoint!)
  expect(found, `${method} ${endpoint} is in GitHub's description`).to.not.equal(undefined)
  if (stdout.trim() === '') return
  const documented = ['200', '201', '202'].map((status) => found!.operation.responses[status]).find(Boolean)
  const schema = documented?.content?.['application/json']?.schema
  // No JSON documented: a redirect to a download (a job's logs), which the case checks itself.
  if (schema === undefined) return
  const validate = openApi.compile(schema)
  expect(validate(JSON.parse(stdout)), `${found!.operation.operationId}: ${openApi.errorsText(validate)}`).to.equal(
    true,
  )
}

/** What the test titles show for what seeding and the commands make: its name in capitals. */
const named = new Proxy({}, {get: (_, key) => String(key).toUpperCase()})
const placeholders = {
  s: {issue: 1, pr: 2, runId: 0, releaseId: 0, prHeadSha: 'SHA', threadIds: ['THREAD']},
  docsIssue: 0,
  gfiIssue: 0,
  draftPr: 0,
  approvedPr: 0,
  mergedPr: 0,
  failedJobId: 0,
  ids: named,
  created: named,
} as unknown as Fixture

describe('sandbox: gh fidelity (the commands agents run, as the agent_direct arm runs them)', function () {
  this.timeout(60_000)
  const f = {created: {}} as Fixture
  let configDir: string
  let workdir: string
  let openApi: GithubOpenApi

  /** gh as the agent_direct arm runs it: the sandbox's ghEnv, in a working folder that is no git checkout. */
  function gh(args: string[], input = ''): Promise<{code: number; stdout: string; stderr: string}> {
    return new Promise((resolve) => {
      const child = execFile(
        'gh',
        args,
        {cwd: workdir, env: {...process.env, ...f.s.sandbox.ghEnv(configDir)}, timeout: 30_000},
        (error, stdout, stderr) => resolve({code: error ? ((error as {code?: number}).code ?? 1) : 0, stdout, stderr}),
      )
      child.stdin!.end(input)
    })
  }

  before(async function () {
    this.timeout(120_000)
    openApi = await loadGithubOpenApi()
    f.s = await seedSandbox()
    workdir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-fidelity-'))
    configDir = path.join(workdir, '.config', 'gh')
    const {agent, reviewer} = f.s
    const branch = async (octokit: typeof agent, name: string, file: string, content: string) => {
      const main = await octokit.rest.git.getRef({...base, ref: 'heads/main'})
      await octokit.rest.git.createRef({...base, ref: `refs/heads/${name}`, sha: main.data.object.sha})
      await octokit.rest.repos.createOrUpdateFileContents({
        ...base,
        path: file,
        message: `Add ${file}`,
        content: Buffer.from(content).toString('base64'),
        branch: name,
      })
    }
    await agent.rest.issues.createMilestone({...base, title: 'v1.0', description: 'First release'})
    await agent.rest.issues.update({
      ...base,
      issue_number: f.s.issue,
      labels: ['triage', 'feature-request', 'bug'],
      milestone: 1,
      assignees: ['ghx-bench-agent'],
    })
    await reviewer.rest.issues.createComment({
      ...base,
      issue_number: f.s.issue,
      body: '@ghx-bench-agent can you take a look?',
    })
    const docs = await agent.rest.issues.create({
      ...base,
      title: 'Docs typo in README',
      body: 'Teh quick fox.',
      labels: ['documentation'],
    })
    await agent.rest.issues.update({
      ...base,
      issue_number: docs.data.number,
      state: 'closed',
      state_reason: 'not_planned',
    })
    f.docsIssue = docs.data.number
    f.gfiIssue = (
      await reviewer.rest.issues.create({
        ...base,
        title: 'Add a --verbose flag',
        labels: ['good first issue', 'enhancement'],
      })
    ).data.number
    // A draft by the agent, waiting for the reviewer; an approved one; a merged one; one for the agent to open.
    await branch(agent, 'agent-draft', 'src/start.ts', 'export const start = () => 0\n')
    f.draftPr = (
      await agent.rest.pulls.create({
        ...base,
        title: 'WIP: faster startup',
        head: 'agent-draft',
        base: 'main',
        body: 'Fixes #1',
        draft: true,
      })
    ).data.number
    await agent.rest.issues.update({
      ...base,
      issue_number: f.draftPr,
      labels: ['enhancement'],
      assignees: ['ghx-bench-agent'],
    })
    await agent.rest.pulls.requestReviewers({...base, pull_number: f.draftPr, reviewers: ['ghx-bench-reviewer']})
    await branch(agent, 'agent-errors', 'src/errors.ts', 'export class AppError extends Error {}\n')
    f.approvedPr = (
      await agent.rest.pulls.create({...base, title: 'Clearer error messages', head: 'agent-errors', base: 'main'})
    ).data.number
    await reviewer.rest.pulls.createReview({...base, pull_number: f.approvedPr, event: 'APPROVE', body: 'LGTM'})
    await branch(agent, 'agent-merged', 'src/version.ts', "export const version = '1.0.0'\n")
    f.mergedPr = (
      await agent.rest.pulls.create({...base, title: 'Add version', head: 'agent-merged', base: 'main'})
    ).data.number
    await agent.rest.pulls.merge({...base, pull_number: f.mergedPr, merge_method: 'squash'})
    await branch(agent, 'agent-empty', 'src/empty.ts', 'export const empty = (xs: number[]) => xs.length === 0\n')
    await agent.rest.repos.createCommitStatus({
      ...base,
      sha: f.s.prHeadSha,
      state: 'success',
      context: 'ci/lint',
      description: 'Lint passed',
    })
    await agent.rest.repos.createRelease({...base, tag_name: 'v1.0.0', name: 'v1.0.0', body: 'First release'})
    await waitForRun(agent, f.s.runId)
    const jobs = await agent.rest.actions.listJobsForWorkflowRun({...base, run_id: f.s.runId})
    f.failedJobId = jobs.data.jobs.find((j) => j.conclusion === 'failure')!.id
    // A CI's check run on the seeded pull request's head (the second identity stands for the App that reports it).
    const checkRun = await reviewer.rest.checks.create({
      ...base,
      head_sha: f.s.prHeadSha,
      name: 'ci/build',
      status: 'completed',
      conclusion: 'success',
      output: {title: 'Build passed', summary: 'Built in 40 s.'},
    })
    const ids = await agent.graphql<{
      repository: {id: string; issue: {id: string}; pullRequest: {id: string}; label: {id: string}}
      viewer: {id: string}
      user: {id: string}
    }>(
      'query($o: String!, $n: String!, $i: Int!, $p: Int!) { repository(owner: $o, name: $n) { id issue(number: $i) { id } pullRequest(number: $p) { id } label(name: "bug") { id } } viewer { id } user(login: "ghx-bench-reviewer") { id } }',
      {o: OWNER, n: REPO, i: f.s.issue, p: f.approvedPr},
    )
    const mainSha = (await agent.rest.git.getRef({...base, ref: 'heads/main'})).data.object.sha
    const readme = await agent.rest.repos.getContent({...base, path: 'README.md'})
    f.ids = {
      mainSha,
      readmeBlobSha: (readme.data as {sha: string}).sha,
      repoId: (await agent.rest.repos.get(base)).data.id,
      repoNodeId: ids.repository.id,
      issueNodeId: ids.repository.issue.id,
      issueCommentId: (await agent.rest.issues.listComments({...base, issue_number: f.s.issue})).data[0]!.id,
      reviewCommentId: (await agent.rest.pulls.listReviewComments({...base, pull_number: f.s.pr})).data[0]!.id,
      approvalId: (await agent.rest.pulls.listReviews({...base, pull_number: f.approvedPr})).data[0]!.id,
      approvedPrNodeId: ids.repository.pullRequest.id,
      bugLabelId: ids.repository.label.id,
      agentNodeId: ids.viewer.id,
      reviewerNodeId: ids.user.id,
      checkRunId: checkRun.data.id,
      // A workflow run is its check suite (the reported check run has none of Actions').
      checkSuiteId: (await agent.rest.actions.getWorkflowRun({...base, run_id: f.s.runId})).data.check_suite_id!,
      gfiIssueId: (await agent.rest.issues.get({...base, issue_number: f.gfiIssue})).data.id,
    }
  })
  after(() => f.s.sandbox.close())

  it(`runs at least 60 commands`, () => expect(CASES.length).to.be.at.least(60))
  it('sends gh api in at least the share live agents do (53 of 74 gh calls, 72%)', () => {
    const api = CASES.filter((c) => c.args(placeholders)[0] === 'api').length
    expect(api / CASES.length, `${api} of ${CASES.length}`).to.be.at.least(53 / 74)
  })

  for (const c of CASES) {
    // The title shows the command with placeholders for what seeding makes.
    const title = c.args(placeholders)
    it(`gh ${title
      .map((a) => (/\s/.test(a) ? JSON.stringify(a) : a))
      .join(' ')
      .slice(0, 160)}`, async () => {
      const args = c.args(f)
      const result = await gh(args, c.input?.(f))
      expect(result.code, `gh ${args.join(' ')}\n${result.stderr}`).to.equal(0)
      if (args[0] === 'api') checkRestAnswer(openApi, args, result.stdout)
      const json = args.indexOf('--json')
      if (json !== -1) {
        const fields = args[json + 1]!.split(',')
        const parsed = JSON.parse(result.stdout) as Json | Json[]
        if (c.groups) expect(Object.keys(parsed).sort()).to.deep.equal([...c.groups].sort())
        const objects = c.groups
          ? c.groups.flatMap((g) => (parsed as Record<string, Json[]>)[g]!)
          : Array.isArray(parsed)
            ? parsed
            : [parsed]
        if (!c.empty) expect(objects, 'results').to.have.length.above(0)
        for (const object of objects)
          expect(Object.keys(object).sort(), `gh ${args.join(' ')}`).to.deep.equal([...fields].sort())
      }
      c.check?.(result.stdout, f)
    })
  }
})

/**
 * git as agents run it beside gh, in order, each a shell command in the run's folder with the sandbox's
 * environment (ghEnv: git's configuration, credentials and identity): clone, branch, commit, push, open
 * a pull request, check a pull request out, push to it, fetch and pull what another clone pushed. Each
 * exits 0, and `check` compares what the sandbox serves with what git holds.
 */
const GIT_CASES: Array<{command: (s: Seeded) => string; check?: (out: string, s: Seeded) => void}> = [
  {
    command: () => `gh repo clone ${R} work && git -C work branch --show-current`,
    check: (out) => expect(out.trim()).to.equal('main'),
  },
  {
    command: () =>
      "cd work && git checkout -q -b fix-readme && printf 'A fixture repository.\\n' >> README.md && git commit -qam 'Describe the repository' && git push -q -u origin fix-readme && git rev-parse HEAD",
    check: (out) => expect(out.trim()).to.match(/^[0-9a-f]{40}$/),
  },
  {
    command: () =>
      `cd work && gh pr create -R ${R} --head fix-readme --base main --title 'Describe the repository' --body 'A line in the README.'`,
    check: (out) => expect(out).to.match(/\/pull\/\d+/),
  },
  {
    command: () =>
      `cd work && test "$(gh api repos/${R}/pulls?head=${OWNER}:fix-readme --jq '.[0].head.sha')" = "$(git rev-parse HEAD)"`,
  },
  {
    command: (s) => `cd work && gh pr checkout ${s.pr} && git branch --show-current`,
    check: (out) => expect(out.trim().split('\n').at(-1)).to.equal('bench-bugs'),
  },
  {
    command: (s) =>
      `cd work && sed -i 's/return sum \\/ values.length/return values.length ? sum \\/ values.length : 0/' src/utils/stats.ts && git commit -qam 'Guard the empty array' && git push -q && test "$(gh pr view ${s.pr} -R ${R} --json headRefOid --jq .headRefOid)" = "$(git rev-parse HEAD)"`,
  },
  {
    command: (s) => `gh api repos/${R}/pulls/${s.pr}/files --jq '.[0].patch'`,
    check: (out) => expect(out).to.include('+  return values.length ? sum / values.length : 0'),
  },
  {
    command: () =>
      'git clone -q https://github.localhost/' +
      R +
      " other && cd other && git checkout -q fix-readme && printf 'More.\\n' >> README.md && git commit -qam 'More' && git push -q",
  },
  {
    command: () => 'cd work && git fetch -q origin && git checkout -q fix-readme && git pull -q && tail -1 README.md',
    check: (out) => expect(out.trim()).to.equal('More.'),
  },
  {
    command: () =>
      `cd work && git push -q origin --delete fix-readme && git ls-remote --heads origin fix-readme | wc -l`,
    check: (out) => expect(out.trim()).to.equal('0'),
  },
]

describe('sandbox: git fidelity (clone, push, fetch, as agents run git beside gh)', function () {
  this.timeout(60_000)
  let s: Seeded
  let workdir: string
  let configDir: string

  before(async function () {
    this.timeout(120_000)
    s = await seedSandbox()
    workdir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-git-fidelity-'))
    configDir = path.join(workdir, '.config', 'gh')
  })
  after(() => s.sandbox.close())

  for (const c of GIT_CASES) {
    const title = c.command({pr: 2} as Seeded)
    it(title.slice(0, 160), async () => {
      const command = c.command(s)
      const result = await new Promise<{code: number; stdout: string; stderr: string}>((resolve) => {
        execFile(
          'bash',
          ['-c', command],
          {cwd: workdir, env: {...process.env, ...s.sandbox.ghEnv(configDir)}, timeout: 30_000},
          (error, stdout, stderr) =>
            resolve({code: error ? ((error as {code?: number}).code ?? 1) : 0, stdout, stderr}),
        )
      })
      expect(result.code, `${command}\n${result.stderr}`).to.equal(0)
      c.check?.(result.stdout, s)
    })
  }
})
