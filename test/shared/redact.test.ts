import {randomBytes} from 'node:crypto'
import {expect} from 'chai'
import {createRedactor, optionSecrets} from '../../src/shared/redact.js'
import {base64Forms} from '../../src/shared/process/secret-env.js'

describe('the redactor', () => {
  it('removes the run’s own secrets and common token shapes from every string, deep', () => {
    const redact = createRedactor(['my-sandbox-token-123', undefined, 'short'])
    const value = {
      env: {GH_TOKEN: 'my-sandbox-token-123'},
      log: ['curl -H "Authorization: Bearer abc.def" x', `token ghp_${'a'.repeat(36)} and sk-${'b'.repeat(40)}`],
      n: 3,
      kept: 'short is too short to be a secret we know',
    }
    expect(redact(value)).to.deep.equal({
      env: {GH_TOKEN: '[REDACTED]'},
      log: ['curl -H "Authorization: Bearer [REDACTED]" x', 'token [REDACTED] and [REDACTED]'],
      n: 3,
      kept: 'short is too short to be a secret we know',
    })
  })
})

describe('secrets in plugin options', () => {
  it('finds them under any name: secret names in any case style, env and headers values, flagged and assigned arguments, URLs, token-shaped items', () => {
    const {values, variables} = optionSecrets({
      authToken: 'short-one',
      'api-key': 'k-1',
      gh: '/usr/bin/gh',
      instructions: 'Use the tools. Version 2025.4.8 of 1234567 things.',
      server: {
        command: 'npx',
        args: [
          '-y',
          '@modelcontextprotocol/server-github',
          '--access-token',
          'after-flag',
          'SECRET_KEY=assigned',
          'a1b2c3d4e5f6a7b8c9d0',
        ],
        env: {GITHUB_TOOLSETS: 'repos,issues'},
        token_env: 'MCP_TOKEN',
      },
      url: 'https://bench:url-password@example.test/mcp?access_token=in-query&page=2',
    })
    expect(values).to.have.members([
      'short-one',
      'k-1',
      'after-flag',
      'assigned',
      'a1b2c3d4e5f6a7b8c9d0',
      'repos,issues',
      'in-query',
    ])
    expect(variables).to.deep.equal(['MCP_TOKEN'])
  })

  it('redacts a known secret in base64 wherever it starts in the encoded bytes, and percent-encoded', () => {
    const secret = 'bench:pw0123456789abcdef'
    const redact = createRedactor([secret])
    for (const prefix of ['', 'x', 'Bearer ', 'x-access-token:']) {
      const encoded = Buffer.from(prefix + secret + '\n').toString('base64')
      expect(redact(encoded), prefix).to.include('[REDACTED]')
      expect(redact(encoded).length, prefix).to.be.below(encoded.length)
      expect(redact(Buffer.from(prefix + secret).toString('base64url')), prefix).to.include('[REDACTED]')
    }
    expect(redact(`u=${encodeURIComponent(secret)}`)).to.equal('u=[REDACTED]')
    // Only the characters that encode the secret's own bytes go: those that encode the bytes around it stay.
    const around = Buffer.from(`plain text ${secret} more plain text`).toString('base64')
    const [before, after] = redact(around).split('[REDACTED]')
    expect(
      around.startsWith(before!) && before!.length >= 12 && around.endsWith(after!) && after!.length >= 20,
      redact(around),
    ).to.equal(true)
    expect(base64Forms('short')).to.deep.equal([])
  })
})

describe('the redactor: a known token in the encodings it may travel in', () => {
  // A GitHub token, and an OpenAI key long enough for `base64` to wrap its base64 (76 characters a line).
  const ghToken = `ghp_${randomBytes(18).toString('hex')}`
  const openAiKey = `sk-proj-${randomBytes(96).toString('base64url')}`
  const redact = createRedactor([ghToken, openAiKey])
  const base64 = (text: string) => Buffer.from(text).toString('base64')
  /** What `base64` (76) and `openssl base64` (64) print: lines of `width` characters, each ending with a newline. */
  const wrapped = (text: string, width: number, newline = '\n') =>
    base64(text).replace(new RegExp(`.{1,${width}}`, 'g'), (line) => line + newline)
  const percentEncoded = (text: string, hex: (byte: number, index: number) => string) =>
    [...Buffer.from(text)].map((byte, index) => `%${hex(byte, index).padStart(2, '0')}`).join('')

  /** Redacted, and nothing left of `encoded` but the edge characters that also encode what is around the token. */
  function expectRedacted(encoded: string, around = 0): void {
    const out = redact(encoded)
    expect(out, encoded).to.include('[REDACTED]')
    expect(out.replaceAll('[REDACTED]', '').length, `${encoded}\n-> ${out}`).to.be.at.most(around + 12)
  }

  it('base64 of base64, wherever the token starts, as `base64 | base64` and `openssl base64` print it', () => {
    for (const token of [ghToken, openAiKey]) {
      for (const prefix of ['', 'x', 'u:', 'Authorization: Basic '])
        expectRedacted(base64(base64(prefix + token)), Math.ceil(((base64(prefix).length + 2) * 4) / 3))
      // echo "$TOKEN" | base64 | base64: each line wrapped, the inner one too when the token is long.
      expectRedacted(wrapped(wrapped(`${token}\n`, 76), 76))
      expectRedacted(wrapped(wrapped(`${token}\n`, 64), 64))
      // A docker config's auth (base64 of user:token) in a base64 Kubernetes secret.
      const config = base64(JSON.stringify({auths: {'ghcr.io': {auth: base64(`bench:${token}`)}}}))
      expect(redact(config)).to.include('[REDACTED]')
    }
  })

  it('every byte percent-encoded, in upper-case, lower-case and mixed-case hex, alone or in a URL', () => {
    for (const token of [ghToken, openAiKey]) {
      const upper = percentEncoded(token, (byte) => byte.toString(16).toUpperCase())
      const lower = percentEncoded(token, (byte) => byte.toString(16))
      const mixed = percentEncoded(token, (byte, i) => (i % 2 ? byte.toString(16).toUpperCase() : byte.toString(16)))
      expect(upper).to.not.equal(lower)
      for (const encoded of [upper, lower, mixed]) {
        expect(redact(encoded)).to.equal('[REDACTED]')
        expect(redact(`https://example.test/cb?token=${encoded}&page=2`)).to.equal(
          'https://example.test/cb?token=[REDACTED]&page=2',
        )
      }
    }
    // A password beyond ASCII: its UTF-8 bytes, each encoded.
    const password = `pässwörd-${randomBytes(6).toString('hex')}`
    expect(createRedactor([password])(percentEncoded(password, (byte) => byte.toString(16)))).to.equal('[REDACTED]')
  })

  it('base64 wrapped into lines (76 and 64 characters, \\n and \\r\\n, real or escaped in JSON), wherever the token starts', () => {
    for (const token of [ghToken, openAiKey])
      for (const prefix of ['', 'GH_TOKEN=', '# a config file with a token in it\n'])
        for (const [width, newline] of [
          [76, '\n'],
          [64, '\n'],
          [76, '\r\n'],
          [64, '\r\n'],
        ] as const) {
          const encoded = wrapped(`${prefix}${token}\nmore of the file\n`, width, newline)
          const out = redact(encoded)
          expect(out, encoded).to.include('[REDACTED]')
          // What stays before it encodes the text before the token (all of it but the bytes that share the token's characters).
          const before = Buffer.from(out.split('[REDACTED]')[0]!, 'base64').toString()
          expect(prefix.startsWith(before) && before.length >= prefix.length - 2, before).to.equal(true)
          expect(JSON.parse(redact(JSON.stringify({content: encoded}))).content).to.equal(out)
        }
  })

  it('the token split over two lines: a newline (\\n, \\r\\n) or an escaped "\\n" in a JSON string (or in JSON in one) between its halves', () => {
    for (const token of [ghToken, openAiKey])
      for (const at of [4, Math.floor(token.length / 2), token.length - 8]) {
        const [first, second] = [token.slice(0, at), token.slice(at)]
        expect(redact(`${first}\n${second}`)).to.equal('[REDACTED]')
        expect(redact(`token: ${first}\r\n${second} (expires soon)`)).to.equal('token: [REDACTED] (expires soon)')
        expect(redact(JSON.stringify({log: `${first}\n${second}`}))).to.equal('{"log":"[REDACTED]"}')
        // JSON in a JSON string (a tool call's arguments in a trace): the escape escaped again.
        expect(redact(JSON.stringify({arguments: JSON.stringify({log: `${first}\r\n${second}`})}))).to.equal(
          JSON.stringify({arguments: JSON.stringify({log: '[REDACTED]'})}),
        )
      }
  })

  it('leaves text without a secret as it is, line breaks, escapes and percent runs included', () => {
    const text = `line one\nline two\\nthree %41%42%43%44%45%46%47%48%49 and\r\nfour ${base64('plain words, no secret')}\n`
    expect(redact(text)).to.equal(text)
  })
})
