import {Flags} from '@oclif/core'

/** Flags the fixtures commands share. */
export const fixtureFlags = {
  repo: Flags.string({description: 'fixture repository owner/name (default: fixtures.repo of the config)'}),
  manifest: Flags.string({aliases: ['out'], description: 'fixture manifest (default: fixtures.manifest of the config, fixtures/latest.json)'}),
  'seed-id': Flags.string({description: 'names this seeding in labels and branches (default: fixtures.seed_id, "default")'}),
}
