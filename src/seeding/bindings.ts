/** A scenario's placeholders resolved from the fixture manifest, per iteration. */
import {randomBytes} from 'node:crypto'
import {BadInputError} from '../shared/diagnostics.js'
import type {Scenario} from '../schemas/scenario.js'
import type {Manifest} from './manifest.js'

/** Own properties only, along a dotted path; undefined when any step is missing. */
export function resolveManifestPath(manifest: Manifest, path: string): unknown {
  let current: unknown = manifest
  for (const segment of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, segment)) return undefined
    current = (current as Record<string, unknown>)[segment]
  }
  return current
}

export function resolveVariables(
  scenario: Scenario,
  manifest: Manifest,
  manifestFile: string,
  runId: string,
): Record<string, unknown> {
  const variables: Record<string, unknown> = {
    owner: manifest.repo.owner,
    repo: manifest.repo.name,
    repo_full_name: manifest.repo.full_name,
    run_id: runId,
    seed_id: manifest.seed_id,
    run_nonce: randomBytes(4).toString('hex'),
  }
  const problems = []
  for (const [name, path] of Object.entries(scenario.fixture?.bindings ?? {})) {
    const value = resolveManifestPath(manifest, path)
    if (value === undefined || value === null || typeof value === 'object') {
      problems.push({
        file: manifestFile,
        code: 'unknown_reference' as const,
        message: `scenario ${scenario.id}: binding "${name}" -> "${path}" does not resolve to a value in the manifest ${manifestFile} (seed the kinds it requires: ${(scenario.fixture?.requires ?? []).join(', ') || 'none listed'})`,
      })
    } else variables[name] = value
  }
  if (problems.length > 0) throw new BadInputError(problems)
  return variables
}
