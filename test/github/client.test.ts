// The client's second identity from a GitHub App: a JWT from the App's private key, its installation
// found through the repository, installation tokens minted and used — against the sandbox's App.
import {generateKeyPairSync} from 'node:crypto'
import {expect} from 'chai'
import {appCredentials, createClient, resolveToken} from '../../src/github/client.js'
import {BadInputError} from '../../src/shared/diagnostics.js'
import {startSandbox} from '../../src/emulator/index.js'
import {OWNER, REPO} from '../support/sandbox.js'

describe('GitHub client', () => {
  it('acts as a GitHub App installation (the second identity fixtures need)', async () => {
    const {publicKey, privateKey} = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: {type: 'spki', format: 'pem'},
      privateKeyEncoding: {type: 'pkcs8', format: 'pem'},
    })
    const sandbox = await startSandbox({app: {id: 4242, publicKey}})
    try {
      const env = {GHX_BENCH_APP_ID: '4242', GHX_BENCH_APP_PRIVATE_KEY: privateKey.replaceAll('\n', '\\n')}
      const app = await appCredentials(env, {owner: OWNER, repo: REPO}, sandbox.url)
      expect(app).to.include({appId: '4242', installationId: 42420})
      const {octokit, usage} = createClient({baseUrl: sandbox.url, app: app!, retries: 0})
      const issue = await octokit.rest.issues.create({owner: OWNER, repo: REPO, title: 'Opened by the App'})
      expect(issue.data.user!.login).to.equal('ghx-bench-reviewer')
      // Minting the installation token is an API call too.
      expect(usage.calls).to.equal(2)
      const wrong = generateKeyPairSync('rsa', {
        modulusLength: 2048,
        privateKeyEncoding: {type: 'pkcs8', format: 'pem'},
        publicKeyEncoding: {type: 'spki', format: 'pem'},
      })
      const refused = await appCredentials(
        {GHX_BENCH_APP_ID: '4242', GHX_BENCH_APP_PRIVATE_KEY: wrong.privateKey},
        {owner: OWNER, repo: REPO},
        sandbox.url,
      ).catch((e: {status: number}) => e)
      expect(refused).to.have.property('status', 401)
    } finally {
      await sandbox.close()
    }
  })

  it('has no App without credentials, and refuses half of them', async () => {
    expect(await appCredentials({}, {owner: OWNER, repo: REPO})).to.equal(undefined)
    const error = await appCredentials({GHX_BENCH_APP_ID: '1'}, {owner: OWNER, repo: REPO}).catch((e: unknown) => e)
    expect(error).to.be.instanceOf(BadInputError)
  })

  it('takes the token from GH_TOKEN, then GITHUB_TOKEN', async () => {
    expect(await resolveToken({GH_TOKEN: 'a', GITHUB_TOKEN: 'b'})).to.equal('a')
    expect(await resolveToken({GITHUB_TOKEN: 'b'})).to.equal('b')
  })
})
