/**
 * Files that others read whole (the sandbox's state, the fixture manifest, reports, gate results,
 * run.json, traces) are written atomically: to a temporary file beside the target, flushed, then
 * renamed over it. A crash leaves the old file or the new one, never half of one.
 */
import {randomBytes} from 'node:crypto'
import {mkdir, open, rename, rm} from 'node:fs/promises'
import path from 'node:path'

export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  await mkdir(path.dirname(file), {recursive: true})
  const temporary = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  )
  try {
    const handle = await open(temporary, 'w')
    try {
      await handle.writeFile(data)
      await handle.datasync()
    } finally {
      await handle.close()
    }
    await rename(temporary, file)
  } catch (error) {
    await rm(temporary, {force: true}).catch(() => {})
    throw error
  }
}
