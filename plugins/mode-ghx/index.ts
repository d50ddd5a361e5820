/**
 * Mode `ghx`: the agent gets a shell tool with the `ghx` CLI on PATH (and gh, which ghx routes
 * through), and ghx's skill file as its instructions. PATH is a folder of links to exactly these
 * and the common utilities. Every route of ghx reaches the target: `ghx run` posts GraphQL to a
 * hard-coded https://api.github.com/graphql through Node's fetch (the target's node preload sends it
 * to the target), `ghx chain` reads GITHUB_GRAPHQL_URL, and its CLI routes run gh with the arm's gh
 * environment. The runner preflights the mode once per suite with `gh auth status`. ghx logs each
 * execution, with the route it took, to the run's layer log folder (GHX_LOG_LEVEL, GHX_LOG_DIR), which
 * the mode's accounting reads for the row's by_route and route_used.
 */
import {execFile} from 'node:child_process'
import {readFile, realpath} from 'node:fs/promises'
import {homedir} from 'node:os'
import path from 'node:path'
import {promisify} from 'node:util'
import {definePlugin, type Mode, type ModeContext} from 'ghx-bench'
import {isolatedBin, layerLogDir, shellSession, whichOnPath} from 'ghx-bench/plugin-kit'
import {ghxAccounting} from './accounting.js'

export const GHX_INSTALL_HINT =
  'ghx not found: install the ghx CLI (from its repository, or @ghx-dev/core once published) and put ghx on PATH, or set the mode option `ghx` to its path'

/** Skill folders ghx has shipped its SKILL.md in, newest first (0.8.0: skills/github-ghx). */
const SKILL_FOLDERS = ['github-ghx', 'using-ghx']

/** Where ghx's skill file may be: the environment, the project, `ghx setup`'s install, then the package beside the bin. */
function skillCandidates(ghx: string, cwd: string): string[] {
  const home = homedir()
  const binDir = path.dirname(ghx)
  return [
    process.env.GHX_SKILL_MD,
    path.join(cwd, 'SKILL.md'),
    ...SKILL_FOLDERS.map((name) => path.join(home, '.agents', 'skills', name, 'SKILL.md')),
    ...SKILL_FOLDERS.flatMap((name) => [
      path.join(binDir, '..', 'skills', name, 'SKILL.md'),
      path.join(binDir, '..', '@ghx-dev', 'core', 'skills', name, 'SKILL.md'),
    ]),
  ].filter((p): p is string => typeof p === 'string')
}

async function findGhx(context: Pick<ModeContext, 'options'>, cwd: string): Promise<string | undefined> {
  if (typeof context.options.ghx === 'string') return path.resolve(cwd, context.options.ghx)
  return (await whichOnPath('ghx')) ?? (await whichOnPath('ghx', path.join(cwd, 'node_modules', '.bin')))
}

/** The skill file's text and where it was found; null when there is none (the arm then cannot run). */
async function instructionsFor(
  context: Pick<ModeContext, 'options'>,
  ghx: string,
  cwd: string,
): Promise<{text: string; from: string} | null> {
  if (typeof context.options.instructions === 'string')
    return {text: context.options.instructions, from: 'the mode option instructions'}
  // The bin may be a link (node_modules/.bin/ghx -> ../@ghx-dev/core/bin/ghx): look beside its target too.
  const real = await realpath(ghx).catch(() => ghx)
  const files =
    typeof context.options.skill === 'string'
      ? [path.resolve(cwd, context.options.skill)]
      : [...new Set([...skillCandidates(ghx, cwd), ...skillCandidates(real, cwd)])]
  for (const file of files) {
    const text = await readFile(file, 'utf8').catch(() => undefined)
    if (text) return {text, from: file}
  }
  return null
}

const run = promisify(execFile)

/** The first version number a tool prints for --version (`ghx 0.8.0`, `gh version 2.23.0 (…)`). */
async function versionOf(file: string, env: Record<string, string>): Promise<string | undefined> {
  const {stdout} = await run(file, ['--version'], {env, timeout: 30_000}).catch(() => ({stdout: ''}))
  return /\d+\.\d+\.\d+[\w.-]*/.exec(stdout)?.[0]
}

const ghxMode: Mode = {
  name: 'ghx',
  description: 'the agent with the ghx routed tool layer in a shell',
  // ghx's own envelope (the default contract); it reports the route it took in meta.route_used.
  envelope: {reportsRoutes: true},
  // What its `ghx run` and `ghx chain` commands ran, the routes its own log (or its envelopes) report, its retries.
  accounting: ghxAccounting,
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      ghx: {
        type: 'string',
        minLength: 1,
        description: 'path of the ghx executable (default: ghx on PATH, then node_modules/.bin/ghx)',
      },
      skill: {
        type: 'string',
        minLength: 1,
        description:
          'the skill file given as instructions (default: GHX_SKILL_MD, ./SKILL.md, ~/.agents/skills/github-ghx/, the package’s skills/github-ghx/)',
      },
      instructions: {type: 'string', minLength: 1, description: 'replaces the skill file'},
    },
  },
  async available(context) {
    const cwd = process.cwd()
    const ghx = await findGhx(context, cwd)
    if (!ghx || !(await whichOnPath(path.basename(ghx), path.dirname(ghx))))
      return {available: false, reason: GHX_INSTALL_HINT}
    const gh = await whichOnPath('gh')
    if (!gh)
      return {available: false, reason: 'gh not found (ghx routes through it): apt-get install gh, or brew install gh'}
    // The arm without ghx's skill file would measure another arm: refuse rather than fall back.
    if (!(await instructionsFor(context, ghx, cwd))) {
      return {
        available: false,
        reason: `ghx's skill file (skills/github-ghx/SKILL.md) not found beside ${ghx} nor in ~/.agents/skills: run \`ghx setup\`, or set the mode option skill`,
      }
    }
    const env = {...context.github.env, PATH: [path.dirname(gh), path.dirname(process.execPath)].join(path.delimiter)}
    const host = context.github.env.GH_HOST
    try {
      await run(gh, ['auth', 'status', ...(host ? ['--hostname', host] : [])], {env, timeout: 30_000})
    } catch (error) {
      return {
        available: false,
        reason: `gh auth status failed: ${((error as {stderr?: string}).stderr ?? (error as Error).message).trim().split('\n')[0]}`,
      }
    }
    const [ghxVersion, ghVersion] = await Promise.all([versionOf(ghx, env), versionOf(gh, env)])
    return {available: true, tools: {...(ghxVersion ? {ghx: ghxVersion} : {}), ...(ghVersion ? {gh: ghVersion} : {})}}
  },
  async open(context) {
    const cwd = process.cwd()
    const ghx = await findGhx(context, cwd)
    const gh = await whichOnPath('gh')
    if (!ghx || !gh) throw new Error(GHX_INSTALL_HINT)
    const instructions = await instructionsFor(context, ghx, cwd)
    if (!instructions) throw new Error('ghx skill file not found')
    // node is on the arm's PATH because ghx is a node script (#!/usr/bin/env node).
    const bin = await isolatedBin({ghx, gh, node: process.execPath}, ['ghx', 'gh'])
    // ghx's own log names the route of every execution (meta.route_used only comes with --verbose): at
    // info level, into the run's folder, where the runner reads it once the agent is done.
    const log = {GHX_LOG_LEVEL: 'info', GHX_LOG_DIR: layerLogDir(context.workdir)}
    return shellSession(context, bin, instructions.text, {
      ...context.github.nodeEnv,
      GITHUB_GRAPHQL_URL: context.github.graphqlUrl,
      GITHUB_TOKEN: context.github.token,
      ...log,
    })
  },
}

export default definePlugin({apiVersion: 1, name: 'mode-ghx', version: '1.2.0', modes: [ghxMode]})
