import {Flags} from '@oclif/core'
import type {ConfigFile} from '../config/schema.js'
import {checkRunId} from '../results/names.js'
import {outputFileFlag} from './path-flags.js'

/** Flags the fixtures commands share: each sets a configuration key (fixtures.repo, fixtures.manifest, fixtures.seed_id). */
export const fixtureFlags = {
  repo: Flags.string({
    description: 'fixture repository owner/name (sets fixtures.repo; default: the manifest’s, else the config’s)',
  }),
  manifest: outputFileFlag({
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

/** A run id's flag: a name (results/names.ts), never a path; refused as the flags are parsed. */
export const runIdFlag = Flags.custom<string>({parse: (value) => Promise.resolve(checkRunId(value, '--run-id'))})
