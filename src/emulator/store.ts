/**
 * The in-memory GitHub: one state behind REST and GraphQL, and the operations both APIs share.
 * Every rule a client can observe (numbering, validation, the workflow-run lifecycle) lives here
 * once, in the service of the resource it belongs to. The store is the core (the state and what
 * every service uses) with one service per resource, each given the core and the services it uses
 * (never a base class), so a resource depends on what it names and nothing else:
 *
 *   core/store-core.ts        the state, ids, the clock, the acting user and recorded events, users, tokens
 *   git                       repos/git-store.ts: commits, branches, files, the git database, tags, ancestry
 *   labels, milestones        issues/label-store.ts, issues/milestone-store.ts
 *   repos                     repos/store.ts: repositories (GitHub's default labels and issue types) and forks
 *   reactions                 reactions/store.ts: on issues, pull requests and comments
 *   issues                    issues/store.ts: issues, comments, sub-issues, dependencies
 *   pulls                     pulls/store.ts: files, commits, merge, branch update, requested reviewers
 *   reviews                   pulls/review-store.ts: reviews, review comments, threads
 *   actions                   actions/store.ts: workflows, runs, attempts, jobs, artifacts
 *   statuses                  actions/status-store.ts: commit statuses
 *   releases                  releases/store.ts: releases and their tags
 *   projects                  projects/store.ts: Projects v2
 */
import {Actions} from './actions/store.js'
import {CommitStatuses} from './actions/status-store.js'
import {StoreCore} from './core/store-core.js'
import {Labels} from './issues/label-store.js'
import {Milestones} from './issues/milestone-store.js'
import {Issues} from './issues/store.js'
import {Projects} from './projects/store.js'
import {Reviews} from './pulls/review-store.js'
import {Pulls} from './pulls/store.js'
import {Reactions} from './reactions/store.js'
import {Releases} from './releases/store.js'
import {Git} from './repos/git-store.js'
import {Repos} from './repos/store.js'

/** The core with a service per resource, each built on the core and the services it names. */
export class Store extends StoreCore {
  readonly git = new Git(this, (repo, branch, sha) => this.actions.push(repo, branch, sha))
  readonly labels = new Labels(this)
  readonly milestones = new Milestones(this)
  readonly repos = new Repos(this, this.git, this.labels)
  readonly reactions = new Reactions(this)
  readonly issues = new Issues(this, this.labels, this.milestones, this.reactions)
  readonly pulls = new Pulls(this, this.git, this.issues)
  readonly reviews = new Reviews(this, this.issues, this.pulls, this.reactions)
  readonly actions = new Actions(this)
  readonly statuses = new CommitStatuses(this, this.git)
  readonly releases = new Releases(this)
  readonly projects = new Projects(this, this.issues)
}
