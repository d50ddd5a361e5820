import {expect} from 'chai'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {loadQuarantine, quarantineOf} from '../../src/catalogue/quarantine.js'
import {isBadInputError} from '../../src/shared/diagnostics.js'

function file(text: string): string {
  const target = path.join(mkdtempSync(path.join(tmpdir(), 'ghx-bench-quarantine-')), 'quarantine.yml')
  writeFileSync(target, text)
  return target
}

describe('the quarantine file', () => {
  const today = new Date('2026-11-27T12:00:00Z')

  it('is empty when there is no file', async () => {
    expect(await loadQuarantine(path.join(tmpdir(), 'no-such-quarantine.yml'), tmpdir(), today)).to.deep.equal([])
  })

  it('marks entries past their last day as expired; an expired entry covers nothing', async () => {
    const entries = await loadQuarantine(
      file(
        [
          'quarantine:',
          '  - {scenario: pr-list-001, mode: mcp, reason: "pages shift under concurrent runs", expires: 2026-11-27}',
          '  - {scenario: issue-view-001, reason: "old", expires: 2026-11-26}',
          '',
        ].join('\n'),
      ),
      tmpdir(),
      today,
    )
    expect(entries.map((e) => [e.scenario, e.expired])).to.deep.equal([
      ['pr-list-001', false],
      ['issue-view-001', true],
    ])
    expect(quarantineOf(entries, {scenario_id: 'pr-list-001', mode: 'mcp', provider: 'codex'})?.reason).to.match(
      /pages/,
    )
    expect(quarantineOf(entries, {scenario_id: 'pr-list-001', mode: 'ghx', provider: null})).to.equal(undefined)
    expect(quarantineOf(entries, {scenario_id: 'issue-view-001', mode: 'mcp', provider: null})).to.equal(undefined)
  })

  it('is bad input at file:line:col when an entry lacks its expiry or has a malformed date', async () => {
    const target = file(
      ['quarantine:', '  - {scenario: pr-list-001, reason: flaky, expires: next week}', ''].join('\n'),
    )
    const error = await loadQuarantine(target, path.dirname(target), today).catch((e: unknown) => e)
    expect(isBadInputError(error)).to.equal(true)
    const diagnostics = (error as {diagnostics: Array<{line?: number; col?: number; message: string}>}).diagnostics
    expect(diagnostics[0]).to.include({line: 2})
    expect(diagnostics[0]!.message).to.match(/expires/)
  })
})
