import {Flags} from '@oclif/core'
import type {ConfigFile} from '../config/schema.js'

/** Flags the fixtures commands share: each sets a configuration key (fixtures.repo, fixtures.manifest, fixtures.seed_id). */
export const fixtureFlags = {
  repo: Flags.string({
    description: 'fixture repository owner/name (sets fixtures.repo; default: the manifest’s, else the config’s)',
  }),
  manifest: Flags.string({
    aliases: ['out'],
    description: 'fixture manifest (sets fixtures.manifest; default fixtures/latest.json)',
  }),
  'seed-id': Flags.string({
    description:
      'names this seeding in labels and branches (sets fixtures.seed_id; default: the manifest’s, else "default")',
  }),
}

/** The configuration the fixture flags set (the flag layer). */
export function fixtureOverrides(flags: {repo?: string; manifest?: string; 'seed-id'?: string}): ConfigFile {
  return {fixtures: {repo: flags.repo, manifest: flags.manifest, seed_id: flags['seed-id']}}
}
