/**
 * Paths made of names someone else chose (a repository's owner and name, a ref) under a folder of our
 * own: resolved, and refused unless they land strictly inside it. A path that is written through is
 * refused too when a component below the folder is a symbolic link, which could lead out of it.
 */
import {lstat} from 'node:fs/promises'
import path from 'node:path'

/** A path that would leave its folder (or lead through a symbolic link): nothing is written there. */
export class OutsideFolderError extends Error {}

/** `names` joined under `folder`, resolved; refused when the result is the folder itself or outside it. */
export function containedPath(folder: string, ...names: string[]): string {
  const root = path.resolve(folder)
  const target = path.resolve(root, ...names)
  const relative = path.relative(root, target)
  if (relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative))
    throw new OutsideFolderError(`${JSON.stringify(names.join('/'))} leads outside ${root}`)
  return target
}

/** As `containedPath`, for a path about to be written: no existing component below `folder` may be a symbolic link. */
export async function writablePath(folder: string, ...names: string[]): Promise<string> {
  const target = containedPath(folder, ...names)
  let at = path.resolve(folder)
  for (const part of path.relative(at, target).split(path.sep)) {
    at = path.join(at, part)
    const stats = await lstat(at).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined
      throw error
    })
    // What does not exist yet is made by the writer, as a plain folder or file.
    if (!stats) break
    if (stats.isSymbolicLink()) throw new OutsideFolderError(`${at} is a symbolic link`)
  }
  return target
}
