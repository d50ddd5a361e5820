// Plugins in a process of their own: the built-ins load as a third party's would, through `ghx-bench` and
// `ghx-bench/plugin-kit`, one copy of the core, from source as from the build (what a fresh Node process
// resolves is the subject). The plugins command itself: test/commands/plugins.test.ts.
import {spawnSync} from 'node:child_process'
import path from 'node:path'
import {expect} from 'chai'
import {PROJECT_ROOT} from '../support/cli.js'

describe('ghx-bench plugins (process)', () => {
  it('from source, the built-ins’ `ghx-bench` and `ghx-bench/plugin-kit` are the core’s own source modules: nothing of dist/ loads', () => {
    // Every module the process resolves, recorded by a resolve hook; the plugins loaded as the CLI loads them.
    const hook = `data:text/javascript,${encodeURIComponent('let port\nexport function initialize(data) { port = data.port }\nexport async function resolve(s, c, next) { const r = await next(s, c); port.postMessage(r.url); return r }')}`
    const script = [
      "import {register} from 'node:module'",
      "import {MessageChannel} from 'node:worker_threads'",
      'const {port1, port2} = new MessageChannel()',
      'const urls = []',
      'port1.on("message", (url) => urls.push(url)); port1.unref()',
      `register(${JSON.stringify(hook)}, {data: {port: port2}, transferList: [port2]})`,
      `const {loadPlugins} = await import(${JSON.stringify(path.join(PROJECT_ROOT, 'src/plugins/loader.ts'))})`,
      `const registry = await loadPlugins({fromDir: ${JSON.stringify(PROJECT_ROOT)}, plugins: [], origin: 'test'})`,
      'await new Promise((resolve) => setTimeout(resolve, 200))',
      'console.log(JSON.stringify({modes: registry.modeNames(), urls}))',
    ].join('\n')
    const result = spawnSync(
      process.execPath,
      ['--conditions=ghx-bench-source', '--import', 'tsx', '--input-type=module', '-e', script],
      {cwd: PROJECT_ROOT, encoding: 'utf8'},
    )
    expect(result.status, result.stderr).to.equal(0)
    const {modes, urls} = JSON.parse(result.stdout) as {modes: string[]; urls: string[]}
    expect(modes).to.deep.equal(['agent_direct', 'ghx', 'mcp'])
    const own = urls.filter((url) => url.startsWith(`file://${PROJECT_ROOT}`) && !url.includes('/node_modules/'))
    expect(own).to.include.members([
      `file://${PROJECT_ROOT}src/index.ts`,
      `file://${PROJECT_ROOT}src/plugin-kit/index.ts`,
      `file://${PROJECT_ROOT}plugins/mode-ghx/index.ts`,
    ])
    expect(own.filter((url) => url.includes('/dist/'))).to.deep.equal([])
  })
})
