/**
 * Mode `ghx`: the agent gets a shell tool with the `ghx` CLI on PATH (and gh, which ghx routes
 * through), and ghx's skill file as its instructions. PATH is a folder of links to exactly these
 * and the common utilities. ghx's per-call CLI preflight is skipped (GHX_SKIP_GH_PREFLIGHT=1): the
 * runner preflights the mode once per suite, here, with `gh auth status`.
 */
import {execFile} from 'node:child_process'
import {readFile} from 'node:fs/promises'
import {homedir} from 'node:os'
import path from 'node:path'
import {promisify} from 'node:util'
import {definePlugin, type Mode, type ModeContext} from '../../src/plugins/api.js'
import {isolatedBin, shellSession, whichOnPath} from '../../src/agent/shell-tool.js'

export const GHX_INSTALL_HINT =
  'ghx not found: install the ghx CLI (npm install --save-dev @ghx-dev/core, or put ghx on PATH), or set the mode option `ghx` to its path'

const FALLBACK_INSTRUCTIONS = [
  'You are working on GitHub tasks in a terminal. Use the ghx CLI for every GitHub operation:',
  '`ghx run <capability> --input \'<json>\'` runs one capability and prints its result envelope {ok, data, error, meta};',
  '`ghx chain --steps -` runs several. `ghx capabilities list` lists the capabilities. Do not call gh directly.',
].join(' ')

/** Where ghx's skill file may be, in the order the predecessor looked (anchor-notes Part B §4.1). */
function skillCandidates(ghx: string, cwd: string): string[] {
  const home = homedir()
  const binDir = path.dirname(ghx)
  return [
    process.env.GHX_SKILL_MD,
    path.join(cwd, 'SKILL.md'),
    ...['github-ghx', 'using-ghx', 'ghx'].map((name) => path.join(home, '.agents', 'skills', name, 'SKILL.md')),
    // Inside the installed package next to the bin: node_modules/.bin/ghx -> node_modules/@ghx-dev/core/skills/using-ghx/SKILL.md
    path.join(binDir, '..', '@ghx-dev', 'core', 'skills', 'using-ghx', 'SKILL.md'),
    path.join(binDir, '..', 'skills', 'using-ghx', 'SKILL.md'),
  ].filter((p): p is string => typeof p === 'string')
}

async function findGhx(context: Pick<ModeContext, 'options'>, cwd: string): Promise<string | undefined> {
  if (typeof context.options.ghx === 'string') return path.resolve(cwd, context.options.ghx)
  return (await whichOnPath('ghx')) ?? (await whichOnPath('ghx', path.join(cwd, 'node_modules', '.bin')))
}

async function instructionsFor(context: ModeContext, ghx: string, cwd: string): Promise<string> {
  if (typeof context.options.instructions === 'string') return context.options.instructions
  const files = typeof context.options.skill === 'string' ? [path.resolve(cwd, context.options.skill)] : skillCandidates(ghx, cwd)
  for (const file of files) {
    const text = await readFile(file, 'utf8').catch(() => undefined)
    if (text) return text
  }
  return FALLBACK_INSTRUCTIONS
}

const ghxMode: Mode = {
  name: 'ghx',
  description: 'the agent with the ghx routed tool layer in a shell',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      ghx: {type: 'string', minLength: 1, description: 'path of the ghx executable (default: ghx on PATH, then node_modules/.bin/ghx)'},
      skill: {type: 'string', minLength: 1, description: 'the skill file given as instructions (default: GHX_SKILL_MD, ./SKILL.md, ~/.agents/skills/…, the installed package’s)'},
      instructions: {type: 'string', minLength: 1, description: 'replaces the skill file'},
    },
  },
  async available(context) {
    const ghx = await findGhx(context, process.cwd())
    if (!ghx || !(await whichOnPath(path.basename(ghx), path.dirname(ghx)))) return {available: false, reason: GHX_INSTALL_HINT}
    const gh = await whichOnPath('gh')
    if (!gh) return {available: false, reason: 'gh not found (ghx routes through it): apt-get install gh, or brew install gh'}
    // Once per suite, as the predecessor's methodology says; runs then skip ghx's own per-call preflight.
    const env = {...context.github.env, PATH: path.dirname(gh)}
    const host = context.github.env.GH_HOST
    try {
      await promisify(execFile)(gh, ['auth', 'status', ...(host ? ['--hostname', host] : [])], {env, timeout: 30_000})
    } catch (error) {
      return {available: false, reason: `gh auth status failed: ${((error as {stderr?: string}).stderr ?? (error as Error).message).trim().split('\n')[0]}`}
    }
    return {available: true}
  },
  async open(context) {
    const cwd = process.cwd()
    const ghx = await findGhx(context, cwd)
    const gh = await whichOnPath('gh')
    if (!ghx || !gh) throw new Error(GHX_INSTALL_HINT)
    // node is on the arm's PATH because ghx is a node script (#!/usr/bin/env node).
    const bin = await isolatedBin({ghx, gh, node: process.execPath})
    return shellSession(context, bin, await instructionsFor(context, ghx, cwd), {GHX_SKIP_GH_PREFLIGHT: '1', GITHUB_TOKEN: context.github.token})
  },
}

export default definePlugin({apiVersion: 1, name: 'mode-ghx', version: '1.0.0', modes: [ghxMode]})
