import {execFile} from 'node:child_process'
import {promisify} from 'node:util'
import {expect} from 'chai'
import {isValidRefName, treePathProblem} from '../../../src/emulator/core/git-names.js'

/** Whether the real `git check-ref-format` takes the name. */
async function gitTakes(ref: string): Promise<boolean> {
  return promisify(execFile)('git', ['check-ref-format', ref]).then(
    () => true,
    () => false,
  )
}

describe('git names: refs by git check-ref-format’s rules, tree paths by GitHub’s', () => {
  it('agrees with git check-ref-format on names it takes and names it refuses', async () => {
    const names = [
      'refs/heads/main',
      'refs/heads/feature/x-1',
      'refs/tags/v1.0.0',
      'refs/heads/ü-unicode',
      'refs/heads/-leading-dash',
      'refs/heads/@',
      'refs/heads/HEAD',
      'refs/heads/a.b',
      'refs/heads/x.locked',
      'main',
      '@',
      'refs/heads/a..b',
      'refs/heads/../../../tmp/x',
      'refs/heads/.hidden',
      'refs/heads/dir/.hidden',
      'refs/heads/x.lock',
      'refs/heads/x.lock/y',
      'refs/heads/trailing.',
      'refs/heads/trailing/',
      '/refs/heads/leading',
      'refs/heads//double',
      'refs/heads/a@{1}',
      'refs/heads/with space',
      'refs/heads/tab\tx',
      'refs/heads/del\x7fx',
      'refs/heads/tilde~1',
      'refs/heads/caret^',
      'refs/heads/colon:x',
      'refs/heads/question?',
      'refs/heads/star*',
      'refs/heads/bracket[',
      'refs/heads/back\\slash',
      'refs/heads/',
    ]
    const disagreements: string[] = []
    for (const name of names) if (isValidRefName(name) !== (await gitTakes(name))) disagreements.push(name)
    expect(disagreements).to.deep.equal([])
  })

  it('names what is wrong with a file path as GitHub does', () => {
    expect(treePathProblem('src/index.ts')).to.equal(undefined)
    expect(treePathProblem('.github/workflows/ci.yml')).to.equal(undefined)
    expect(treePathProblem('.gitignore')).to.equal(undefined)
    expect(treePathProblem('')).to.equal('cannot be blank')
    expect(treePathProblem('/etc/passwd')).to.equal('cannot start with a slash')
    expect(treePathProblem('docs/')).to.equal('cannot end with a slash')
    for (const path of [
      '../x',
      'a/../../x',
      'a//b',
      './x',
      '.git/config',
      'a/.GIT/hooks',
      '.g\u200cit/x',
      '.git./x',
      'GIT~1/x',
      '.git\\x',
    ])
      expect(treePathProblem(path), path).to.equal('contains a malformed path component')
  })
})
