/**
 * Gate profiles by name: the project's suites/profiles first, then the built-in ones every project
 * can name (verify_pr, verify_release). A project profile that does not parse or validate is bad input,
 * never passed over for a built-in profile of the same name: which name a broken file meant cannot be
 * told, and the built-in's thresholds are not the project's (a stricter gate would pass silently).
 */
import {readdir} from 'node:fs/promises'
import path from 'node:path'
import {packagePath} from '../shared/package-paths.js'
import {BadInputError, suggestionSuffix, type Diagnostic} from '../shared/diagnostics.js'
import {validateDocument} from '../shared/schema-validator.js'
import {profileSchema, type Profile} from '../schemas/profile.js'
import {displayPath, readSource, type SourceDocument} from '../shared/source-document.js'
import {detectKind, profileNameFindings} from './catalogue.js'

export const BUILT_IN_PROFILES_DIR = packagePath('suites', 'profiles')

async function yamlFiles(dir: string): Promise<string[]> {
  return (await readdir(dir).catch(() => [] as string[]))
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => path.join(dir, f))
}

/** A profile by name; `namedBy` says where the name was given (`--profile`), where an unknown name is reported. */
export async function loadProfile(
  name: string,
  suitesDir: string,
  cwd = process.cwd(),
  namedBy?: string,
): Promise<Profile> {
  // The project's profiles, every one of them read and checked, as `run` and `validate` check them.
  const project: Array<{document: SourceDocument; value: Profile}> = []
  const findings: Diagnostic[] = []
  for (const file of await yamlFiles(path.join(suitesDir, 'profiles'))) {
    const parsed = await readSource(file, cwd)
    if (!parsed.document) {
      findings.push(...parsed.diagnostics)
      continue
    }
    // A file under profiles/ whose $schema line says it is something else is not a profile.
    if (detectKind(file, parsed.document, suitesDir) !== 'profile') continue
    const problems = validateDocument(profileSchema, parsed.document)
    if (problems.length === 0)
      problems.push(...profileNameFindings(file, parsed.document, (parsed.document.data as Profile).name))
    if (problems.length > 0) findings.push(...problems)
    else project.push({document: parsed.document, value: parsed.document.data as Profile})
  }
  for (const [index, {document, value}] of project.entries()) {
    const first = project.slice(0, index).find((p) => p.value.name === value.name)
    if (!first) continue
    const at = first.document.positionOf(['name'])
    findings.push(
      document.diagnostic(
        ['name'],
        'duplicate_id',
        `duplicate profile name "${value.name}" (first defined at ${first.document.file}:${at.line}:${at.col})`,
      ),
    )
  }
  if (findings.length > 0) throw new BadInputError(findings)
  const own = project.find((p) => p.value.name === name)
  if (own) return own.value
  const known = project.map((p) => p.value.name)
  for (const file of await yamlFiles(BUILT_IN_PROFILES_DIR)) {
    const parsed = await readSource(file, cwd)
    const data = parsed.document?.data as {name?: unknown} | undefined
    if (typeof data?.name === 'string') known.push(data.name)
    if (data?.name !== name) continue
    const problems = parsed.document ? validateDocument(profileSchema, parsed.document) : parsed.diagnostics
    if (problems.length > 0) throw new BadInputError(problems)
    return data as Profile
  }
  throw new BadInputError([
    {
      file: namedBy ?? displayPath(path.join(suitesDir, 'profiles'), cwd),
      code: 'unknown_reference',
      message: `unknown profile "${name}"${suggestionSuffix(name, new Set(known))}`,
    },
  ])
}
