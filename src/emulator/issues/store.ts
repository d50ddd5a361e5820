/**
 * Issues in the store: create, update (title, body, state, labels, assignees, milestone, type),
 * delete, comments, sub-issues and blocked-by dependencies, each change recorded as the event
 * GitHub records (events.ts derives the rest of an issue's history).
 */
import {found, notFound, SandboxError, unprocessable} from '../core/errors.js'
import type {Issue, IssueComment, LockReason, Repo} from '../core/state.js'
import type {StoreCore} from '../core/store-core.js'
import type {Reactions} from '../reactions/store.js'
import type {Labels} from './label-store.js'
import type {Milestones} from './milestone-store.js'
import {mentionedLogins} from './events.js'

/** The store's issue operations, on labels, milestones and reactions (../store.ts composes the services). */
export class Issues {
  constructor(
    private readonly core: StoreCore,
    private readonly labels: Labels,
    private readonly milestones: Milestones,
    private readonly reactions: Reactions,
  ) {}

  /** `mentioned` and `subscribed` events for the users a new text @-mentions (not its author), as GitHub records them. */
  private recordMentions(repo: Repo, number: number, author: string, text: string | null): void {
    for (const login of mentionedLogins(text)) {
      const user =
        this.core.state.users[login] ??
        Object.values(this.core.state.users).find((u) => u.login.toLowerCase() === login.toLowerCase())
      if (!user || user.type !== 'User' || user.login === author) continue
      this.core.record(repo, number, 'mentioned', {actor: user.login, user: user.login})
      const subscribed = Object.values(repo.events ?? {}).some(
        (e) => e.issue === number && e.event === 'subscribed' && e.actor === user.login,
      )
      if (!subscribed) this.core.record(repo, number, 'subscribed', {actor: user.login, user: user.login})
    }
  }

  private labelEvent(repo: Repo, number: number, event: 'labeled' | 'unlabeled', name: string): void {
    const label = Object.values(repo.labels).find((l) => l.name === name)
    this.core.record(repo, number, event, {label: {name, color: label?.color ?? 'ededed'}})
  }

  get(repo: Repo, number: number): Issue {
    return found(repo.issues[number])
  }

  byId(repo: Repo, id: number): Issue {
    return found(Object.values(repo.issues).find((i) => i.id === id))
  }

  create(
    repo: Repo,
    author: string,
    fields: {
      title: string
      body?: string | null
      labels?: string[]
      assignees?: string[]
      milestone?: number | null
      type?: string | null
    },
    isPull = false,
  ): Issue {
    if (!fields.title || typeof fields.title !== 'string') throw unprocessable('title is missing', 'title', 'Issue')
    if (fields.milestone) this.milestones.get(repo, fields.milestone)
    const issue: Issue = {
      id: this.core.nextId(),
      number: repo.next_number++,
      title: fields.title,
      body: fields.body ?? null,
      user: author,
      state: 'open',
      state_reason: null,
      labels: this.labels.resolve(repo, fields.labels ?? []),
      assignees: (fields.assignees ?? []).map((login) => this.core.ensureUser(login).login),
      milestone: fields.milestone ?? null,
      comments: [],
      created_at: this.core.stamp(),
      updated_at: this.core.stamp(),
      closed_at: null,
      locked: false,
      is_pull: isPull,
      parent: null,
      sub_issues: [],
      blocked_by: [],
      issue_type: fields.type ?? null,
    }
    repo.issues[issue.number] = issue
    // What an issue is created with shows in its history as GitHub records it.
    this.core.as(this.core.actor ?? author, () => {
      for (const name of issue.labels) this.labelEvent(repo, issue.number, 'labeled', name)
      for (const login of issue.assignees) this.core.record(repo, issue.number, 'assigned', {user: login})
      if (issue.milestone !== null)
        this.core.record(repo, issue.number, 'milestoned', {
          milestone: this.milestones.get(repo, issue.milestone).title,
        })
      if (issue.issue_type) this.core.record(repo, issue.number, 'issue_type_added', {issue_type: issue.issue_type})
      this.recordMentions(repo, issue.number, author, issue.body)
    })
    return issue
  }

  update(
    repo: Repo,
    number: number,
    patch: {
      title?: string
      body?: string | null
      state?: 'open' | 'closed'
      state_reason?: Issue['state_reason']
      labels?: string[]
      assignees?: string[]
      milestone?: number | null
      type?: string | null
    },
  ): Issue {
    const issue = this.get(repo, number)
    if (patch.milestone !== undefined && patch.milestone !== null) this.milestones.get(repo, patch.milestone)
    if (patch.type !== undefined && patch.type !== null && !repo.issue_types.some((t) => t.name === patch.type))
      throw unprocessable(`issue type ${patch.type} does not exist`, 'type', 'Issue')
    if (patch.title !== undefined && patch.title !== issue.title) {
      this.core.record(repo, number, 'renamed', {rename: {from: issue.title, to: patch.title}})
      issue.title = patch.title
    }
    if (patch.body !== undefined) issue.body = patch.body
    if (patch.labels !== undefined) {
      const labels = this.labels.resolve(repo, patch.labels)
      for (const name of issue.labels.filter((n) => !labels.includes(n)))
        this.labelEvent(repo, number, 'unlabeled', name)
      for (const name of labels.filter((n) => !issue.labels.includes(n))) this.labelEvent(repo, number, 'labeled', name)
      issue.labels = labels
    }
    if (patch.assignees !== undefined) {
      const assignees = [...new Set(patch.assignees.map((login) => this.core.ensureUser(login).login))]
      for (const login of issue.assignees.filter((a) => !assignees.includes(a)))
        this.core.record(repo, number, 'unassigned', {user: login})
      for (const login of assignees.filter((a) => !issue.assignees.includes(a)))
        this.core.record(repo, number, 'assigned', {user: login})
      issue.assignees = assignees
    }
    if (patch.milestone !== undefined && patch.milestone !== issue.milestone) {
      if (issue.milestone !== null)
        this.core.record(repo, number, 'demilestoned', {milestone: this.milestones.get(repo, issue.milestone).title})
      if (patch.milestone !== null)
        this.core.record(repo, number, 'milestoned', {milestone: this.milestones.get(repo, patch.milestone).title})
      issue.milestone = patch.milestone
    }
    if (patch.type !== undefined && patch.type !== issue.issue_type) {
      const event =
        issue.issue_type === null
          ? 'issue_type_added'
          : patch.type === null
            ? 'issue_type_removed'
            : 'issue_type_changed'
      this.core.record(repo, number, event, {
        issue_type: patch.type ?? issue.issue_type,
        prev_issue_type: event === 'issue_type_changed' ? issue.issue_type : null,
      })
      issue.issue_type = patch.type
    }
    if (patch.state && patch.state !== issue.state) {
      const reason = issue.is_pull ? null : patch.state === 'closed' ? (patch.state_reason ?? 'completed') : 'reopened'
      this.core.record(repo, number, patch.state === 'closed' ? 'closed' : 'reopened', {
        commit_id: null,
        state_reason: reason,
      })
      issue.state = patch.state
      issue.closed_at = patch.state === 'closed' ? this.core.stamp() : null
      issue.state_reason = patch.state === 'closed' ? (patch.state_reason ?? 'completed') : 'reopened'
      if (issue.is_pull && patch.state === 'closed') {
        const pull = repo.pulls[number]!
        pull.head_sha_frozen ??= repo.branches[pull.head] ?? null
      }
      // A reopened pull request follows its head branch again.
      if (issue.is_pull && patch.state === 'open') {
        const pull = repo.pulls[number]!
        if (!pull.merged_at && repo.branches[pull.head]) pull.head_sha_frozen = null
      }
    } else if (patch.state_reason !== undefined && issue.state === 'closed') issue.state_reason = patch.state_reason
    issue.updated_at = this.core.stamp()
    return issue
  }

  addLabels(repo: Repo, number: number, names: string[]): Issue {
    const issue = this.get(repo, number)
    for (const name of this.labels.resolve(repo, names)) {
      if (issue.labels.includes(name)) continue
      issue.labels.push(name)
      this.labelEvent(repo, number, 'labeled', name)
    }
    issue.updated_at = this.core.stamp()
    return issue
  }

  removeLabel(repo: Repo, number: number, name: string): Issue {
    const issue = this.get(repo, number)
    const present = issue.labels.find((n) => n.toLowerCase() === name.toLowerCase())
    if (!present) throw notFound('Label does not exist')
    issue.labels = issue.labels.filter((n) => n !== present)
    this.labelEvent(repo, number, 'unlabeled', present)
    issue.updated_at = this.core.stamp()
    return issue
  }

  addAssignees(repo: Repo, number: number, logins: string[]): Issue {
    const issue = this.get(repo, number)
    for (const login of logins) {
      if (issue.assignees.includes(login)) continue
      issue.assignees.push(this.core.ensureUser(login).login)
      this.core.record(repo, number, 'assigned', {user: login})
    }
    issue.updated_at = this.core.stamp()
    return issue
  }

  removeAssignees(repo: Repo, number: number, logins: string[]): Issue {
    const issue = this.get(repo, number)
    for (const login of issue.assignees.filter((a) => logins.includes(a)))
      this.core.record(repo, number, 'unassigned', {user: login})
    issue.assignees = issue.assignees.filter((login) => !logins.includes(login))
    issue.updated_at = this.core.stamp()
    return issue
  }

  /** Deletes an issue (GitHub's deleteIssue): its comments, reactions, relations and project items go with it; its number is not reused. */
  delete(repo: Repo, number: number): void {
    const issue = this.get(repo, number)
    if (issue.is_pull) throw notFound()
    for (const id of issue.comments) this.deleteComment(repo, id)
    this.reactions.drop(repo, {kind: 'issue', id: issue.id})
    this.setPinned(repo, number, false, '')
    for (const other of Object.values(repo.issues)) {
      other.sub_issues = other.sub_issues.filter((n) => n !== number)
      other.blocked_by = other.blocked_by.filter((n) => n !== number)
      if (other.parent === number) other.parent = null
    }
    const key = `${repo.owner}/${repo.name}`
    for (const project of this.core.state.projects)
      project.items = project.items.filter((i) => !(i.content.repo === key && i.content.number === number))
    for (const event of Object.values(repo.events ?? {})) if (event.issue === number) delete repo.events![event.id]
    delete repo.issues[number]
  }

  addComment(repo: Repo, number: number, author: string, body: string) {
    if (!body) throw unprocessable('body is missing', 'body', 'IssueComment')
    const issue = this.get(repo, number)
    const comment = {
      id: this.core.nextId(),
      issue: number,
      body,
      user: author,
      created_at: this.core.stamp(),
      updated_at: this.core.stamp(),
    }
    repo.comments[comment.id] = comment
    issue.comments.push(comment.id)
    issue.updated_at = this.core.stamp()
    this.recordMentions(repo, number, author, body)
    return comment
  }

  /** Locks an issue's or pull request's conversation (again: a new reason), or unlocks it. */
  setLocked(repo: Repo, number: number, locked: boolean, reason: LockReason | null = null): Issue {
    const issue = this.get(repo, number)
    issue.locked = locked
    issue.active_lock_reason = locked ? reason : null
    return issue
  }

  /** Pins an issue to the repository (not a pull request; at most 3), or unpins it. */
  setPinned(repo: Repo, number: number, pinned: boolean, by: string): Issue {
    const issue = this.get(repo, number)
    const pins = (repo.pinned_issues ??= [])
    const at = pins.findIndex((p) => p.number === number)
    if (!pinned) {
      if (at >= 0) pins.splice(at, 1)
      return issue
    }
    if (issue.is_pull) throw new SandboxError(422, 'Pull requests cannot be pinned.')
    if (at >= 0) return issue
    if (pins.length >= 3) throw new SandboxError(422, 'You can only pin up to 3 issues.')
    pins.push({number, by})
    return issue
  }

  comment(repo: Repo, id: number) {
    return found(repo.comments[id])
  }

  /** A comment's new body, and its update time (REST's PATCH and GraphQL's updateIssueComment). */
  editComment(repo: Repo, id: number, body: string): IssueComment {
    const comment = this.comment(repo, id)
    comment.body = body
    comment.updated_at = this.core.stamp()
    return comment
  }

  deleteComment(repo: Repo, id: number): void {
    const comment = this.comment(repo, id)
    const issue = this.get(repo, comment.issue)
    issue.comments = issue.comments.filter((c) => c !== id)
    delete repo.comments[id]
    this.core.record(repo, comment.issue, 'comment_deleted', {user: comment.user})
    this.reactions.drop(repo, {kind: 'comment', id})
  }

  addSubIssue(repo: Repo, parentNumber: number, childId: number): Issue {
    const parent = this.get(repo, parentNumber)
    const child = this.byId(repo, childId)
    if (child.parent !== null)
      throw unprocessable('Issue may not contain duplicate sub-issues or have more than one parent', 'sub_issue_id')
    if (child.number === parent.number) throw unprocessable('an issue cannot be its own sub-issue', 'sub_issue_id')
    child.parent = parent.number
    parent.sub_issues.push(child.number)
    this.core.record(repo, parent.number, 'sub_issue_added', {other: child.number})
    this.core.record(repo, child.number, 'parent_issue_added', {other: parent.number})
    return parent
  }

  removeSubIssue(repo: Repo, parentNumber: number, childId: number): Issue {
    const parent = this.get(repo, parentNumber)
    const child = this.byId(repo, childId)
    if (child.parent !== parent.number) throw notFound('Sub-issue not found')
    child.parent = null
    parent.sub_issues = parent.sub_issues.filter((n) => n !== child.number)
    this.core.record(repo, parent.number, 'sub_issue_removed', {other: child.number})
    this.core.record(repo, child.number, 'parent_issue_removed', {other: parent.number})
    return parent
  }

  addBlockedBy(repo: Repo, number: number, blockerId: number): Issue {
    const issue = this.get(repo, number)
    const blocker = this.byId(repo, blockerId)
    if (blocker.number === number) throw unprocessable('an issue cannot block itself', 'issue_id')
    if (!issue.blocked_by.includes(blocker.number)) {
      issue.blocked_by.push(blocker.number)
      this.core.record(repo, number, 'blocked_by_added', {other: blocker.number})
      this.core.record(repo, blocker.number, 'blocking_added', {other: number})
    }
    return issue
  }

  removeBlockedBy(repo: Repo, number: number, blockerId: number): Issue {
    const issue = this.get(repo, number)
    const blocker = this.byId(repo, blockerId)
    if (!issue.blocked_by.includes(blocker.number)) throw notFound('Dependency not found')
    issue.blocked_by = issue.blocked_by.filter((n) => n !== blocker.number)
    this.core.record(repo, number, 'blocked_by_removed', {other: blocker.number})
    this.core.record(repo, blocker.number, 'blocking_removed', {other: number})
    return issue
  }

  /** Issues this one blocks: those whose blocked-by list holds it. */
  blocking(repo: Repo, number: number): Issue[] {
    this.get(repo, number)
    return Object.values(repo.issues)
      .filter((i) => i.blocked_by.includes(number))
      .sort((a, b) => a.number - b.number)
  }
}
