// Defect 5: secrets reach no row, trace, report or log. Each kind is planted (a GitHub token, an OpenAI
// key, an App private key, a custom endpoint's key, a password in endpoint.base_url, an MCP server's
// token_env bearer echoed in its error body), the agent's shell reads every ancestor's
// /proc/<pid>/environ and prints the tokens in the encodings that slip past a plain search (base64 of
// base64, every byte percent-encoded, wrapped base64, a token split over two lines), and every output
// file and the CLI's output are searched for each secret and each encoding.
import {execFileSync, spawnSync} from 'node:child_process'
import {generateKeyPairSync, randomBytes} from 'node:crypto'
import {readdirSync, readFileSync, statSync} from 'node:fs'
import http from 'node:http'
import type {AddressInfo} from 'node:net'
import path from 'node:path'
import {expect} from 'chai'
import {startScriptedModels} from '../../src/agent/scripted-models.js'
import {pidNamespacePrefix} from '../../src/shared/process/pid-namespace.js'
import {PROJECT_ROOT} from '../support/cli.js'
import {project, rowsOf, runCli, shellCommandScenario} from '../support/reliability.js'

/**
 * A token as the agent's shell may print it without a plain search finding it: label -> text. Each is
 * printed on a line of its own after `label=`.
 */
function encodingsOf(token: string): Record<string, string> {
  const base64 = (text: string) => Buffer.from(text).toString('base64')
  const wrap = (text: string, width: number, newline: string) =>
    text.replace(new RegExp(`.{1,${width}}`, 'g'), (line) => line + newline).slice(0, -newline.length)
  const percent = (upper: boolean) =>
    [...Buffer.from(token)]
      .map((byte, i) => `%${byte.toString(16)[upper || i % 2 ? 'toUpperCase' : 'toLowerCase']()}`)
      .join('')
  const half = Math.floor(token.length / 2)
  return {
    base64_twice: base64(base64(token)),
    percent_upper: percent(true),
    percent_mixed: percent(false),
    base64_wrapped_lf: wrap(base64(`config: ${token}\n`), 76, '\n'),
    base64_wrapped_crlf: wrap(base64(`${token}\n`), 64, '\r\n'),
    split_lines: `${token.slice(0, half)}\n${token.slice(half)}`,
    split_escaped: `{"token": "${token.slice(0, half)}\\n${token.slice(half)}"}`,
  }
}

/** A shell command that prints each encoding after its label (single-quoted: newlines and backslashes stay as they are). */
function printing(encodings: Record<string, string>): string {
  return Object.entries(encodings)
    .map(([label, text]) => `printf '%s\\n' '${label}=${text}'`)
    .join('; ')
}

function filesUnder(dir: string): string[] {
  return (readdirSync(dir, {recursive: true}) as string[])
    .map((f) => path.join(dir, f))
    .filter((f) => statSync(f).isFile())
}

describe('reliability: secrets', function () {
  this.timeout(60_000)

  it('captured at start-up: gone from process.env and from the process’s own /proc/<pid>/environ, still readable by the harness', () => {
    const value = `tok-${randomBytes(12).toString('hex')}`
    const script = [
      `import {harnessEnv, hideSecrets, knownSecrets} from ${JSON.stringify(path.join(PROJECT_ROOT, 'src/shared/process/secret-env.ts'))}`,
      `import {readFileSync} from 'node:fs'`,
      'hideSecrets()',
      `console.log(JSON.stringify({environ: readFileSync('/proc/self/environ', 'latin1').includes(${JSON.stringify(value)}), env: process.env.MY_SERVICE_TOKEN ?? null, harness: harnessEnv().MY_SERVICE_TOKEN, known: knownSecrets().includes(${JSON.stringify(value)}), kept: process.env.KEEP_ME}))`,
    ].join('\n')
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: {...process.env, MY_SERVICE_TOKEN: value, KEEP_ME: 'plain'},
    })
    expect(JSON.parse(result.stdout.toString())).to.deep.equal({
      environ: false,
      env: null,
      harness: value,
      known: true,
      kept: 'plain',
    })
  })

  it('a run planted with every kind of secret writes none of them anywhere', async () => {
    const ghToken = `ghp_${randomBytes(18).toString('hex')}`
    // Long enough for its base64 to be wrapped (76 characters a line).
    const openAiKey = `sk-proj-${randomBytes(72).toString('base64url')}`
    const encoded = {gh: encodingsOf(ghToken), openai: encodingsOf(openAiKey)}
    const appKey = generateKeyPairSync('rsa', {modulusLength: 1024})
      .privateKey.export({type: 'pkcs8', format: 'pem'})
      .toString()
    const acmeKey = `acme-${randomBytes(16).toString('hex')}`
    const bearer = `mcpbearer${randomBytes(12).toString('hex')}`
    const password = `pw${randomBytes(10).toString('hex')}`
    // An MCP server that echoes the token it was sent in its error body (no "Bearer " to give it away).
    const echo = http.createServer((req, res) => {
      res.writeHead(500, {'content-type': 'text/plain'})
      res.end(`token received: ${(req.headers.authorization ?? '').replace(/^Bearer /, '')}`)
    })
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve))
    const models = await startScriptedModels()
    try {
      // The agent's shell walks up its ancestors and prints each one's environment, then its own.
      // Then it prints each token in each encoding (the command, in the trace, holds them too).
      const probe =
        "p=$$; while [ \"$p\" -gt 1 ]; do echo \"== pid $p\"; tr '\\0' '\\n' < /proc/$p/environ; p=$(awk '{print $4}' /proc/$p/stat); done; env; " +
        `${printing(encoded.gh)}; ${printing(encoded.openai)}`
      const {baseUrl} = models.register({
        model: 'oracle',
        steps: [{tool: 'shell', args: {command: probe}}],
        final: {kind: 'envelope'},
      })
      const withPassword = baseUrl.replace('http://', `http://bench:${password}@`)
      const mcpUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/mcp`
      const dir = await project(
        {
          'catalogue/scenarios/repo-probe-001.yml': shellCommandScenario('repo-probe-001', 'Probe', 20_000, 'true'),
          'catalogue/probe.yml': [
            'name: probe',
            'scenarios: {ids: [repo-probe-001]}',
            `modes: [agent_direct, {name: mcp, options: {server: {url: "${mcpUrl}", token_env: MCP_BEARER}}}]`,
            'repetitions: 1',
            'infra_retries: 0',
            'gate: {profile: verify_pr, baseline: agent_direct, candidate: mcp}',
            '',
          ].join('\n'),
        },
        `endpoint: {base_url: "${withPassword}", api_key_env: ACME_KEY}`,
      )
      const env = {
        CI: '1',
        GH_TOKEN: ghToken,
        OPENAI_API_KEY: openAiKey,
        GHX_BENCH_APP_PRIVATE_KEY: appKey,
        GHX_BENCH_APP_ID: '1234',
        ACME_KEY: acmeKey,
        MCP_BEARER: bearer,
      }
      const outputs: string[] = []
      const run = await runCli(['run', 'catalogue/probe.yml', '--model', 'acme/agent-7', '--run-id', 'probe'], {
        cwd: dir,
        env,
      })
      outputs.push(run.stdout, run.stderr)
      expect(run.code, run.stderr).to.be.oneOf([0, 1, 3])
      for (const args of [
        ['report', '--run-id', 'probe', '--format', 'md,json,html,junit'],
        ['gate', '--run-id', 'probe', '--candidate', 'mcp', '--allow-mixed'],
      ]) {
        const result = await runCli(args, {cwd: dir, env})
        outputs.push(result.stdout, result.stderr)
      }
      const rows = rowsOf(dir, 'probe')
      const direct = rows.find((r) => r.mode === 'agent_direct')!
      const mcp = rows.find((r) => r.mode === 'mcp')!
      const trace = readFileSync(path.join(dir, 'results', direct.trace!), 'utf8')
      expect(trace).to.include('== pid')
      if (pidNamespacePrefix()) {
        // In its PID namespace the probe sees no ancestor beyond its subreaper: the harness's environment is out of reach.
        expect(trace).to.not.match(/GHX_BENCH_APP_PRIVATE_KEY=|ACME_KEY=|MCP_BEARER=/)
      } else {
        // The probe read the harness's own environment: the secrets are there as asterisks only.
        expect(trace).to.match(/GH_TOKEN=\*{20,}/)
        expect(trace).to.match(/ACME_KEY=\*{20,}/)
        expect(trace).to.match(/MCP_BEARER=\*{20,}/)
        expect(trace).to.match(/GHX_BENCH_APP_PRIVATE_KEY=\*{100,}/)
      }
      // Every encoding reached the trace (the command that printed it, and its output), each time redacted:
      // after its label comes [REDACTED] (after the edge characters of base64, or the JSON around a split token).
      for (const label of Object.keys(encoded.gh)) {
        const printed = trace.split(`${label}=`).length - 1
        expect(printed, label).to.be.at.least(4)
        expect(trace.match(new RegExp(`${label}=[^=]{0,24}?\\[REDACTED\\]`, 'g')), label).to.have.length(printed)
      }
      // The MCP server echoed its bearer token: redacted in the row's error.
      expect(mcp.outcome).to.equal('infra_error')
      expect(mcp.error!.message).to.include('token received: [REDACTED]')
      // Each encoding as it is, and as a JSON file writes it (its newlines and backslashes escaped).
      const encodings = [...Object.values(encoded.gh), ...Object.values(encoded.openai)].flatMap((text) => [
        text,
        JSON.stringify(text).slice(1, -1),
      ])
      const secrets = [
        ghToken,
        openAiKey,
        ...encodings,
        acmeKey,
        bearer,
        password,
        ...appKey.split('\n').filter((l) => l.length >= 16 && !l.startsWith('-----')),
      ]
      // Everything ghx-bench wrote (the config and the catalogue are the inputs).
      const files = ['results', 'reports', 'fixtures', '.ghx-bench'].flatMap((folder) =>
        filesUnder(path.join(dir, folder)),
      )
      expect(files.filter((f) => f.includes(`${path.sep}results${path.sep}`)).length).to.be.at.least(3)
      expect(files.filter((f) => f.includes(`${path.sep}reports${path.sep}`)).length).to.be.at.least(4)
      const texts = [...files.map((f) => readFileSync(f, 'latin1')), ...outputs]
      for (const secret of secrets) {
        for (const [index, text] of texts.entries())
          expect(text.includes(secret), `${secret.slice(0, 12)}… in ${files[index] ?? 'the CLI output'}`).to.equal(
            false,
          )
      }
      // No process of the run is left holding the secrets either.
      expect(execFileSync('ps', ['-eo', 'args']).toString()).to.not.include(bearer)
    } finally {
      await models.close()
      await new Promise((resolve) => echo.close(resolve))
    }
  })
})
