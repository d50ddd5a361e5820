/**
 * What a fixture kind is, written once beside its resource type (one module per kind or family): how it
 * is seeded, reset, read for its digest, checked, and named. The manifest holds resources as JSON of no
 * particular kind, so a kind recognises its own resource by the fields it is known by before any of its
 * steps works on it; `fixtureKind` turns a typed definition into the table's entry (kinds.ts).
 */
import type {FixtureKind} from '../schemas/scenario.js'
import type {FixtureContext, SeedOptions} from './context.js'

export type {SeedOptions}
import type {Snapshot} from './digest.js'
import type {Manifest} from './manifest.js'

export type Resources = Manifest['resources']
export type Resource = Resources[string]

/** What a kind's seed step is given: the options, and the resources seeded before it (its dependencies'). */
interface Seeding {
  suffix: string
  workflowPollMs?: number
  resources: Resources
}

export interface FixtureKindDefinition<R extends Resource> {
  /** Its resource, told from a manifest's by the fields it is known by. */
  is(resource: Resource): resource is R
  /** Finds the seed's resource again, or makes it: seeding is idempotent. */
  seed(ctx: FixtureContext, seeding: Seeding): Promise<R>
  /**
   * Back to the seeded state. What GitHub cannot undo is replaced (a fresh workflow run), and a reset
   * that changes the resource's record (a project's new item) hands it to `replace` for the manifest.
   */
  reset(ctx: FixtureContext, resource: R, seeding: Seeding, replace: (fresh: R) => Promise<void>): Promise<void>
  /** The normalized state its digest is taken of. */
  snapshot(ctx: FixtureContext, resource: R): Promise<Snapshot>
  /** What differs from the seeded state by the kind's own checks (empty: as seeded). */
  status(ctx: FixtureContext, resource: R): Promise<string[]>
  /** The snapshot fields `status` checks already: a leak there is not reported twice. */
  statusFields: readonly string[]
  /** How a leak names the resource (`issue #12`); any record, even one that is not the kind's. */
  label(resource: Resource): string
  /** Kinds seeded first (a project holds the fixture issue). */
  dependencies?: readonly FixtureKind[]
  /** Seeding needs a second identity (a reviewer who is not the agent). */
  needsSecondIdentity?: boolean
}

/** A kind as the table holds it: its steps on any manifest resource, which they check is the kind's first. */
export type FixtureKindEntry = Required<Omit<FixtureKindDefinition<Resource>, 'is'>> & {kind: FixtureKind}

export function fixtureKind<R extends Resource>(
  kind: FixtureKind,
  definition: FixtureKindDefinition<R>,
): FixtureKindEntry {
  // Called inside the async steps: a record that is not the kind's rejects the step.
  const own = (resource: Resource): R => {
    if (definition.is(resource)) return resource
    throw new Error(
      `the manifest's ${kind} resource is not one (${definition.label(resource)}): seed the fixtures again (ghx-bench fixtures seed)`,
    )
  }
  return {
    kind,
    seed: (ctx, seeding) => definition.seed(ctx, seeding),
    reset: async (ctx, resource, seeding, replace) => definition.reset(ctx, own(resource), seeding, replace),
    snapshot: async (ctx, resource) => definition.snapshot(ctx, own(resource)),
    status: async (ctx, resource) => definition.status(ctx, own(resource)),
    statusFields: definition.statusFields,
    label: (resource) => definition.label(resource),
    dependencies: definition.dependencies ?? [],
    needsSecondIdentity: definition.needsSecondIdentity ?? false,
  }
}

/** Whether a manifest record has the fields a kind knows its resource by, with these JSON types. */
export function hasFields(resource: Resource, fields: Record<string, 'number' | 'string'>): boolean {
  return Object.entries(fields).every(([name, type]) => typeof resource[name] === type)
}
