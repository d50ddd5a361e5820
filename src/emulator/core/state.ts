/**
 * The sandbox's state: plain, JSON-serializable data (so `sandbox serve --state file.json` can save
 * and load it). Behaviour lives in the store (../store.ts); this file only says what there is.
 */

export interface User {
  id: number
  login: string
  name: string | null
  type: 'User' | 'Bot' | 'Organization'
}

export interface Label {
  id: number
  name: string
  color: string
  description: string | null
  /** One of the labels GitHub gives a new repository (absent: false). */
  default?: boolean
  /** Absent in state saved before they were kept: the repository's creation. */
  created_at?: string
  updated_at?: string
}

export interface Milestone {
  id: number
  number: number
  title: string
  description: string | null
  state: 'open' | 'closed'
  due_on: string | null
  creator: string
  created_at: string
  updated_at: string
  closed_at: string | null
}

export interface IssueComment {
  id: number
  issue: number
  body: string
  user: string
  created_at: string
  updated_at: string
  /** Why it was hidden (minimizeComment; GitHub's lowercase reason, e.g. off-topic); absent or null: shown. */
  minimized_reason?: string | null
}

export interface Issue {
  id: number
  number: number
  title: string
  body: string | null
  user: string
  state: 'open' | 'closed'
  state_reason: 'completed' | 'not_planned' | 'reopened' | 'duplicate' | null
  labels: string[]
  assignees: string[]
  milestone: number | null
  comments: number[]
  created_at: string
  updated_at: string
  closed_at: string | null
  locked: boolean
  /** Why a locked conversation was locked (REST's names); absent in state saved before locks were modelled. */
  active_lock_reason?: LockReason | null
  is_pull: boolean
  parent: number | null
  sub_issues: number[]
  blocked_by: number[]
  issue_type: string | null
}

export interface Pull {
  number: number
  head: string
  base: string
  draft: boolean
  merged_at: string | null
  merged_by: string | null
  merge_commit_sha: string | null
  requested_reviewers: string[]
  maintainer_can_modify: boolean
  /** The head when the PR was closed or merged (a deleted branch leaves the PR its last commit). */
  head_sha_frozen: string | null
}

export interface Review {
  id: number
  pull: number
  user: string
  body: string
  state: 'PENDING' | 'COMMENTED' | 'APPROVED' | 'CHANGES_REQUESTED' | 'DISMISSED'
  commit_id: string
  submitted_at: string | null
}

export interface ReviewComment {
  /** Why it was hidden, as an issue comment's. */
  minimized_reason?: string | null
  id: number
  pull: number
  review_id: number
  thread_id: number
  user: string
  body: string
  path: string
  line: number | null
  side: 'LEFT' | 'RIGHT'
  subject_type: 'line' | 'file'
  commit_id: string
  in_reply_to_id: number | null
  created_at: string
  updated_at: string
  /** A multi-line comment's first line and its side (absent in state saved before they were modelled: single-line). */
  start_line?: number | null
  start_side?: 'LEFT' | 'RIGHT' | null
  /** The commented line's position in the file's patch, and its hunk down to that line (GitHub's diff_hunk). */
  position?: number | null
  diff_hunk?: string
}

export interface ReviewThread {
  id: number
  pull: number
  path: string
  line: number | null
  comments: number[]
  resolved: boolean
  resolved_by: string | null
  /** Absent in state saved before they were modelled: RIGHT, single-line. */
  side?: 'LEFT' | 'RIGHT'
  start_line?: number | null
  start_side?: 'LEFT' | 'RIGHT' | null
}

/** A commit's snapshot: path -> content. */
export type Tree = Record<string, string>

export interface Commit {
  sha: string
  message: string
  parents: string[]
  tree: Tree
  /** The login the commit is attributed to. */
  author: string
  date: string
  /** Git identities given when it was made (PUT contents, POST git/commits); absent: the author's login and no-reply email. */
  author_git?: {name: string; email: string}
  committer_git?: {name: string; email: string}
  /**
   * A pushed commit's object text, as git wrote it (its own dates, time zones and headers), from which
   * its id is; absent: the object its fields make (core/git-objects.ts `commitObject`).
   */
  git_object?: string
  /** When it was written among the sandbox's objects (ids' order): orders a history within one second. */
  seq?: number
}

export interface WorkflowJobSpec {
  name: string
  /** Attempts on which this job fails (bench-rerun-failed.yml: [1]). */
  fail_on_attempts: number[]
  log: string
  /** How long the job runs, when it is not the sandbox's default (a step that sleeps). */
  duration_ms?: number
  /**
   * The job's step `! grep -rnF <text> <under>` run on the run's commit: it fails when a file under the
   * folder holds the text, and its log lists the matches as grep prints them (the sandbox runs no code).
   */
  fails_on_match?: {text: string; under: string}
}

export interface Workflow {
  id: number
  name: string
  path: string
  state: 'active' | 'disabled_manually'
  created_at: string
  inputs: string[]
  jobs: WorkflowJobSpec[]
  /** `on: push: branches: [...]`: a push to a branch matching one of these patterns starts a run (absent: dispatch only). */
  on_push?: string[]
}

export interface Job {
  id: number
  name: string
  attempt: number
  /** The planned outcome; status and timing follow the run's clock. */
  outcome: 'success' | 'failure'
  /** Carried over from an earlier attempt by a rerun of failed jobs. */
  carried_from: number | null
  log: string
}

export interface RunAttempt {
  attempt: number
  started_ms: number
  cancelled_ms: number | null
  jobs: Job[]
  /** How long the attempt runs, when its workflow's jobs say (absent: the sandbox's default timing). */
  running_ms?: number
}

export interface Run {
  id: number
  workflow_id: number
  run_number: number
  event: string
  head_branch: string
  head_sha: string
  display_title: string
  actor: string
  inputs: Record<string, string>
  created_at: string
  attempts: RunAttempt[]
  artifacts: number[]
}

export type LockReason = 'off-topic' | 'too heated' | 'resolved' | 'spam'

/** A check run an App reported on a commit, as a CI service does through the checks API. */
export interface ReportedCheckRun {
  id: number
  head_sha: string
  name: string
  status: 'queued' | 'in_progress' | 'completed'
  conclusion: 'success' | 'failure' | 'neutral' | 'cancelled' | 'skipped' | 'timed_out' | 'action_required' | null
  started_at: string
  completed_at: string | null
  details_url: string | null
  external_id: string | null
  output: {title: string | null; summary: string | null; text: string | null}
  creator: string
}

export interface Artifact {
  id: number
  run_id: number
  name: string
  size_in_bytes: number
  created_at: string
}

export interface Release {
  id: number
  tag_name: string
  name: string | null
  body: string | null
  draft: boolean
  prerelease: boolean
  target_commitish: string
  author: string
  created_at: string
  published_at: string | null
  /** The commit the release's tag points at: set when it is published (a draft's tag does not exist yet). */
  tag_sha?: string | null
}

/** A reaction on an issue or pull request, an issue comment, or a review comment (REST content names). */
export interface Reaction {
  id: number
  subject: {kind: 'issue' | 'comment' | 'review_comment'; id: number}
  user: string
  content: '+1' | '-1' | 'laugh' | 'confused' | 'heart' | 'hooray' | 'eyes' | 'rocket'
  created_at: string
}

/** A commit status (POST /repos/{o}/{r}/statuses/{sha}): one per post; the latest per context counts. */
export interface CommitStatus {
  id: number
  sha: string
  state: 'error' | 'failure' | 'pending' | 'success'
  context: string
  description: string | null
  target_url: string | null
  creator: string
  created_at: string
}

/**
 * Something that happened to an issue or pull request, by GitHub's REST event name (`labeled`,
 * `closed`, `review_requested`, …), recorded when it happens. What can be derived from other state
 * (comments, commits and cross-references that mention an issue, reviews) is not recorded.
 */
export interface IssueEvent {
  id: number
  issue: number
  event: string
  actor: string
  created_at: string
  label?: {name: string; color: string}
  /** assigned / unassigned; review_requested / review_request_removed; mentioned / subscribed */
  user?: string
  milestone?: string
  rename?: {from: string; to: string}
  commit_id?: string | null
  state_reason?: string | null
  /** closed by a merged pull request: its number */
  closer?: number | null
  /** sub_issue_* / parent_issue_* / blocked_by_* / blocking_*: the other issue's number */
  other?: number
  issue_type?: string | null
  prev_issue_type?: string | null
  /** base_ref_changed, head_ref_deleted, *_force_pushed */
  ref?: {from?: string; to?: string; before?: string; after?: string}
  /** review_dismissed */
  review?: {id: number; state: string; message: string}
}

interface IssueType {
  id: number
  name: string
  description: string
  color: string
}

export interface Repo {
  id: number
  owner: string
  name: string
  description: string | null
  private: boolean
  default_branch: string
  created_at: string
  next_number: number
  labels: Record<string, Label>
  milestones: Milestone[]
  issues: Record<string, Issue>
  pulls: Record<string, Pull>
  comments: Record<string, IssueComment>
  reviews: Record<string, Review>
  review_comments: Record<string, ReviewComment>
  threads: Record<string, ReviewThread>
  branches: Record<string, string>
  commits: Record<string, Commit>
  workflows: Record<string, Workflow>
  runs: Record<string, Run>
  artifacts: Record<string, Artifact>
  releases: Record<string, Release>
  issue_types: IssueType[]
  /** Absent in state saved before reactions were modelled. */
  reactions?: Record<string, Reaction>
  /** Absent in state saved before issue events were recorded. */
  events?: Record<string, IssueEvent>
  /** Git objects made through the git database API before any commit holds them: blobs by id, trees (flat, as commits keep them) by id. */
  git_blobs?: Record<string, string>
  git_trees?: Record<string, Tree>
  /** The pinned issues, in the order they were pinned, and who pinned each (at most 3, as GitHub allows). */
  pinned_issues?: Array<{number: number; by: string}>
  /** Absent in state saved before commit statuses were modelled. */
  statuses?: Record<string, CommitStatus>
  /** Check runs an App reported (POST check-runs), beside those of Actions (its runs' jobs); absent before they were modelled. */
  check_runs?: Record<string, ReportedCheckRun>
  /** Lightweight tags made through POST git/refs (a published release's tag is its `tag_sha`). */
  tags?: Record<string, string>
  /** The repository this one is a fork of ("owner/name"). */
  fork_of?: string
  homepage?: string | null
  topics?: string[]
}

interface ProjectField {
  id: string
  name: string
  data_type: 'TEXT' | 'SINGLE_SELECT' | 'NUMBER' | 'DATE' | 'TITLE'
  options: Array<{id: string; name: string}>
}

export interface ProjectItem {
  id: string
  content: {repo: string; number: number}
  values: Record<string, string>
  created_at: string
}

export interface Project {
  id: string
  number: number
  owner: string
  title: string
  created_at: string
  fields: ProjectField[]
  items: ProjectItem[]
}

export interface SandboxState {
  version: 1
  next_id: number
  /** Milliseconds epoch of the sandbox clock's start, so restored state keeps its run timings. */
  users: Record<string, User>
  /** token -> login */
  tokens: Record<string, string>
  repos: Record<string, Repo>
  projects: Project[]
}
