/**
 * Provider `agent-loop`: the built-in agent loop over any OpenAI-compatible chat-completions API
 * with tool calling, streamed or not. The session's tools are offered to the model as functions and
 * run through the mode session; usage is summed over every turn.
 */
import {definePlugin, type Provider} from 'ghx-bench'
import {DEFAULT_MAX_TURNS, runAgentLoop} from 'ghx-bench/plugin-kit'

const agentLoop: Provider = {
  name: 'agent-loop',
  description: 'the built-in agent loop over an OpenAI-compatible chat-completions endpoint',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      stream: {type: 'boolean', description: 'stream the answers (SSE); default false'},
      max_turns: {
        type: 'integer',
        minimum: 1,
        description: `turn limit when the suite sets none (default ${DEFAULT_MAX_TURNS})`,
      },
    },
  },
  run(input) {
    const stream = input.options.stream === true
    const maxTurns = typeof input.options.max_turns === 'number' ? input.options.max_turns : DEFAULT_MAX_TURNS
    return runAgentLoop(input, {stream, maxTurns})
  },
}

export default definePlugin({apiVersion: 1, name: 'provider-agent-loop', version: '1.0.0', providers: [agentLoop]})
