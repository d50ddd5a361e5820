/**
 * `ghx-bench init`: copies the scaffold in templates/init into a folder, refusing to overwrite
 * anything that is already there (all files are checked before any is written).
 */
import {access, copyFile, mkdir, readdir} from 'node:fs/promises'
import path from 'node:path'
import {packagePath} from '../package-paths.js'
import {BadInputError} from './diagnostics.js'

export interface InitResult {
  dir: string
  created: string[]
  next: string[]
}

const templateRoot = packagePath('templates', 'init')

export async function initProject(dir: string, cwd = process.cwd()): Promise<InitResult> {
  const target = path.resolve(cwd, dir)
  const files = (await readdir(templateRoot, {recursive: true, withFileTypes: true}))
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(templateRoot, path.join(entry.parentPath, entry.name)))
    .sort()
  const existing: string[] = []
  for (const file of files) {
    if (await exists(path.join(target, file))) existing.push(file)
  }
  if (existing.length > 0) {
    throw new BadInputError(
      existing.map((file) => ({file: path.relative(cwd, path.join(target, file)) || file, code: 'io' as const, message: 'already exists; init never overwrites (move it away or scaffold into another folder)'})),
    )
  }
  for (const file of files) {
    await mkdir(path.dirname(path.join(target, file)), {recursive: true})
    await copyFile(path.join(templateRoot, file), path.join(target, file))
  }
  const inFolder = path.relative(cwd, target)
  return {
    dir: target,
    created: files.map((file) => path.join(inFolder, file)),
    next: [
      ...(inFolder ? [`cd ${inFolder}`] : []),
      'npm install --save-dev ghx-bench',
      'edit .ghxbenchrc.yml: fixtures.repo and sandbox_repos (a repository you own), model',
      'npx ghx-bench validate',
      'npx ghx-bench fixtures seed',
      'npx ghx-bench run suites/example.yml',
    ],
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file)
    return true
  } catch {
    return false
  }
}
