/**
 * Pull requests in the store: create (an issue with a head and a base), files, diffs and commits,
 * merge (which closes the issues the body fixes), branch update, base change, draft, requested
 * reviewers.
 */
import {notFound, refused, SandboxError, unprocessable} from '../core/errors.js'
import {diffTrees, mergeTrees, type FileChange} from '../core/git.js'
import type {Commit, Issue, Pull, Repo, Tree} from '../core/state.js'
import {closesIssue} from '../issues/events.js'
import type {StoreCore} from '../core/store-core.js'
import type {Issues} from '../issues/store.js'
import type {Git} from '../repos/git-store.js'

/** The store's pull request operations, on git and issues (../store.ts composes the services). */
export class Pulls {
  constructor(
    private readonly core: StoreCore,
    private readonly git: Git,
    private readonly issues: Issues,
  ) {}

  get(repo: Repo, number: number): {issue: Issue; pull: Pull} {
    const pull = repo.pulls[number]
    if (!pull) throw notFound()
    return {issue: repo.issues[number]!, pull}
  }

  headSha(repo: Repo, pull: Pull): string {
    return pull.head_sha_frozen ?? this.git.branchSha(repo, pull.head)
  }

  create(
    repo: Repo,
    author: string,
    fields: {title: string; head: string; base: string; body?: string | null; draft?: boolean},
  ): {issue: Issue; pull: Pull} {
    const head = fields.head.includes(':') ? fields.head.split(':')[1]! : fields.head
    if (!repo.branches[head]) throw unprocessable(`head ${fields.head} does not exist`, 'head', 'PullRequest')
    if (!repo.branches[fields.base]) throw unprocessable(`base ${fields.base} does not exist`, 'base', 'PullRequest')
    if (repo.branches[head] === repo.branches[fields.base]) {
      throw unprocessable(`No commits between ${fields.base} and ${head}`, undefined, 'PullRequest')
    }
    const open = Object.values(repo.pulls).find(
      (p) => p.head === head && p.base === fields.base && repo.issues[p.number]!.state === 'open',
    )
    if (open) throw unprocessable(`A pull request already exists for ${repo.owner}:${head}.`, undefined, 'PullRequest')
    const issue = this.issues.create(repo, author, {title: fields.title, body: fields.body ?? null}, true)
    const pull: Pull = {
      number: issue.number,
      head,
      base: fields.base,
      draft: fields.draft ?? false,
      merged_at: null,
      merged_by: null,
      merge_commit_sha: null,
      requested_reviewers: [],
      maintainer_can_modify: true,
      head_sha_frozen: null,
    }
    repo.pulls[issue.number] = pull
    return {issue, pull}
  }

  files(repo: Repo, number: number): FileChange[] {
    const {pull} = this.get(repo, number)
    const head = this.headSha(repo, pull)
    const base = pull.merge_commit_sha
      ? this.git.commit(repo, pull.merge_commit_sha).parents[0]!
      : this.git.mergeBase(repo, head, this.git.branchSha(repo, pull.base))
    return diffTrees(this.git.commit(repo, base).tree, this.git.commit(repo, head).tree)
  }

  /** The pull request's diff as of one of its commits (a review or comment on an earlier commit sees that commit's diff). */
  filesAt(repo: Repo, number: number, sha: string): FileChange[] {
    const {pull} = this.get(repo, number)
    if (!repo.commits[sha])
      throw unprocessable('commit_id is not part of the pull request', 'commit_id', 'PullRequestReviewComment')
    if (sha === this.headSha(repo, pull)) return this.files(repo, number)
    const base = pull.merge_commit_sha
      ? this.git.commit(repo, pull.merge_commit_sha).parents[0]!
      : this.git.mergeBase(repo, sha, this.git.branchSha(repo, pull.base))
    return diffTrees(this.git.commit(repo, base).tree, this.git.commit(repo, sha).tree)
  }

  commits(repo: Repo, number: number): Commit[] {
    const {pull} = this.get(repo, number)
    const head = this.headSha(repo, pull)
    const base = this.git.mergeBase(repo, head, this.git.branchSha(repo, pull.base))
    const exclude = new Set(this.git.ancestors(repo, base))
    return this.git
      .ancestors(repo, head)
      .filter((sha) => !exclude.has(sha))
      .map((sha) => this.git.commit(repo, sha))
      .reverse()
  }

  /** Whether the head is behind its base (a branch update would bring commits in). */
  behindBy(repo: Repo, pull: Pull): number {
    const base = this.git.branchSha(repo, pull.base)
    const head = this.headSha(repo, pull)
    const inHead = new Set(this.git.ancestors(repo, head))
    return this.git.ancestors(repo, base).filter((sha) => !inHead.has(sha)).length
  }

  /** Git's merge of the head into the base: the tree a merge would write, and the paths that conflict. */
  private mergeOfBase(repo: Repo, pull: Pull): {tree: Tree; conflicts: string[]} {
    const base = this.git.branchSha(repo, pull.base)
    const head = this.headSha(repo, pull)
    const tree = (sha: string) => this.git.commit(repo, sha).tree
    return mergeTrees(tree(this.git.mergeBase(repo, head, base)), tree(base), tree(head))
  }

  /** Whether an open pull request's head and base changed the same lines since they parted (GitHub's CONFLICTING, dirty). */
  conflicting(repo: Repo, pull: Pull): boolean {
    if (pull.merged_at || repo.issues[pull.number]!.state !== 'open') return false
    return this.mergeOfBase(repo, pull).conflicts.length > 0
  }

  merge(
    repo: Repo,
    number: number,
    by: string,
    method: 'merge' | 'squash' | 'rebase' = 'merge',
    message?: string,
  ): string {
    const {issue, pull} = this.get(repo, number)
    if (pull.merged_at) throw new SandboxError(405, 'Pull Request is not mergeable')
    if (issue.state !== 'open') throw new SandboxError(405, 'Pull Request is not mergeable')
    if (pull.draft) throw new SandboxError(405, 'Pull Request is still a draft')
    const {tree, conflicts} = this.mergeOfBase(repo, pull)
    if (conflicts.length > 0) throw new SandboxError(405, 'Pull Request is not mergeable')
    // A squash or a rebase is one commit on the base here; its tree is the merge's.
    const parents = [this.git.branchSha(repo, pull.base), ...(method === 'merge' ? [this.headSha(repo, pull)] : [])]
    const sha = this.git.writeCommit(repo, parents, tree, message ?? `${issue.title} (#${number})`, by)
    this.git.updateBranch(repo, pull.base, sha, false)
    pull.merged_at = this.core.stamp()
    pull.merged_by = by
    pull.merge_commit_sha = sha
    pull.head_sha_frozen = repo.branches[pull.head] ?? pull.head_sha_frozen
    issue.state = 'closed'
    issue.closed_at = this.core.stamp()
    issue.state_reason = 'completed'
    this.core.as(this.core.actor ?? by, () => {
      this.core.record(repo, number, 'merged', {commit_id: sha, ref: {to: pull.base}})
      this.core.record(repo, number, 'closed', {commit_id: null, state_reason: null})
      // Merged into the default branch, a pull request closes the issues its body says it fixes.
      if (pull.base !== repo.default_branch) return
      for (const closed of Object.values(repo.issues).filter(
        (i) => !i.is_pull && i.state === 'open' && closesIssue(issue.body, i.number),
      )) {
        closed.state = 'closed'
        closed.closed_at = this.core.stamp()
        closed.state_reason = 'completed'
        closed.updated_at = this.core.stamp()
        this.core.record(repo, closed.number, 'closed', {commit_id: sha, state_reason: 'completed', closer: number})
      }
    })
    return sha
  }

  /** Changes a pull request's base branch (it must exist). */
  changeBase(repo: Repo, number: number, base: string): Pull {
    const {pull} = this.get(repo, number)
    this.git.branchSha(repo, base)
    if (base !== pull.base) {
      this.core.record(repo, number, 'base_ref_changed', {ref: {from: pull.base, to: base}})
      pull.base = base
    }
    return pull
  }

  /** Merges the base into the head branch (PUT .../update-branch). */
  updateBranch(repo: Repo, number: number, by: string): string {
    const {pull} = this.get(repo, number)
    if (this.behindBy(repo, pull) === 0) throw refused('There are no new commits on the base branch.')
    const base = this.git.branchSha(repo, pull.base)
    const head = this.git.branchSha(repo, pull.head)
    const {tree, conflicts} = this.mergeOfBase(repo, pull)
    if (conflicts.length > 0) throw new SandboxError(422, 'merge conflict between base and head')
    const sha = this.git.writeCommit(repo, [head, base], tree, `Merge branch '${pull.base}' into ${pull.head}`, by)
    this.git.updateBranch(repo, pull.head, sha, false)
    return sha
  }

  /** Converts to a draft, or marks ready for review. */
  setDraft(repo: Repo, number: number, draft: boolean): Pull {
    const {pull} = this.get(repo, number)
    if (pull.draft !== draft) this.core.record(repo, number, draft ? 'convert_to_draft' : 'ready_for_review')
    pull.draft = draft
    return pull
  }

  requestReviewers(repo: Repo, number: number, logins: string[]): Pull {
    const {issue, pull} = this.get(repo, number)
    for (const login of logins) {
      if (login === issue.user) throw refused('Review cannot be requested from pull request author.')
      this.core.ensureUser(login)
      if (pull.requested_reviewers.includes(login)) continue
      pull.requested_reviewers.push(login)
      this.core.record(repo, number, 'review_requested', {user: login})
    }
    return pull
  }

  removeRequestedReviewers(repo: Repo, number: number, logins: string[]): Pull {
    const {pull} = this.get(repo, number)
    for (const login of pull.requested_reviewers.filter((l) => logins.includes(l)))
      this.core.record(repo, number, 'review_request_removed', {user: login})
    pull.requested_reviewers = pull.requested_reviewers.filter((login) => !logins.includes(login))
    return pull
  }
}
