// The claude-code provider end to end: `ghx-bench run` on the sandbox with the scripted models, the
// real Claude Code CLI (pinned, scripts/ensure-claude-code.sh) driving both arms. The ghx arm needs
// ghx on PATH, which this machine may not have: agent_direct carries the shell path it shares.
import {CLAUDE_CODE} from '../../plugins/provider-claude-code/index.js'
import {providerPipelineSuite} from './agent-cli.js'

describe('provider claude-code (CLI, sandbox + scripted models)', function () {
  this.timeout(240_000)
  providerPipelineSuite(CLAUDE_CODE, 'claude-code')
})
