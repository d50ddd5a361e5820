/**
 * Mode `agent_direct`, the baseline arm: the agent gets one shell tool with the GitHub CLI (`gh`) on
 * PATH and the token in its environment, short neutral instructions, and a working folder of its
 * own. PATH is a folder of links to gh and the common utilities only, so nothing of another arm
 * (ghx, an MCP server's binary) can be reached from it.
 */
import path from 'node:path'
import {definePlugin, type Mode, type ModeContext} from 'ghx-bench'
import {isolatedBin, shellSession, whichOnPath} from 'ghx-bench/plugin-kit'

export const GH_INSTALL_HINT =
  'gh not found: install the GitHub CLI (Debian/Ubuntu: apt-get install gh; macOS: brew install gh; https://cli.github.com), or set the mode option `gh` to its path'

const INSTRUCTIONS = [
  'You are working on GitHub tasks in a terminal. Use the GitHub CLI (`gh`) through the shell tool for every GitHub operation;',
  'it is installed and already authenticated. `gh api` reaches any REST or GraphQL endpoint. Work in the current folder.',
].join(' ')

async function findGh(context: ModeContext): Promise<string | undefined> {
  const configured = context.options.gh
  if (typeof configured === 'string') return configured
  return whichOnPath('gh')
}

const agentDirect: Mode = {
  name: 'agent_direct',
  description: 'the agent with the raw gh CLI in a shell (the baseline)',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      gh: {type: 'string', minLength: 1, description: 'path of the gh executable (default: gh on PATH)'},
      instructions: {type: 'string', minLength: 1, description: 'replaces the built-in instructions'},
    },
  },
  async available(context) {
    const gh = await findGh(context)
    if (!gh || !(await whichOnPath(path.basename(gh), path.dirname(gh))))
      return {available: false, reason: GH_INSTALL_HINT}
    return {available: true}
  },
  async open(context) {
    const gh = await findGh(context)
    if (!gh) throw new Error(GH_INSTALL_HINT)
    const instructions = typeof context.options.instructions === 'string' ? context.options.instructions : INSTRUCTIONS
    return shellSession(context, await isolatedBin({gh}, ['gh']), instructions)
  },
}

export default definePlugin({apiVersion: 1, name: 'mode-agent-direct', version: '1.0.0', modes: [agentDirect]})
