// Gate profiles by name: the project's own first, then the built-in ones. A project profile that does
// not parse or validate is bad input at its file:line:col, never replaced by the built-in of its name
// (issue 27, item 1: a duplicate key made `gate` pass on the built-in's laxer thresholds).
import {readFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {BUILT_IN_PROFILES_DIR, loadProfile} from '../../src/catalogue/profiles.js'
import {BadInputError} from '../../src/shared/diagnostics.js'
import {makeProject} from '../support/cli.js'

const builtIn = (name: string) => readFile(path.join(BUILT_IN_PROFILES_DIR, `${name}.yml`), 'utf8')

async function refusal(dir: string, name = 'verify_pr'): Promise<BadInputError> {
  const error = await loadProfile(name, path.join(dir, 'suites'), dir).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error, 'loadProfile should refuse the project').to.be.instanceOf(BadInputError)
  return error as BadInputError
}

describe('profiles', () => {
  it('takes the project’s profile over the built-in of the same name, and the built-in when the project has none', async () => {
    const stricter = (await builtIn('verify_pr')).replace('min_samples: 3\nthresholds:', 'min_samples: 7\nthresholds:')
    const dir = await makeProject({'suites/profiles/verify_pr.yml': stricter})
    expect((await loadProfile('verify_pr', path.join(dir, 'suites'), dir)).min_samples).to.equal(7)
    expect((await loadProfile('verify_release', path.join(dir, 'suites'), dir)).name).to.equal('verify_release')
  })

  it('refuses a project profile with a duplicate key at its file:line:col, never falling back to the built-in', async () => {
    const dir = await makeProject({'suites/profiles/verify_pr.yml': (await builtIn('verify_pr')) + 'min_samples: 3\n'})
    const [diagnostic, ...rest] = (await refusal(dir)).diagnostics
    expect(rest).to.deep.equal([])
    expect(diagnostic).to.include({file: path.join('suites', 'profiles', 'verify_pr.yml'), code: 'yaml_syntax'})
    expect(diagnostic!.line).to.equal((await builtIn('verify_pr')).split('\n').length)
    expect(diagnostic!.col).to.equal(1)
    expect(diagnostic!.message).to.match(/unique/i)
  })

  it('refuses a project profile with an unclosed [ or a tab, whatever profile is asked for', async () => {
    const bracket = await makeProject({'suites/profiles/verify_pr.yml': 'name: verify_pr\nmin_samples: [3\n'})
    expect((await refusal(bracket, 'verify_release')).diagnostics[0]).to.include({
      file: path.join('suites', 'profiles', 'verify_pr.yml'),
      code: 'yaml_syntax',
    })
    const tab = await makeProject({'suites/profiles/mine.yml': 'name: mine\nthresholds:\n\tmax_retry_rate_pct: 5\n'})
    const [diagnostic] = (await refusal(tab)).diagnostics
    expect(diagnostic).to.include({file: path.join('suites', 'profiles', 'mine.yml'), line: 3, code: 'yaml_syntax'})
  })

  it('refuses a project profile that breaks the schema, and two project profiles of one name', async () => {
    const invalid = await makeProject({
      'suites/profiles/other.yml': (await builtIn('verify_pr'))
        .replace('name: verify_pr', 'name: other')
        .replace('max_retry_rate_pct: 10', 'max_retry_rate_pct: lots'),
    })
    expect((await refusal(invalid)).diagnostics[0]).to.include({
      file: path.join('suites', 'profiles', 'other.yml'),
      code: 'schema',
    })
    const twice = await makeProject({
      'suites/profiles/verify_pr.yaml': await builtIn('verify_pr'),
      'suites/profiles/verify_pr.yml': await builtIn('verify_pr'),
    })
    const [diagnostic] = (await refusal(twice)).diagnostics
    expect(diagnostic).to.include({file: path.join('suites', 'profiles', 'verify_pr.yml'), code: 'duplicate_id'})
    expect(diagnostic!.message).to.match(
      /duplicate profile name "verify_pr" \(first defined at suites\/profiles\/verify_pr\.yaml:\d+:\d+\)/,
    )
    // A profile is found by its name, which is its file's: one named otherwise is refused, not found by either.
    const misnamed = await makeProject({'suites/profiles/strict.yml': await builtIn('verify_pr')})
    const [renamed] = (await refusal(misnamed)).diagnostics
    expect(renamed).to.include({file: path.join('suites', 'profiles', 'strict.yml'), line: 2, code: 'schema'})
    expect(renamed!.message).to.equal('profile name "verify_pr" does not match its file name "strict"')
  })
})
