/**
 * Files under results_dir and reports_dir are read and written without following a symbolic link. A
 * results folder may come from elsewhere (a CI artifact, a pull request's checkout): a link planted in
 * it must not make a report embed ~/.ssh/id_rsa, nor a run append rows to (or a torn-line repair cut)
 * a file outside. A link where ghx-bench would read or write is refused as bad input naming it (exit
 * 2); a trace behind a link is left out of summary.html with a note (html/runs.ts). The folders the
 * user names (results_dir, reports_dir, --out, an --input path) are the user's own word and may be
 * links themselves; nothing found below them is followed.
 *
 * Nor is anything read that is not a regular file (`readProblem`): a FIFO blocks its reader until
 * someone writes to it, and a device (/dev/zero) never ends.
 */
import {constants} from 'node:fs'
import {lstat, open, realpath, stat} from 'node:fs/promises'
import path from 'node:path'
import {entryKind, kernelFilesystemProblem, writeFileAtomic} from '../shared/atomic-write.js'
import {BadInputError, type Diagnostic} from '../shared/diagnostics.js'
import {displayPath} from '../shared/source-document.js'

/** 0 where the platform has no O_NOFOLLOW (Windows, where links need privileges to make). */
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0

/**
 * The first symbolic link on the way from `root` (not included) down to `target` (included), or
 * undefined; a part that does not exist yet ends the walk (it will be made as a folder or a file).
 */
export async function linkOnTheWay(root: string, target: string): Promise<string | undefined> {
  const relative = path.relative(root, target)
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined
  let current = root
  for (const part of relative.split(path.sep)) {
    current = path.join(current, part)
    const info = await lstat(current).catch(() => undefined)
    if (!info) return undefined
    if (info.isSymbolicLink()) return current
  }
  return undefined
}

/** What is said of a link ghx-bench will not follow. */
export function linkDiagnostic(link: string, doing: 'read' | 'write', cwd = process.cwd()): Diagnostic {
  const instead =
    doing === 'read'
      ? 'replace it by the file itself, or name the file with --input'
      : 'remove it, or replace it by a folder or file of its own'
  return {
    file: displayPath(link, cwd),
    code: 'io',
    message: `a symbolic link, not followed: ghx-bench does not follow links under its results and reports folders (it would ${doing} a file elsewhere); ${instead}`,
  }
}

/** Bad input (exit 2) naming a link ghx-bench will not follow. */
export function linkRefused(link: string, doing: 'read' | 'write', cwd?: string): BadInputError {
  return new BadInputError([linkDiagnostic(link, doing, cwd)])
}

/** Throws linkRefused when a link is on the way from `root` down to `target`. */
export async function refuseLinks(root: string, target: string, doing: 'read' | 'write', cwd?: string): Promise<void> {
  const link = await linkOnTheWay(root, target)
  if (link) throw linkRefused(link, doing, cwd)
}

/**
 * Why ghx-bench may not read `file` (named `shown`), or undefined: it does not exist, is not a regular
 * file, or is on a kernel file system. It looks (stat), never opens, so a FIFO never blocks.
 */
export async function readProblem(file: string, shown = displayPath(file)): Promise<Diagnostic | undefined> {
  const problem = (message: string): Diagnostic => ({file: shown, code: 'io', message})
  let info
  try {
    info = await stat(file)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return problem('no such file or folder')
    if (code === 'ELOOP') return problem('a loop of symbolic links')
    throw error
  }
  if (!info.isFile()) return problem(`is ${entryKind(info)}, not a regular file: ghx-bench reads only regular files`)
  const kernel = kernelFilesystemProblem(await realpath(file))
  return kernel === undefined ? undefined : problem(kernel)
}

/** Bad input (exit 2) when readProblem finds one. */
export async function checkReadable(file: string, shown?: string): Promise<void> {
  const problem = await readProblem(file, shown)
  if (problem) throw new BadInputError([problem])
}

/** writeFileAtomic, for a file below `root` that no link may redirect. */
export async function writeFileBelow(
  root: string,
  file: string,
  data: string | Uint8Array,
  cwd?: string,
): Promise<void> {
  await refuseLinks(root, file, 'write', cwd)
  await writeFileAtomic(file, data)
}

/**
 * A file below `root` as text, never through a link (the file itself is opened with O_NOFOLLOW, so it
 * cannot be swapped for one after the check); undefined when it does not exist.
 */
export async function readFileBelow(root: string, file: string, cwd?: string): Promise<string | undefined> {
  await refuseLinks(root, file, 'read', cwd)
  if (!(await lstat(file).catch(() => undefined))) return undefined
  await checkReadable(file, displayPath(file, cwd))
  let handle
  try {
    handle = await open(file, constants.O_RDONLY | O_NOFOLLOW)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return undefined
    if (code === 'ELOOP') throw linkRefused(file, 'read', cwd)
    throw error
  }
  try {
    return await handle.readFile('utf8')
  } finally {
    await handle.close()
  }
}
