/** The git commit (and remote, without credentials) of the project under test, as rows record it. */
import {execFile} from 'node:child_process'
import {promisify} from 'node:util'
import type {Row} from '../results/row-schema.js'

export async function gitOfProject(cwd: string): Promise<Row['git']> {
  const run = promisify(execFile)
  try {
    const commit = (await run('git', ['rev-parse', 'HEAD'], {cwd})).stdout.trim()
    const remote = (
      await run('git', ['config', '--get', 'remote.origin.url'], {cwd}).catch(() => ({stdout: ''}))
    ).stdout.trim()
    // A remote URL may carry credentials (https://user:token@host/...): keep only host and path.
    const repo = remote ? remote.replace(/^(https?:\/\/)[^@/]+@/, '$1') : null
    return {repo, commit}
  } catch {
    return null
  }
}
