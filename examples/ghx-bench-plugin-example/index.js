// @ts-check
/**
 * An example third-party ghx-bench plugin, as a package on npm would ship it.
 * - mode `github-api-readonly`: the agent gets one tool, `github_api_get`, that GETs a path of the
 *   GitHub REST API with the run's token; nothing else (no shell, no writes).
 * - condition `field_starts_with`: the string at `path` starts with `prefix`.
 */
import {definePlugin} from 'ghx-bench'

/** @param {unknown} value @param {string | undefined} path */
function resolvePath(value, path) {
  if (!path) return value
  let current = value
  for (const segment of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined
    current = /** @type {Record<string, unknown>} */ (current)[segment]
  }
  return current
}

/** @type {import('ghx-bench').Mode} */
const githubApiReadonly = {
  name: 'github-api-readonly',
  description: 'One read-only tool: GET a GitHub REST API path',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {max_response_chars: {type: 'integer', minimum: 100, description: 'longer responses are cut'}},
  },
  async available(context) {
    return context.github.token
      ? {available: true}
      : {available: false, reason: 'no GitHub token: set GH_TOKEN or GITHUB_TOKEN'}
  },
  async open(context) {
    const limit = Number(context.options.max_response_chars ?? 20_000)
    return {
      instructions: 'Use the github_api_get tool to read from the GitHub REST API. You cannot write.',
      tools: [
        {
          name: 'github_api_get',
          description: 'GET a GitHub REST API path such as /repos/OWNER/REPO/issues/1 and return the JSON body',
          inputSchema: {type: 'object', required: ['path'], properties: {path: {type: 'string', pattern: '^/'}}},
        },
      ],
      env: {},
      async call(tool, args, signal) {
        if (tool !== 'github_api_get') return {ok: false, output: `unknown tool ${tool}`}
        const path = String(args.path ?? '')
        if (!path.startsWith('/')) return {ok: false, output: 'path must start with /'}
        const response = await fetch(new URL(path.slice(1), context.github.apiUrl.replace(/\/?$/, '/')), {
          headers: {authorization: `token ${context.github.token}`, accept: 'application/vnd.github+json'},
          signal,
        })
        const body = await response.text()
        return {ok: response.ok, output: body.length > limit ? body.slice(0, limit) + '…' : body}
      },
      async close() {},
    }
  },
}

/** @type {import('ghx-bench').Condition<{path?: string, prefix: string}>} */
const fieldStartsWith = {
  name: 'field_starts_with',
  description: 'the string at path starts with prefix',
  paramsSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['prefix'],
    properties: {path: {type: 'string'}, prefix: {type: 'string', minLength: 1}},
  },
  evaluate(actual, {path, prefix}) {
    const value = resolvePath(actual, path)
    const passed = typeof value === 'string' && value.startsWith(prefix)
    return {
      passed,
      expected: `starts with ${JSON.stringify(prefix)}`,
      actual: value,
      message: `${path ?? 'result'} is ${JSON.stringify(value)}, expected to start with ${JSON.stringify(prefix)}`,
    }
  },
}

export default definePlugin({
  apiVersion: 1,
  name: 'ghx-bench-plugin-example',
  version: '1.0.0',
  modes: [githubApiReadonly],
  conditions: [fieldStartsWith],
})
