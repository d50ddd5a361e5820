// ghx-bench/plugin-kit is the core's own modules, not copies of them; an InfrastructureError is
// recognised by its brand in every copy of ghx-bench, never by its name; and one package loaded
// from both its source and its build is refused with what to do.
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {expect} from 'chai'
import {PROJECT_ROOT} from '../support/cli.js'

/** A module of the source tree as the ESM loader (the plugin loader's way) imports it; `copy` loads a second instance. */
const source = (file: string, copy?: string) =>
  import(pathToFileURL(path.join(PROJECT_ROOT, file)).href + (copy ? `?copy=${copy}` : ''))

describe('plugin kit: ghx-bench/plugin-kit', () => {
  it('resolves, from source, to the core’s own modules: one copy of each', async () => {
    const kit = await import('ghx-bench/plugin-kit')
    const api = await import('ghx-bench')
    expect(kit.shellSession).to.equal((await source('src/agent/shell-tool.ts')).shellSession)
    expect(kit.runAgentLoop).to.equal((await source('src/agent/agent-loop.ts')).runAgentLoop)
    expect(kit.chatCompletion).to.equal((await source('src/agent/chat-completions.ts')).chatCompletion)
    expect(kit.harnessEnv).to.equal((await source('src/shared/process/secret-env.ts')).harnessEnv)
    expect(kit.InfrastructureError).to.equal((await source('src/plugins/api.ts')).InfrastructureError)
    expect(api.InfrastructureError).to.equal(kit.InfrastructureError)
  })

  it('InfrastructureError: recognised by its brand across copies of ghx-bench, and by `infrastructure: true`; not by a name', async () => {
    type Api = typeof import('../../src/plugins/api.js')
    const {InfrastructureError, isInfrastructureError} = (await source('src/plugins/api.ts')) as Api
    const other = (await source('src/plugins/api.ts', 'other-install')) as Api
    expect(other.InfrastructureError).to.not.equal(InfrastructureError)
    const fromOtherCopy = new other.InfrastructureError('model endpoint answered 503')
    expect(fromOtherCopy instanceof InfrastructureError).to.equal(true)
    expect(isInfrastructureError(fromOtherCopy)).to.equal(true)
    expect(isInfrastructureError(Object.assign(new Error('network down'), {infrastructure: true}))).to.equal(true)
    const namedOnly = new Error('looks like one')
    namedOnly.name = 'InfrastructureError'
    expect(isInfrastructureError(namedOnly)).to.equal(false)
    expect(namedOnly instanceof InfrastructureError).to.equal(false)
    expect(isInfrastructureError(null)).to.equal(false)
    // A subclass keeps the ordinary instanceof of its own class.
    class ModelDown extends InfrastructureError {}
    expect(new ModelDown('503') instanceof ModelDown).to.equal(true)
    expect(new InfrastructureError('503') instanceof ModelDown).to.equal(false)
    expect(new ModelDown('503') instanceof InfrastructureError).to.equal(true)
  })

  it('refuses to load one package twice, from its source and its build, saying how to run it', async () => {
    const {PACKAGE_ROOT} = await source('src/shared/package-paths.ts')
    const copies = (globalThis as Record<symbol, Map<string, string>>)[Symbol.for('ghx-bench.loaded-copies')]!
    expect(copies.get(PACKAGE_ROOT)).to.equal('source (src/)')
    copies.set(PACKAGE_ROOT, 'build (dist/)')
    try {
      const loading = source('src/plugins/api.ts', 'mixed')
      await loading.then(
        () => expect.fail('a source copy loaded beside a build copy'),
        (error: Error) =>
          expect(error.message).to.match(
            /is loaded twice, from its build \(dist\/\) and its source \(src\/\): run it from source with the export condition `node --conditions=ghx-bench-source/,
          ),
      )
    } finally {
      copies.set(PACKAGE_ROOT, 'source (src/)')
    }
  })
})
