import {mkdir, mkdtemp, rm, symlink} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {containedPath, OutsideFolderError, writablePath} from '../../src/shared/contained-path.js'

describe('contained paths (names joined under a folder of our own)', () => {
  let folder: string
  before(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'ghx-bench-contained-'))
  })
  after(() => rm(folder, {recursive: true, force: true}))

  it('joins and resolves names that stay inside the folder', () => {
    expect(containedPath(folder, 'owner', 'repo.git')).to.equal(path.join(folder, 'owner', 'repo.git'))
    expect(containedPath(folder, 'a/b/../c')).to.equal(path.join(folder, 'a', 'c'))
    expect(containedPath(`${folder}/`, '...git')).to.equal(path.join(folder, '...git'))
  })

  it('refuses a path that leads outside, to the folder itself, or is absolute', () => {
    for (const names of [
      ['..'],
      ['a', '../..'],
      ['../x'],
      ['/etc/passwd'],
      ['.'],
      ['a/..'],
      [`../${path.basename(folder)}x`],
    ])
      expect(() => containedPath(folder, ...names), names.join('/')).to.throw(OutsideFolderError)
  })

  it('for a path written through: refuses a symbolic link on the way, even one pointing inside', async () => {
    await mkdir(path.join(folder, 'real', 'refs'), {recursive: true})
    await symlink(tmpdir(), path.join(folder, 'out'))
    await symlink(path.join(folder, 'real'), path.join(folder, 'in'))
    expect(await writablePath(folder, 'real', 'refs', 'heads', 'main')).to.equal(
      path.join(folder, 'real', 'refs', 'heads', 'main'),
    )
    for (const names of [['out', 'x'], ['in', 'refs', 'x'], ['out']]) {
      const refused = await writablePath(folder, ...names).then(
        () => undefined,
        (error: unknown) => error,
      )
      expect(refused, names.join('/')).to.be.instanceOf(OutsideFolderError)
    }
    const escaping = await writablePath(folder, '../x').catch((error: unknown) => error)
    expect(escaping).to.be.instanceOf(OutsideFolderError)
  })
})
