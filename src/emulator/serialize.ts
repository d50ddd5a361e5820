/**
 * REST representations in GitHub's shapes (the OpenAPI description's required fields), built from
 * the store. URLs point at the origin the client used, so links it follows come back here. The
 * serializer is the core (the store, the links) with one serializer per resource, each given the
 * core and the serializers of what it embeds (never a base class):
 *
 *   core/serializer-core.ts  the store, the links, a repository's API and web URLs
 *   users                    users/serialize.ts: users and profiles
 *   repos                    repos/serialize.ts: repositories, commits, a diff's files
 *   reactions                reactions/serialize.ts: reactions and their rollups
 *   issues                   issues/serialize.ts: labels, milestones, issue types, issues, issue comments
 *   pulls                    pulls/serialize.ts: pull requests, reviews, review comments
 *   actions                  actions/serialize.ts: workflows, runs, jobs, artifacts
 *   releases                 releases/serialize.ts: releases
 *
 * Git objects (repos/serialize-git.ts) and an issue's history (issues/serialize-events.ts) are
 * functions over this serializer.
 */
import {ActionsSerializer} from './actions/serialize.js'
import {SerializerCore} from './core/serializer-core.js'
import {IssueSerializer} from './issues/serialize.js'
import {PullSerializer} from './pulls/serialize.js'
import {ReactionSerializer} from './reactions/serialize.js'
import {ReleaseSerializer} from './releases/serialize.js'
import {RepoSerializer} from './repos/serialize.js'
import {UserSerializer} from './users/serialize.js'

/** The core with a serializer per resource, each built on the core and the serializers it embeds. */
export class Serializer extends SerializerCore {
  readonly users = new UserSerializer(this)
  readonly repos = new RepoSerializer(this, this.users)
  readonly reactions = new ReactionSerializer(this, this.users)
  readonly issues = new IssueSerializer(this, this.users, this.reactions)
  readonly pulls = new PullSerializer(this, this.users, this.repos, this.issues, this.reactions)
  readonly actions = new ActionsSerializer(this, this.users, this.repos)
  readonly releases = new ReleaseSerializer(this, this.users)
}
