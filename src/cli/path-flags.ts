/**
 * Paths given on the command line that ghx-bench writes to, looked at as they are parsed: one that may
 * not be written (a device, a FIFO, a folder where a file goes, a kernel file system: atomic-write.ts)
 * is bad input before any work, not after minutes of it, and never a hang.
 */
import {Flags} from '@oclif/core'
import {checkWritable} from '../shared/atomic-write.js'

/** `value`, once ghx-bench may write it as a file or a folder; bad input naming `label` (or the path) else. */
export function writablePath(value: string, as: 'file' | 'folder', label?: string): string {
  checkWritable(value, as, {label})
  return value
}

/** A flag naming a file ghx-bench writes (and reads, when it is there). */
export const outputFileFlag = Flags.custom<string>({
  parse: (value, _context, flag) => Promise.resolve(writablePath(value, 'file', `--${flag.name}`)),
})

/** A flag naming a folder ghx-bench writes files into. */
export const outputFolderFlag = Flags.custom<string>({
  parse: (value, _context, flag) => Promise.resolve(writablePath(value, 'folder', `--${flag.name}`)),
})
