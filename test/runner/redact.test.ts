import {expect} from 'chai'
import {createRedactor} from '../../src/runner/redact.js'

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
