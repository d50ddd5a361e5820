// The codex provider end to end: `ghx-bench run` on the sandbox with the scripted models, the real
// Codex CLI (pinned, scripts/ensure-codex.sh) driving both arms. The ghx arm needs ghx on PATH, which
// this machine may not have: agent_direct carries the shell path it shares.
import {CODEX} from '../../plugins/provider-codex/index.js'
import {providerPipelineSuite} from './agent-cli.js'

describe('provider codex (CLI, sandbox + scripted models)', function () {
  this.timeout(240_000)
  providerPipelineSuite(CODEX, 'codex')
})
