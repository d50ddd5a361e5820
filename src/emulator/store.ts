/**
 * The in-memory GitHub: one state behind REST and GraphQL, and the operations both APIs share.
 * Every rule a client can observe (numbering, validation, the workflow-run lifecycle) lives here
 * once, in the folder of the resource it belongs to. The store is built resource by resource, each
 * class adding one resource's operations on top of the ones it uses (and so on a chain, as a class
 * has one base):
 *
 *   core/store-core.ts     the state, ids, the clock, the acting user and recorded events, users, tokens
 *   repos/git-store.ts     commits, branches, files, the git database, tags, ancestry
 *   issues/label-store.ts  labels and milestones
 *   repos/store.ts         repositories (GitHub's default labels and issue types) and forks
 *   reactions/store.ts     reactions on issues, pull requests and comments
 *   issues/store.ts        issues, comments, sub-issues, dependencies
 *   pulls/store.ts         pull requests: files, commits, merge, branch update, requested reviewers
 *   pulls/review-store.ts  reviews, review comments, threads
 *   actions/store.ts       workflows, runs, attempts, jobs, artifacts, commit statuses
 *   releases/store.ts      releases and their tags
 *   projects/store.ts      Projects v2
 */
import {ProjectStore} from './projects/store.js'

export class Store extends ProjectStore {}
