/**
 * REST representations in GitHub's shapes (the OpenAPI description's required fields), built from
 * the store. URLs point at the origin the client used, so links it follows come back here. The
 * serializer is built resource by resource, each class adding one resource's representations on
 * top of the ones it embeds (a chain, as a class has one base):
 *
 *   core/serializer-core.ts  the store, the links, a repository's API and web URLs
 *   users/serialize.ts       users and profiles
 *   repos/serialize.ts       repositories, commits, a diff's files
 *   reactions/serialize.ts   reaction rollups
 *   issues/serialize.ts      labels, milestones, issue types, issues, issue comments
 *   pulls/serialize.ts       pull requests, reviews, review comments
 *   actions/serialize.ts     workflows, runs, jobs, artifacts
 *   releases/serialize.ts    releases
 *
 * Git objects (repos/serialize-git.ts) and an issue's history (issues/serialize-events.ts) are
 * functions over this serializer.
 */
import {ReleaseSerializer} from './releases/serialize.js'

export class Serializer extends ReleaseSerializer {}
