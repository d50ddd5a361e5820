import {expect} from 'chai'
import {resolveManifestPath, resolveVariables} from '../../src/seeding/bindings.js'
import type {Manifest} from '../../src/seeding/manifest.js'
import {BadInputError} from '../../src/shared/diagnostics.js'
import type {Scenario} from '../../src/schemas/scenario.js'

const manifest: Manifest = {
  version: 1,
  seed_id: 's',
  generated_at: '2026-11-22T00:00:00Z',
  repo: {owner: 'o', name: 'r', full_name: 'o/r', default_branch: 'main'},
  actors: {agent: 'a', reviewer: 'b'},
  resources: {issue: {number: 7, seeded: {}}},
}
const scenario = (bindings: Record<string, string>) =>
  ({
    type: 'workflow',
    id: 'x-001',
    name: 'x',
    prompt: 'p',
    fixture: {requires: ['issue'], bindings},
    assertions: {expected_outcome: 'success', checkpoints: []},
  }) as unknown as Scenario

describe('fixture bindings', () => {
  it('resolves dotted paths, keeping native types, with the built-in variables', () => {
    const {run_nonce: nonce, ...variables} = resolveVariables(
      scenario({issue: 'resources.issue.number', agent: 'actors.agent'}),
      manifest,
      'm.json',
      'run-1',
    )
    expect(variables).to.deep.equal({
      owner: 'o',
      repo: 'r',
      repo_full_name: 'o/r',
      run_id: 'run-1',
      seed_id: manifest.seed_id,
      issue: 7,
      agent: 'a',
    })
    // run_nonce is unique per call: names built from it never collide across iterations and retries.
    expect(nonce).to.match(/^[0-9a-f]{8}$/)
    expect(resolveVariables(scenario({}), manifest, 'm.json', 'run-1').run_nonce).to.not.equal(nonce)
  })

  it('reads own properties only', () => {
    expect(resolveManifestPath(manifest, 'resources.constructor')).to.equal(undefined)
    expect(resolveManifestPath(manifest, 'repo.toString')).to.equal(undefined)
  })

  it('names the scenario, the binding and the manifest file when a path does not resolve', () => {
    try {
      resolveVariables(scenario({pr: 'resources.pr.number'}), manifest, 'fixtures/latest.json', 'r')
      expect.fail('expected a BadInputError')
    } catch (error) {
      expect(error).to.be.instanceOf(BadInputError)
      expect((error as BadInputError).diagnostics[0]).to.include({file: 'fixtures/latest.json'})
      expect((error as BadInputError).diagnostics[0]!.message).to.match(
        /^scenario x-001: binding "pr" -> "resources.pr.number" does not resolve/,
      )
    }
  })
})
