/**
 * Gate profiles by name: the project's suites/profiles first, then the built-in ones every project
 * can name (verify_pr, verify_release).
 */
import {readdir} from 'node:fs/promises'
import path from 'node:path'
import {packagePath} from '../shared/package-paths.js'
import {BadInputError, suggestionSuffix} from '../shared/diagnostics.js'
import {validateDocument} from '../shared/schema-validator.js'
import {profileSchema, type Profile} from '../schemas/profile.js'
import {readSource} from '../shared/source-document.js'

export const BUILT_IN_PROFILES_DIR = packagePath('suites', 'profiles')

export async function loadProfile(name: string, suitesDir: string, cwd = process.cwd()): Promise<Profile> {
  const known: string[] = []
  for (const dir of [path.join(suitesDir, 'profiles'), BUILT_IN_PROFILES_DIR]) {
    const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => /\.ya?ml$/.test(f)).sort()
    for (const file of files) {
      const parsed = await readSource(path.join(dir, file), cwd)
      const data = parsed.document?.data as {name?: unknown} | undefined
      if (typeof data?.name === 'string') known.push(data.name)
      if (data?.name !== name) continue
      const findings = parsed.document ? validateDocument(profileSchema, parsed.document) : parsed.diagnostics
      if (findings.length > 0) throw new BadInputError(findings)
      return data as Profile
    }
  }
  throw new BadInputError([{file: path.join(suitesDir, 'profiles'), code: 'unknown_reference', message: `unknown profile "${name}"${suggestionSuffix(name, new Set(known))}`}])
}
