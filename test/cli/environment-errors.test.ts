// A failure of the environment is bad input that names the path or address and says what to fix; any
// other error is not one (it stays an internal error, exit 4).
import {mkdtemp, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {environmentProblem} from '../../src/cli/environment-errors.js'

const systemError = (fields: Record<string, unknown>) => Object.assign(new Error('failed'), fields)

describe('environment failures as bad input', () => {
  it('a full disk names the file being written and says to free space', () => {
    const [finding] = environmentProblem(
      systemError({code: 'ENOSPC', syscall: 'write', path: '/work/p/results/r.jsonl'}),
      '/work/p',
    )!.diagnostics
    expect(finding).to.include({file: path.join('results', 'r.jsonl'), code: 'io'})
    expect(finding!.message).to.match(/^no space left on the device: free some space.* \(write: ENOSPC\)$/)
  })

  it('a rename onto a folder names its destination, not the temporary file', () => {
    const [finding] = environmentProblem(
      systemError({code: 'EISDIR', syscall: 'rename', path: '/p/.summary.md.1.tmp', dest: '/p/out/summary.md'}),
      '/p',
    )!.diagnostics
    expect(finding).to.include({file: path.join('out', 'summary.md')})
    expect(finding!.message).to.match(/^is a folder where a file belongs/)
  })

  it('reads one that crossed a process boundary as a message only, and a port in use by its address', () => {
    const [moved] = environmentProblem(
      new Error("EROFS: read-only file system, open '/ro/results/x.jsonl'"),
      '/',
    )!.diagnostics
    expect(moved).to.include({file: path.join('ro', 'results', 'x.jsonl')})
    expect(moved!.message).to.match(/read-only.*\(open: EROFS\)/)
    const [port] = environmentProblem(
      systemError({code: 'EADDRINUSE', syscall: 'listen', address: '127.0.0.1', port: 4010}),
    )!.diagnostics
    expect(port).to.include({file: '127.0.0.1:4010'})
  })

  it('a failing disk, a link loop, a name already taken and a path with a NUL byte are bad input too', async () => {
    const said = (error: unknown) => {
      const [finding] = environmentProblem(error, '/p')!.diagnostics
      return `${finding!.file}: ${finding!.message}`
    }
    expect(said(systemError({code: 'EIO', syscall: 'write', path: '/p/reports/r/summary.md'}))).to.equal(
      `${path.join('reports', 'r', 'summary.md')}: an input/output error: the disk or device failed; check it, or choose another path (write: EIO)`,
    )
    expect(said(systemError({code: 'ELOOP', syscall: 'stat', path: '/p/a'}))).to.match(/^a: a loop of symbolic links/)
    expect(said(systemError({code: 'EEXIST', syscall: 'mkdir', path: '/p/out'}))).to.match(/^out: already exists/)
    const nul = await writeFile('/p/a\0b', 'x').then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(said(nul)).to.equal("'/p/a\\x00b': a path with a NUL byte in it: no file can have this name")
  })

  it('leaves every other error alone: a bug, a missing file, a plain value', () => {
    expect(environmentProblem(new TypeError('Cannot read properties of undefined'))).to.equal(undefined)
    expect(environmentProblem(systemError({code: 'ENOENT', syscall: 'open', path: '/x'}))).to.equal(undefined)
    expect(environmentProblem('ENOSPC')).to.equal(undefined)
  })

  it('turns a real EISDIR into a finding at the folder', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-env-'))
    const error = await writeFile(dir, 'x').then(
      () => undefined,
      (e: unknown) => e,
    )
    const [finding] = environmentProblem(error, dir)!.diagnostics
    expect(finding!.file).to.equal(dir)
    expect(finding!.message).to.match(/is a folder where a file belongs.*EISDIR/)
  })
})
