// @ts-check
/**
 * The plugin's own tests, written with ghx-bench's plugin kit: its condition over cases (verdicts,
 * messages, parameters its schema refuses) and its mode's session smoke-tested against a GitHub API
 * on loopback. Run them with `npm test` (node --test) in a project where ghx-bench is installed.
 */
import http from 'node:http'
import {after, before, test} from 'node:test'
import {testCondition, testMode} from 'ghx-bench/plugin-kit'
import plugin from 'ghx-bench-plugin-example'

const [mode] = plugin.modes
const [fieldStartsWith] = plugin.conditions

/** @type {http.Server} */
let server
/** @type {string} */
let apiUrl

before(async () => {
  server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json')
    res.statusCode = req.url?.endsWith('/missing') ? 404 : 200
    res.end(JSON.stringify({path: req.url, auth: req.headers.authorization}))
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)))
  apiUrl = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}/api/v3`
})
after(() => server.close())

test('field_starts_with judges the string at path, and refuses an empty prefix', () => {
  testCondition(fieldStartsWith, [
    {
      actual: {title: '[bug] crash'},
      params: {path: 'title', prefix: '[bug] '},
      passed: true,
      expected: 'starts with "[bug] "',
    },
    {
      actual: {title: 'crash'},
      params: {path: 'title', prefix: '[bug] '},
      passed: false,
      message: 'title is "crash", expected to start with "[bug] "',
    },
    {actual: {title: 7}, params: {path: 'title', prefix: '7'}, passed: false},
    {params: {path: 'title', prefix: ''}, refused: true},
    {params: {path: 'title'}, refused: true},
  ])
})

test('github-api-readonly offers one GET tool that reads the API it is given with the run token', async () => {
  const github = {apiUrl, graphqlUrl: `${apiUrl}/graphql`, token: 't0k', env: {}, nodeEnv: {}}
  const report = await testMode(
    mode,
    {options: {max_response_chars: 1000}, github, workdir: '.'},
    {
      tools: ['github_api_get'],
      calls: [
        {
          tool: 'github_api_get',
          args: {path: '/repos/o/r/issues/1'},
          output: JSON.stringify({path: '/api/v3/repos/o/r/issues/1', auth: 'token t0k'}),
        },
        {tool: 'github_api_get', args: {path: '/repos/o/r/missing'}, ok: false},
        {tool: 'github_api_get', args: {path: 'no-slash'}, ok: false, output: 'path must start with /'},
      ],
    },
  )
  if (report.env && Object.keys(report.env).length !== 0) throw new Error('the mode gives its session no environment')
})
