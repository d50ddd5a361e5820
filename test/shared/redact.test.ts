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
