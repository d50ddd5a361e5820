// What ghx-bench may write: a regular file it replaces, or a folder it writes into; never a device, a
// FIFO or a socket (a rename over /dev/full replaced the device, run as root), never a path on the
// kernel's file systems (mkdir -p under /proc never returns). Refused by looking, before anything is
// opened or made. (A write the disk refuses: test/commands/special-paths.e2e.test.ts.)
import {execFileSync} from 'node:child_process'
import {existsSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {mkdtemp, rm} from 'node:fs/promises'
import net from 'node:net'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {checkWritable, writeFileAtomic} from '../../src/shared/atomic-write.js'
import {isBadInputError, type BadInputError} from '../../src/shared/diagnostics.js'

const refusal = (work: () => unknown): string => {
  try {
    work()
  } catch (error) {
    expect(isBadInputError(error), String(error)).to.equal(true)
    const [finding] = (error as BadInputError).diagnostics
    return `${finding!.file}: ${finding!.message}`
  }
  throw new Error('not refused')
}

/** A character device like /dev/full (1, 7) outside /dev, made with mknod; undefined where that is not allowed. */
function fullDevice(file: string): string | undefined {
  try {
    execFileSync('mknod', [file, 'c', '1', '7'], {stdio: 'ignore'})
    return file
  } catch {
    return undefined
  }
}

describe('atomic writes: where ghx-bench may write', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-atomic-'))
  })
  afterEach(() => rm(dir, {recursive: true, force: true}))

  it('allows a new path, a regular file and a folder, and /dev/shm (an ordinary tmpfs)', () => {
    writeFileSync(path.join(dir, 'file'), 'x')
    checkWritable(path.join(dir, 'new', 'deeper', 'file'), 'file')
    checkWritable(path.join(dir, 'file'), 'file')
    checkWritable(dir, 'folder')
    if (existsSync('/dev/shm')) checkWritable('/dev/shm/ghx-bench-report', 'folder')
  })

  it('refuses a FIFO, a socket, a folder where a file goes and a file where a folder goes, naming the flag', async () => {
    const fifo = path.join(dir, 'pipe')
    execFileSync('mkfifo', [fifo])
    const socket = path.join(dir, 'socket')
    const server = net.createServer()
    await new Promise<void>((resolve) => server.listen(socket, resolve))
    try {
      expect(refusal(() => checkWritable(fifo, 'file', {cwd: dir}))).to.equal(
        'pipe: is a FIFO (named pipe), not a regular file: ghx-bench writes only to regular files; give a file path',
      )
      expect(refusal(() => checkWritable(socket, 'folder', {cwd: dir}))).to.match(/^socket: is a socket, not a folder/)
      expect(refusal(() => checkWritable(dir, 'file', {cwd: dir}))).to.match(/is a folder, not a regular file/)
      writeFileSync(path.join(dir, 'file'), 'x')
      expect(refusal(() => checkWritable(path.join(dir, 'file'), 'folder', {label: '--out', cwd: dir}))).to.equal(
        '--out: file is a file, not a folder: give a folder path',
      )
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('refuses the kernel file systems, also through a link, before making anything there', () => {
    expect(refusal(() => checkWritable('/proc/ghx-bench-x/report', 'folder'))).to.match(
      /^\/proc\/ghx-bench-x\/report: is under \/proc, a kernel file system/,
    )
    expect(refusal(() => checkWritable('/sys/ghx-bench-x', 'file'))).to.match(/is under \/sys, a kernel file system/)
    // /dev/full exists: what it is comes first.
    expect(refusal(() => checkWritable('/dev/full', 'file'))).to.match(/is a character device, not a regular file/)
    expect(refusal(() => checkWritable('/dev/ghx-bench-x', 'file'))).to.match(/is under \/dev, a kernel file system/)
    symlinkSync('/proc', path.join(dir, 'looks-local'))
    expect(refusal(() => checkWritable(path.join(dir, 'looks-local', 'x', 'y'), 'folder'))).to.match(
      /is under \/proc, a kernel file system/,
    )
  })

  it('writeFileAtomic never replaces a device or a FIFO: they are left as they were', async () => {
    const fifo = path.join(dir, 'pipe')
    execFileSync('mkfifo', [fifo])
    const device = fullDevice(path.join(dir, 'full'))
    for (const file of device ? [fifo, device] : [fifo]) {
      const error = await writeFileAtomic(file, 'rows\n').then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(isBadInputError(error), String(error)).to.equal(true)
      expect(statSync(file).isFile(), file).to.equal(false)
    }
    expect(readdirSync(dir).sort()).to.deep.equal(device ? ['full', 'pipe'] : ['pipe'])
  })

  it('writes the chunks a source yields, and leaves the old file and no temporary file when the source throws', async () => {
    /** The items as chunks of a source; an Error among them is thrown where it stands. */
    async function* source(items: Array<string | Uint8Array | Error>): AsyncGenerator<string | Uint8Array> {
      for (const item of items) {
        // A chunk a turn, as rows come from a reader.
        await new Promise((resolve) => setImmediate(resolve))
        if (item instanceof Error) throw item
        yield item
      }
    }
    const file = path.join(dir, 'rows.jsonl')
    await writeFileAtomic(file, source(['a\n', Buffer.from('b\n')]))
    expect(readFileSync(file, 'utf8')).to.equal('a\nb\n')
    const failing = await writeFileAtomic(file, source(['c\n', new Error('a bad row')])).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect((failing as Error).message).to.equal('a bad row')
    expect(readFileSync(file, 'utf8')).to.equal('a\nb\n')
    expect(readdirSync(dir)).to.deep.equal(['rows.jsonl'])
  })
})
