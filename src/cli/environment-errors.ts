/**
 * Failures of the machine ghx-bench runs on (a full or failing disk, a read-only or forbidden folder, a
 * folder where a file belongs, a port in use, too many open files, a path no file can have) are not
 * bugs of ghx-bench: they are bad input (exit 2) that names the path or address and says what to fix.
 * Anything else stays an error.
 */
import {BadInputError} from '../shared/diagnostics.js'
import {displayPath} from '../shared/source-document.js'

/** What to do about each failure the environment causes. */
const ADVICE: Record<string, string> = {
  ENOSPC: 'no space left on the device: free some space, or point results_dir and reports_dir at another disk',
  EDQUOT: 'the disk quota is used up: free some space, or point results_dir and reports_dir at another disk',
  EROFS: 'the file system is read-only: point results_dir, reports_dir (or the path given) at a writable folder',
  EACCES: 'permission denied: give this user access to it, or choose another path',
  EPERM: 'operation not permitted: give this user access to it, or choose another path',
  EISDIR: 'is a folder where a file belongs: remove or rename the folder, or give a file path',
  ENOTDIR: 'a part of this path is a file, not a folder: remove or rename that file, or choose another path',
  EADDRINUSE: 'the address is in use: stop what listens there, or choose another port',
  EMFILE: 'too many open files: raise the limit (ulimit -n), or lower --concurrency',
  ENFILE: 'the system has too many open files: close some programs, or lower --concurrency',
  EIO: 'an input/output error: the disk or device failed; check it, or choose another path',
  EFBIG: 'the file grew past the largest this user or file system allows (ulimit -f): choose another disk',
  ENXIO: 'no such device or address (a socket, or a device with nothing behind it): give a regular file',
  ELOOP: 'a loop of symbolic links: remove or fix the links, or choose another path',
  ENAMETOOLONG: 'the path is too long: choose a shorter one',
  EEXIST: 'already exists where a new file or folder was to be made: remove or rename it, or choose another path',
}

/** Node's refusal of a path with a NUL byte in it, which no file system can name: `… without null bytes. Received '/a\x00b'`. */
const NUL_IN_PATH = /without null bytes\. Received (.*)$/

/** Node's text of a system error that crossed a process boundary as a message only: `EISDIR: illegal operation on a directory, rename 'a' -> 'b'`. */
const SYSTEM_MESSAGE = /^(E[A-Z]+): [^,]*(?:, (\w+)(?: '([^']*)')?(?: -> '([^']*)')?)?/

interface SystemError {
  code?: unknown
  syscall?: unknown
  path?: unknown
  dest?: unknown
  address?: unknown
  port?: unknown
  message?: unknown
}

/** The bad input an environment failure stands for, or undefined when `error` is not one. */
export function environmentProblem(error: unknown, cwd = process.cwd()): BadInputError | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const e = error as SystemError
  const nul = typeof e.message === 'string' ? NUL_IN_PATH.exec(e.message) : null
  if (nul)
    return new BadInputError([
      {file: nul[1]!, code: 'io', message: 'a path with a NUL byte in it: no file can have this name'},
    ])
  const parsed = typeof e.message === 'string' ? SYSTEM_MESSAGE.exec(e.message) : null
  const code = typeof e.code === 'string' ? e.code : parsed?.[1]
  if (!code || !ADVICE[code]) return undefined
  const syscall = typeof e.syscall === 'string' ? e.syscall : parsed?.[2]
  // A rename's failure is its destination's (an atomic write renames a temporary file onto the target).
  const file =
    syscall === 'rename'
      ? (stringOf(e.dest) ?? parsed?.[4] ?? stringOf(e.path) ?? parsed?.[3])
      : (stringOf(e.path) ?? parsed?.[3] ?? stringOf(e.dest))
  const address =
    typeof e.address === 'string' ? `${e.address}${typeof e.port === 'number' ? `:${e.port}` : ''}` : undefined
  const where = file ? displayPath(file, cwd) || file : (address ?? 'the environment')
  return new BadInputError([
    {file: where, code: 'io', message: `${ADVICE[code]}${syscall ? ` (${syscall}: ${code})` : ` (${code})`}`},
  ])
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}
