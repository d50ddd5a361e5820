/**
 * `ghx-bench init`: scaffolds a project that runs as is on the embedded sandbox (templates/init:
 * the config, a suite, two calibrated scenarios), its .gitignore lines (templates/gitignore) and a CI
 * workflow that runs the suite through ghx-bench's GitHub Action (templates/workflow.yml; with `shards`,
 * templates/workflow-sharded.yml: a matrix of shard jobs and a merge job that gates).
 *
 * Nothing is overwritten silently: every target is checked before any is written, and an existing
 * file is refused by name unless `force`. The one exception is .gitignore, which is never replaced:
 * the lines it lacks are appended.
 */
import {access, copyFile, mkdir, readdir, readFile, stat, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {PACKAGE_ROOT, packagePath} from '../shared/package-paths.js'
import {HARNESS_VERSION} from '../shared/version.js'
import {BadInputError} from '../shared/diagnostics.js'
import {whichOnPath} from '../agent/shell-tool.js'

export interface InitOptions {
  cwd?: string
  /** Replace the scaffold's files where they exist (.gitignore is still only appended to). */
  force?: boolean
  /** The `uses:` of the workflow: owner/repo@ref of ghx-bench's action (or a local ./path). */
  action?: string
  /** The workflow runs the suite as this many shards on a job matrix, then merges and gates them. */
  shards?: number
}

export interface InitResult {
  dir: string
  /** Files written, relative to the working folder. */
  created: string[]
  /** Files that existed and were replaced (only with force). */
  overwritten: string[]
  /** .gitignore, when it existed and lines were appended to it. */
  updated: string[]
  /** The workflow file, relative to the working folder. */
  workflow: string
  /** The action the workflow uses. */
  action: string
  /** What to do next: commands and edits, in order. */
  next: string[]
}

const templateRoot = packagePath('templates', 'init')
const workflowTemplate = packagePath('templates', 'workflow.yml')
const shardedWorkflowTemplate = packagePath('templates', 'workflow-sharded.yml')
const gitignoreTemplate = packagePath('templates', 'gitignore')

/** Used when neither --action nor package.json's repository says where the action lives. */
const ACTION_PLACEHOLDER = 'OWNER/ghx-bench@main'
const ACTION_PATTERN = /^(?:\.{1,2}\/\S*|[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_./-]+)?@[A-Za-z0-9_./-]+)$/

export async function initProject(dir: string, options: InitOptions = {}): Promise<InitResult> {
  const cwd = options.cwd ?? process.cwd()
  const target = path.resolve(cwd, dir)
  const shown = (file: string) => path.relative(cwd, file) || file
  const action = options.action ?? (await defaultAction())
  if (!ACTION_PATTERN.test(action)) {
    throw new BadInputError([
      {file: '--action', code: 'config', message: `expected owner/repo@ref (or a local ./path), got "${action}"`},
    ])
  }

  // GitHub reads workflows only at the repository's root: a project in a subfolder of a repository gets
  // its workflow there, pointed at the subfolder.
  const repoRoot = (await gitRoot(target)) ?? target
  const workingDirectory = path.relative(repoRoot, target).split(path.sep).join('/') || '.'
  const workflowFile = path.join(repoRoot, '.github', 'workflows', 'ghx-bench.yml')
  const shards = options.shards
  if (shards !== undefined && (!Number.isInteger(shards) || shards < 2))
    throw new BadInputError([
      {file: '--shards', code: 'config', message: `expected a whole number of shards, 2 or more, got ${shards}`},
    ])
  const workflow = (await readFile(shards ? shardedWorkflowTemplate : workflowTemplate, 'utf8'))
    .replaceAll('__GHX_BENCH_ACTION__', action)
    .replaceAll(
      workingDirectory === '.'
        ? /^ *working-directory: __GHX_BENCH_WORKING_DIRECTORY__\n/gm
        : '__GHX_BENCH_WORKING_DIRECTORY__',
      workingDirectory === '.' ? '' : workingDirectory,
    )
    .replaceAll('__GHX_BENCH_SHARD_COUNT__', String(shards))
    .replaceAll('__GHX_BENCH_SHARDS__', Array.from({length: shards ?? 0}, (_, i) => i + 1).join(', '))

  const copies = (await readdir(templateRoot, {recursive: true, withFileTypes: true}))
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(templateRoot, path.join(entry.parentPath, entry.name)))
    .sort()
  // The example gates ghx against gh; where ghx is not installed it gates the GitHub MCP server instead, so that
  // the first run reaches a verdict on this machine (a gate whose candidate cannot run stops the run: exit 2).
  const ghx = await ghxInstalled(target)
  const writeCopy = async (file: string) => {
    if (file !== EXAMPLE_SUITE || ghx) return copyFile(path.join(templateRoot, file), path.join(target, file))
    const suite = await readFile(path.join(templateRoot, file), 'utf8')
    await writeFile(
      path.join(target, file),
      suite.replace(/^ {2}candidate: ghx$/m, `  candidate: mcp  ${GHX_MISSING_NOTE}`),
    )
  }
  const writes: Array<{file: string; write: () => Promise<void>}> = [
    ...copies.map((file) => ({file: path.join(target, file), write: () => writeCopy(file)})),
    {file: workflowFile, write: () => writeFile(workflowFile, workflow)},
  ]
  const existing: string[] = []
  for (const {file} of writes) if (await exists(file)) existing.push(file)
  if (existing.length > 0 && !options.force) {
    throw new BadInputError(
      existing.map((file) => ({
        file: shown(file),
        code: 'io' as const,
        message:
          'already exists; init never overwrites (move it away, scaffold into another folder, or pass --force to replace the scaffold’s files)',
      })),
    )
  }
  if (await exists(target)) {
    if (!(await stat(target)).isDirectory())
      throw new BadInputError([{file: shown(target), code: 'io', message: 'is not a folder'}])
  }
  for (const {file, write} of writes) {
    await mkdir(path.dirname(file), {recursive: true})
    await write()
  }
  const gitignore = await mergeGitignore(path.join(target, '.gitignore'))

  const inFolder = path.relative(cwd, target)
  // The steps after `cd` name files from the project folder.
  const fromTarget = (file: string) => path.relative(target, file) || file
  const written = writes.map(({file}) => file)
  const created = written.filter((file) => !existing.includes(file)).map(shown)
  if (gitignore === 'created') created.push(shown(path.join(target, '.gitignore')))
  const next = [
    ...(inFolder ? [`cd ${inFolder}`] : []),
    ...((await installedIn(target)) ? [] : [await installStep()]),
    'npx ghx-bench validate',
    'npx ghx-bench validate --calibrate',
    'npx ghx-bench run suites/example.yml',
    ...(ghx
      ? []
      : [
          `ghx was not found here, so the example gates mcp against agent_direct: once ghx is installed, set gate.candidate: ghx in ${EXAMPLE_SUITE}`,
        ]),
    ...(action === ACTION_PLACEHOLDER
      ? [
          `edit ${fromTarget(workflowFile)}: replace ${ACTION_PLACEHOLDER} with the repository of ghx-bench's GitHub Action (or run init with --action owner/repo@ref)`,
        ]
      : []),
    shards
      ? `commit the scaffold: ${fromTarget(workflowFile)} runs the suite on every pull request as ${shards} shards, then merges and gates them`
      : `commit the scaffold: ${fromTarget(workflowFile)} runs the suite on every pull request`,
    'live GitHub and a real model: see the comments at the top of .ghxbenchrc.yml',
    'several agent runtimes: list them under providers: in suites/example.yml (a report table and a gate each), or choose with run --provider',
  ]
  return {
    dir: target,
    created,
    overwritten: existing.map(shown),
    updated: gitignore === 'updated' ? [shown(path.join(target, '.gitignore'))] : [],
    workflow: shown(workflowFile),
    action,
    next,
  }
}

const EXAMPLE_SUITE = path.join('suites', 'example.yml')
const GHX_MISSING_NOTE = '# ghx was not found when init ran; once it is installed: candidate: ghx'

/** Whether ghx is where the ghx mode looks for it by default: on PATH, or in the project's node_modules/.bin. */
async function ghxInstalled(target: string): Promise<boolean> {
  return Boolean((await whichOnPath('ghx')) ?? (await whichOnPath('ghx', path.join(target, 'node_modules', '.bin'))))
}

/** Appends the scaffold's ignore lines a .gitignore lacks; creates it when missing. */
async function mergeGitignore(file: string): Promise<'created' | 'updated' | 'kept'> {
  const template = await readFile(gitignoreTemplate, 'utf8')
  const current = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined
    throw error
  })
  if (current === undefined) {
    await writeFile(file, template)
    return 'created'
  }
  const normalise = (line: string) => line.trim().replace(/^\//, '')
  const have = new Set(current.split(/\r?\n/).map(normalise))
  const missing = template
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#') && !have.has(normalise(line)))
  if (missing.length === 0) return 'kept'
  const header = template.split('\n').find((line) => line.startsWith('#'))
  await writeFile(
    file,
    `${current}${current.endsWith('\n') || current === '' ? '' : '\n'}${current === '' ? '' : '\n'}${header}\n${missing.join('\n')}\n`,
  )
  return 'updated'
}

/** The nearest folder at or above `dir` (which may not exist yet) holding .git. */
async function gitRoot(dir: string): Promise<string | undefined> {
  for (let current = dir; ; current = path.dirname(current)) {
    if (await exists(path.join(current, '.git'))) return current
    if (path.dirname(current) === current) return undefined
  }
}

/** Whether ghx-bench is installed where `npx ghx-bench` in that folder finds it. */
async function installedIn(dir: string): Promise<boolean> {
  for (let current = dir; ; current = path.dirname(current)) {
    if (await exists(path.join(current, 'node_modules', 'ghx-bench', 'package.json'))) return true
    if (path.dirname(current) === current) return false
  }
}

/** ghx-bench is not on npm yet: it installs from a tarball packed in a clone (a source checkout). */
async function installStep(): Promise<string> {
  const tarball = `ghx-bench-${HARNESS_VERSION}.tgz`
  const root = path.resolve(PACKAGE_ROOT)
  const fromClone = await exists(path.join(root, 'src', 'index.ts'))
  return fromClone
    ? `npm install --save-dev ${path.join(root, tarball)}   # ghx-bench is not on npm yet: first \`npm pack\` in ${root}`
    : `npm install --save-dev <path to ${tarball}>   # ghx-bench is not on npm yet: \`npm pack\` in a clone of its repository`
}

/** owner/repo@main when package.json names a GitHub repository, else the placeholder. */
async function defaultAction(): Promise<string> {
  const manifest = JSON.parse(await readFile(packagePath('package.json'), 'utf8')) as {
    repository?: string | {url?: string}
  }
  const url = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url
  const match = url?.match(/github(?:\.com[/:]|:)([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?\/?$/)
  return match ? `${match[1]}/${match[2]}@main` : ACTION_PLACEHOLDER
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file)
    return true
  } catch {
    return false
  }
}
