/**
 * The core of the in-memory GitHub's store, which every resource's operations share (../store.ts
 * composes them over it): the state, ids and node ids, timestamps, the acting user and the events a
 * change records, users and tokens.
 */
import type {IssueEvent, Repo, SandboxState, User} from './state.js'

export interface WorkflowTiming {
  /** How long a run stays queued, then in progress, before it completes. */
  queued_ms: number
  running_ms: number
}

/** Node ids: a type prefix and the global numeric id, as GitHub's opaque ids look. */
const NODE_PREFIX = {
  user: 'U',
  repo: 'R',
  issue: 'I',
  pull: 'PR',
  label: 'LA',
  milestone: 'MI',
  comment: 'IC',
  review: 'PRR',
  review_comment: 'PRRC',
  thread: 'PRRT',
  workflow: 'W',
  run: 'WFR',
  job: 'CR',
  release: 'RE',
  artifact: 'MDg',
  issue_type: 'IT',
  reaction: 'REA',
} as const
export type NodeKind = keyof typeof NODE_PREFIX

/** Node ids made so far, by kind: every read of a list makes its items' ids again (as many as the state holds). */
const madeIds = new Map<NodeKind, Map<number, string>>()

export function nodeId(kind: NodeKind, id: number): string {
  let made = madeIds.get(kind)
  if (!made) madeIds.set(kind, (made = new Map()))
  let node = made.get(id)
  if (node === undefined)
    made.set(id, (node = `${NODE_PREFIX[kind]}_kw${Buffer.from(String(id)).toString('base64url')}`))
  return node
}

export function parseNodeId(node: string): {kind: NodeKind; id: number} | undefined {
  const match = /^([A-Za-z]+)_kw([A-Za-z0-9_-]+)$/.exec(node)
  if (!match) return undefined
  const kind = (Object.keys(NODE_PREFIX) as NodeKind[]).find((k) => NODE_PREFIX[k] === match[1])
  const id = Number(Buffer.from(match[2]!, 'base64url').toString())
  return kind && Number.isInteger(id) ? {kind, id} : undefined
}

export function timestamp(ms = Date.now()): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z')
}

function emptyState(): SandboxState {
  return {version: 1, next_id: 1000, users: {}, tokens: {}, repos: {}, projects: []}
}

/** The state and what every resource's operations use: ids, the clock, the actor, recorded events, users and tokens. */
export class StoreCore {
  readonly state: SandboxState
  timing: WorkflowTiming
  readonly now: () => number

  constructor(state: SandboxState = emptyState(), options: {timing?: WorkflowTiming; now?: () => number} = {}) {
    this.state = state
    this.timing = options.timing ?? {queued_ms: 150, running_ms: 350}
    this.now = options.now ?? Date.now
  }

  nextId(): number {
    return this.state.next_id++
  }

  private acting: string | undefined

  /** Who is acting (the request's viewer), for the events a change records. */
  get actor(): string | undefined {
    return this.acting
  }

  /** Runs a change on behalf of a user: events it records name them as the actor. */
  as<T>(login: string, change: () => T): T {
    const previous = this.acting
    this.acting = login
    try {
      return change()
    } finally {
      this.acting = previous
    }
  }

  /** Records an event on an issue or pull request (GitHub's REST event names). */
  record(repo: Repo, number: number, event: string, fields: Partial<IssueEvent> = {}): IssueEvent {
    const recorded: IssueEvent = {
      id: this.nextId(),
      issue: number,
      event,
      actor: this.actor ?? repo.owner,
      created_at: this.stamp(),
      ...fields,
    }
    repo.events ??= {}
    repo.events[recorded.id] = recorded
    return recorded
  }

  stamp(): string {
    return timestamp(this.now())
  }

  // ---- users and tokens -------------------------------------------------------------------------

  ensureUser(login: string, type: User['type'] = 'User', name: string | null = null): User {
    return (this.state.users[login] ??= {id: this.nextId(), login, name, type})
  }

  user(login: string): User {
    return this.state.users[login] ?? this.ensureUser(login)
  }

  addToken(token: string, login: string, type: User['type'] = 'User'): void {
    this.ensureUser(login, type)
    this.state.tokens[token] = login
  }

  loginForToken(token: string): string | undefined {
    return this.state.tokens[token]
  }
}
