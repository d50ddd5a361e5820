/**
 * Files that others read whole (the sandbox's state, the fixture manifest, reports, gate results,
 * run.json, traces) are written atomically: to a temporary file beside the target, flushed, then
 * renamed over it. A crash leaves the old file or the new one, never half of one.
 *
 * Nothing but a regular file is replaced, and nothing is written under a kernel file system
 * (`checkWritable`, which every writer asks first): a rename over /dev/full replaces the device, a
 * FIFO blocks its writer, and `mkdir -p` under /proc never returns.
 */
import {randomBytes} from 'node:crypto'
import {realpathSync, statSync, type Stats} from 'node:fs'
import {mkdir, open, rename, rm, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {BadInputError} from './diagnostics.js'
import {displayPath} from './source-document.js'

/** The kernel's file systems: their entries are devices, processes and settings, not files. */
const KERNEL_ROOTS = ['/proc', '/sys', '/dev']
/** Under /dev, an ordinary tmpfs of regular files. */
const SHARED_MEMORY = '/dev/shm'

const isUnder = (file: string, root: string): boolean => file === root || file.startsWith(root + path.sep)

/** Why `realPath` (a path with no link in it) is no place for files: it is on a kernel file system. */
export function kernelFilesystemProblem(realPath: string): string | undefined {
  if (process.platform === 'win32' || isUnder(realPath, SHARED_MEMORY)) return undefined
  const root = KERNEL_ROOTS.find((kernel) => isUnder(realPath, kernel))
  return (
    root &&
    `is under ${root}, a kernel file system (its entries are devices and the kernel's settings): give a path on a disk`
  )
}

/** What a file system entry is, in words. */
export function entryKind(info: Stats): string {
  if (info.isFile()) return 'a file'
  if (info.isDirectory()) return 'a folder'
  if (info.isFIFO()) return 'a FIFO (named pipe)'
  if (info.isSocket()) return 'a socket'
  if (info.isCharacterDevice()) return 'a character device'
  if (info.isBlockDevice()) return 'a block device'
  return 'not a regular file'
}

/** `absolute` with its links resolved, as far as it exists (what is left is made as folders or a file). */
function realTarget(absolute: string): string {
  for (let at = absolute; ; at = path.dirname(at)) {
    try {
      return path.join(realpathSync(at), path.relative(at, absolute))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || at === path.dirname(at)) throw error
    }
  }
}

/**
 * Bad input (exit 2) unless ghx-bench may write `target` as a file it replaces or a folder it writes
 * into: not on a kernel file system, and, where something already is, a regular file or a folder. It
 * looks (stat), never opens. The finding names `label` (a flag) when given, else the path.
 */
export function checkWritable(
  target: string,
  as: 'file' | 'folder',
  options: {label?: string; cwd?: string} = {},
): void {
  const absolute = path.resolve(options.cwd ?? process.cwd(), target)
  const shown = displayPath(absolute, options.cwd)
  const fail = (message: string): never => {
    throw new BadInputError([
      {file: options.label ?? shown, code: 'io', message: options.label ? `${shown} ${message}` : message},
    ])
  }
  const info = statSync(absolute, {throwIfNoEntry: false})
  if (info && as === 'file' && !info.isFile())
    fail(`is ${entryKind(info)}, not a regular file: ghx-bench writes only to regular files; give a file path`)
  if (info && as === 'folder' && !info.isDirectory()) fail(`is ${entryKind(info)}, not a folder: give a folder path`)
  const kernel = kernelFilesystemProblem(realTarget(absolute))
  if (kernel) fail(kernel)
}

/** `error`, naming `file` when it is a system error that names none (a write through a handle). */
export function naming(error: unknown, file: string): unknown {
  const e = error as NodeJS.ErrnoException
  if (typeof e?.syscall === 'string' && e.path === undefined) e.path = file
  return error
}

/**
 * Writes `data` (or the chunks it yields, for output too large to hold whole) to `file` atomically.
 * A chunk source that throws leaves `file` as it was and no temporary file behind.
 */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array | AsyncIterable<string | Uint8Array>,
): Promise<void> {
  checkWritable(file, 'file')
  await mkdir(path.dirname(file), {recursive: true})
  const temporary = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  )
  try {
    // 'wx': a new file, never one planted under the temporary's name (a FIFO would block the write).
    const handle = await open(temporary, 'wx')
    try {
      await writeFile(handle, data)
      await handle.datasync()
    } finally {
      await handle.close()
    }
    await rename(temporary, file)
  } catch (error) {
    await rm(temporary, {force: true}).catch(() => {})
    throw naming(error, file)
  }
}
