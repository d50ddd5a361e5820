// ghx-bench as `npm pack` makes it in a fresh clone: the working tree (tracked and untracked files,
// .gitignore applied) is copied to a temporary folder, linked to this checkout's node_modules, packed
// there (prepare builds dist from scratch, so nothing stale of this checkout's dist/ gets in), and
// extracted. The extracted package runs with this checkout's node_modules linked in: the same
// dependency versions a user's install resolves from the lockfile, and no registry or npm cache.
import {execFile} from 'node:child_process'
import {rmSync} from 'node:fs'
import {cp, mkdir, mkdtemp, readdir, symlink} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {promisify} from 'node:util'
import {PROJECT_ROOT} from './cli.js'

const exec = promisify(execFile)

export interface PackedPackage {
  /** The .tgz npm pack wrote. */
  tarball: string
  /** Every path in the tarball, relative to its package/ folder. */
  files: string[]
  /** The extracted package (package/ of the tarball), with node_modules linked in. */
  root: string
  /** Its CLI: node <bin> ... */
  bin: string
}

let packed: Promise<PackedPackage> | undefined

/** Packs once per test process; every caller shares the result. */
export function packedPackage(): Promise<PackedPackage> {
  packed ??= pack()
  return packed
}

/** Variables that would take a run online (or elsewhere than the sandbox and the oracle). */
const ONLINE_VARIABLES = [
  'GH_TOKEN',
  'GITHUB_TOKEN',
  'GH_ENTERPRISE_TOKEN',
  'OPENAI_API_KEY',
  'GITHUB_STEP_SUMMARY',
  'GHX_BENCH_TARGET',
  'GHX_BENCH_MODEL',
]

/** What `offlineEnv` changes in this process's environment (undefined: removed), for the in-process CLI. */
export function offlineOverrides(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const unset = ONLINE_VARIABLES.filter((name) => !(name in extra)).map((name) => [name, undefined])
  return {NO_COLOR: '1', CI: '1', npm_config_update_notifier: 'false', ...Object.fromEntries(unset), ...extra}
}

/** An environment with no GitHub token and no model key: everything must run on the sandbox. */
export function offlineEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {...process.env, ...offlineOverrides(extra)}
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name]
  return env
}

async function pack(): Promise<PackedPackage> {
  const work = await mkdtemp(path.join(tmpdir(), 'ghx-bench-pack-'))
  // The copy, the tarball and the extracted package live as long as the test process.
  process.once('exit', () => rmSync(work, {recursive: true, force: true}))
  const clone = path.join(work, 'clone')
  const {stdout} = await exec('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: PROJECT_ROOT,
    maxBuffer: 64 * 1024 * 1024,
  })
  // node_modules may be a link (a git worktree's), listed as a file: it is linked below, not copied.
  const files = stdout.split('\0').filter((file) => file && !/^node_modules(\/|$)/.test(file))
  for (const file of files) {
    await mkdir(path.dirname(path.join(clone, file)), {recursive: true})
    // A file deleted in the working tree but still in the index is simply not there.
    await cp(path.join(PROJECT_ROOT, file), path.join(clone, file)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error
    })
  }
  await symlink(path.join(PROJECT_ROOT, 'node_modules'), path.join(clone, 'node_modules'))
  const destination = path.join(work, 'packs')
  await mkdir(destination)
  const env = offlineEnv()
  const {stdout: out} = await exec('npm', ['pack', '--json', '--pack-destination', destination], {
    cwd: clone,
    env,
    maxBuffer: 64 * 1024 * 1024,
  })
  // npm prints prepare's output before the JSON document.
  const report = JSON.parse(out.slice(out.indexOf('\n[') + 1)) as Array<{
    filename: string
    files: Array<{path: string}>
  }>
  const tarball = path.join(destination, report[0]!.filename)
  const extracted = path.join(work, 'extracted')
  await mkdir(extracted)
  await exec('tar', ['-xzf', tarball, '-C', extracted])
  const root = path.join(extracted, 'package')
  await symlink(path.join(PROJECT_ROOT, 'node_modules'), path.join(root, 'node_modules'))
  return {tarball, files: report[0]!.files.map((f) => f.path).sort(), root, bin: path.join(root, 'bin', 'run.js')}
}

/** Runs the packed CLI (or any node script) as a child process; never throws on a non-zero exit. */
export async function runNode(
  args: string[],
  options: {cwd: string; env?: NodeJS.ProcessEnv},
): Promise<{code: number; stdout: string; stderr: string}> {
  try {
    const {stdout, stderr} = await exec(process.execPath, args, {
      cwd: options.cwd,
      env: options.env ?? offlineEnv(),
      maxBuffer: 64 * 1024 * 1024,
    })
    return {code: 0, stdout, stderr}
  } catch (error) {
    const e = error as {code: number | string; stdout: string; stderr: string}
    return {code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? String(error)}
  }
}

/** The files under a folder, relative to it (dot files included). */
export async function listFiles(dir: string): Promise<string[]> {
  return (await readdir(dir, {recursive: true, withFileTypes: true}))
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort()
}
