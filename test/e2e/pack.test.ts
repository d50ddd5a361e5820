// The package as README's Install makes it (ghx-bench is not on npm yet): `npm pack` in a clone, then
// the tarball in a project. The packed CLI scaffolds an empty project with init and runs its suite
// green on the embedded sandbox, with no token and no model key.
import {existsSync} from 'node:fs'
import {mkdtemp, readFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {expect} from 'chai'
import {PROJECT_ROOT} from '../support/cli.js'
import {listFiles, offlineEnv, packedPackage, runNode, type PackedPackage} from '../support/packed.js'

describe('the packed package (npm pack)', function () {
  this.timeout(600_000)
  let pkg: PackedPackage

  before(async () => {
    pkg = await packedPackage()
  })

  it('holds everything the CLI needs at run time, and nothing of the repository’s development', async () => {
    const {files} = pkg
    const templates = (await listFiles(path.join(PROJECT_ROOT, 'templates'))).map((f) => `templates/${f}`)
    expect(templates).to.include.members([
      'templates/init/.ghxbenchrc.yml',
      'templates/gitignore',
      'templates/workflow.yml',
    ])
    // Every template, dot files included (npm drops files named .gitignore: the template is templates/gitignore).
    expect(files).to.include.members(templates)
    expect(files).to.include.members([
      'package.json',
      'README.md',
      'CHANGELOG.md',
      'docs/guide.md',
      'docs/cli.md',
      'bin/run.js',
      'dist/src/command-index.js',
      'dist/src/index.js',
      'dist/src/index.d.ts',
      'dist/src/plugin-kit/index.js',
      'dist/src/plugin-kit/index.d.ts',
      'dist/src/github/tasks.js',
      'dist/src/emulator/github-routes.json',
      'dist/src/report/aggregate/aggregate-worker.js',
      'preload/github-api-origin.mjs',
      'schemas/config.schema.json',
      'suites/profiles/verify_pr.yml',
      'suites/profiles/verify_release.yml',
    ])
    // The built-in plugins are compiled into dist/plugins, where the loader finds them (with their own modules).
    for (const plugin of [
      'conditions-core',
      'mode-agent-direct',
      'mode-ghx',
      'mode-mcp',
      'provider-agent-loop',
      'provider-opencode',
      'provider-claude-code',
      'provider-codex',
    ]) {
      expect(files, plugin).to.include(`dist/plugins/${plugin}/index.js`)
    }
    expect(files).to.include('dist/plugins/mode-ghx/accounting.js')
    // ghx-bench and ghx-bench/plugin-kit, which they import, resolve to the build: the source condition points at nothing shipped.
    const {exports} = JSON.parse(await readFile(path.join(pkg.root, 'package.json'), 'utf8')) as {
      exports: Record<string, Record<string, string> | string>
    }
    for (const entry of ['.', './plugin-kit', './sandbox']) {
      const target = exports[entry] as Record<string, string>
      expect(files, entry).to.include.members([target.import!.slice(2), target.types!.slice(2)])
      expect(files, entry).to.not.include(target['ghx-bench-source']!.slice(2))
    }
    expect(
      files.filter(
        (f) =>
          /^(src|plugins|test|bench|scripts|examples)\//.test(f) || f === 'action.yml' || f.startsWith('dist/test/'),
      ),
    ).to.deep.equal([])
  })

  it('its CLI scaffolds an empty project and runs the suite green on the sandbox (no token, no key)', async () => {
    const project = await mkdtemp(path.join(tmpdir(), 'ghx-bench-packed-project-'))
    const env = offlineEnv()
    const init = await runNode([pkg.bin, 'init'], {cwd: project, env})
    expect(init.code, init.stderr).to.equal(0)
    for (const file of ['.ghxbenchrc.yml', '.gitignore', '.github/workflows/ghx-bench.yml', 'suites/example.yml'])
      expect(existsSync(path.join(project, file)), file).to.equal(true)
    // The packed package does not live in a clone: it cannot name a tarball path, only say how to get one.
    expect(init.stdout).to.include('npm install --save-dev <path to ghx-bench-0.1.0.tgz>')

    const validate = await runNode([pkg.bin, 'validate'], {cwd: project, env})
    expect(validate.code, validate.stderr).to.equal(0)
    const run = await runNode([pkg.bin, 'run', 'suites/example.yml', '--repetitions', '1'], {cwd: project, env})
    // No ghx here: the example gates mcp against agent_direct and reaches a verdict (1 run each is too few for
    // the reliability checks; the tokens check fails the mcp arm's tool definitions).
    expect(run.code, run.stdout + run.stderr).to.equal(1)
    expect(run.stdout.trim().split('\n').at(-1)).to.match(
      /^verdict: FAIL \(exit 1\): gate verify_pr, mcp against agent_direct: \d+ failed/,
    )
    expect(run.stdout).to.match(/agent_direct: pass 2, fail 0, timeout 0, infra error 0/)
    expect(run.stdout).to.match(/mcp: pass 2, fail 0, timeout 0, infra error 0/)
    expect(run.stdout).to.match(/wrote .*summary\.md/)
    expect(await readFile(path.join(project, '.gitignore'), 'utf8')).to.include('results/')
  })
})
