// `report --format junit`: one <testcase> per scenario x mode, valid against the JUnit schema.
import {execFileSync, spawnSync} from 'node:child_process'
import {mkdtemp, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {expect} from 'chai'
import {addRow, emptyAggregate} from '../../../src/report/aggregate/aggregate.js'
import type {GateDocument} from '../../../src/report/aggregate/report-schema.js'
import {verdictOf} from '../../../src/report/gate/verdict.js'
import {renderJunit} from '../../../src/report/render/junit.js'
import {buildReport} from '../../../src/report/aggregate/summary.js'
import {makeRow} from '../../support/rows.js'

const XSD = fileURLToPath(new URL('../fixtures/junit-10.xsd', import.meta.url))

function report() {
  const aggregate = emptyAggregate()
  for (let i = 1; i <= 3; i++) {
    addRow(
      aggregate,
      makeRow({scenario_id: 'issue-view-001', mode: 'agent_direct', iteration: i, latency_ms_wall: 1000}),
    )
    addRow(
      aggregate,
      makeRow({scenario_id: 'release-list-001', mode: 'agent_direct', iteration: i, latency_ms_wall: 2000}),
    )
    addRow(
      aggregate,
      makeRow({
        scenario_id: 'issue-view-001',
        mode: 'mcp',
        iteration: i,
        latency_ms_wall: 1500,
        ...(i === 2
          ? {
              success: false,
              outcome: 'fail' as const,
              // An ANSI colour code and markup in the message: neither may break the XML.
              error: {type: 'checkpoint_failed', message: '\u001b[31mcheckpoints failed\u001b[0m: <title> & "quotes"'},
              checkpoints: [
                {
                  name: 'title_seen',
                  passed: false,
                  expected: 'field_equals',
                  actual: {title: 'a]]>b'},
                  message: 'title is "a]]>b"',
                },
              ],
              trace: 'run-1/traces/issue-view-001__mcp__i2__a1.json',
            }
          : {}),
      }),
    )
  }
  return buildReport(aggregate, {
    inputs: ['results/run-1.jsonl'],
    warnings: [],
    baseline: 'agent_direct',
    seed: 1,
    resamples: 200,
    notApplicable: [
      {scenario_id: 'release-list-001', mode: 'mcp', reason: 'the npm GitHub MCP server has no release tools'},
    ],
  })
}

function xmllintPath(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v xmllint'], {encoding: 'utf8'})
  return found.status === 0 ? found.stdout.trim() : undefined
}

/** A gate of two checks, one failed and one inconclusive (what renderJunit reads of a gate). */
const gate = {
  profile: 'verify_pr',
  baseline: 'agent_direct',
  candidate: 'mcp',
  verdict: 'fail',
  checks: [
    {
      name: 'efficiency_tokens_active_reduction',
      value: -12.5,
      operator: '>=',
      threshold: 20,
      verdict: 'fail',
      detail: 'mcp spends more',
    },
    {
      name: 'reliability_success_rate_non_inferior',
      value: -3,
      operator: '>=',
      threshold: -3,
      verdict: 'inconclusive',
      reason: 'the interval straddles the threshold',
      detail: '',
      detectable: {value: 9, text: 'at 120 pairs this run detects a success drop of 9.0 points or more (80% power)'},
    },
  ],
  // A PASS's sentence, here for the schema: the gate suite's <system-out> validates too.
  unseen_doubling: 'This PASS could not see a doubling of failures.',
} as unknown as GateDocument

describe('JUnit XML', () => {
  const xml = renderJunit(report())
  const gated = renderJunit(report(), {verdict: verdictOf({gate, gateUncomputable: null, report: null}), gate})

  it('has one testcase per scenario x mode: classname the mode, name the scenario; failure with the reason, skipped for n/a', () => {
    expect(xml).to.match(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="ghx-bench" tests="4" failures="1" errors="0" time="13.500">/,
    )
    expect(xml).to.include('<testsuite name="agent_direct" tests="2" failures="0" errors="0" skipped="0" time="9.000"')
    expect(xml).to.include('<testsuite name="mcp" tests="2" failures="1" errors="0" skipped="1" time="4.500"')
    expect(xml).to.include('<testcase name="issue-view-001" classname="agent_direct" time="3.000"/>')
    expect(xml).to.include(
      '<testcase name="release-list-001" classname="mcp" time="0.000">\n      <skipped message="not applicable: the npm GitHub MCP server has no release tools"/>',
    )
    expect(xml).to.include(
      '<testcase name="issue-view-001" classname="mcp" time="4.500">\n      <failure message="1 of 3 run(s) failed (fail 1): checkpoint_failed ×1" type="checkpoint_failed">run-1 #2: fail: checkpoint_failed: [31mcheckpoints failed[0m: &lt;title&gt; &amp; "quotes"',
    )
    expect(xml).to.include(
      '  checkpoint title_seen: expected field_equals, got {"title":"a]]&gt;b"} (title is "a]]&gt;b")\n  trace: results/run-1/traces/issue-view-001__mcp__i2__a1.json</failure>',
    )
    // eslint-disable-next-line no-control-regex
    expect(xml).not.to.match(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/)
  })

  it('gives the gate a test suite: a failed check a failure, an inconclusive one skipped, the verdict in its properties', () => {
    expect(gated).to.match(/<testsuites name="ghx-bench" tests="6" failures="2" /)
    expect(gated).to.include('<testsuite name="gate" tests="2" failures="1" errors="0" skipped="1"')
    expect(gated).to.include('<property name="verdict" value="fail"/>')
    expect(gated).to.include(
      '<testcase name="efficiency_tokens_active_reduction" classname="gate" time="0.000">\n      <failure message="efficiency_tokens_active_reduction: -12.5 against &gt;= 20: fail" type="gate">mcp spends more</failure>',
    )
    expect(gated).to.include(
      '<skipped message="reliability_success_rate_non_inferior: -3 against &gt;= -3: inconclusive (the interval straddles the threshold)"/>\n      <system-out>at 120 pairs this run detects a success drop of 9.0 points or more (80% power)</system-out>',
    )
    // A gate that cannot be computed: one skipped testcase saying why.
    const uncomputable = verdictOf({
      gate: null,
      gateUncomputable: 'the gate compares a with b, and b: not run',
      report: null,
    })
    expect(renderJunit(report(), {verdict: uncomputable, gate: null})).to.include(
      '<testcase name="gate" classname="gate" time="0.000">\n      <skipped message="the gate cannot be computed: the gate compares a with b, and b: not run"/>',
    )
  })

  it('validates against the JUnit schema (junit-10.xsd) with xmllint', async function () {
    const xmllint = xmllintPath()
    if (!xmllint) {
      console.log('    skipped: xmllint not installed (apt-get install libxml2-utils; npm test installs it as root)')
      this.skip()
    }
    const dir = await mkdtemp(path.join(tmpdir(), 'ghx-bench-junit-'))
    const file = path.join(dir, 'junit.xml')
    await writeFile(file, xml)
    // Throws, with xmllint's findings, when the file does not validate.
    const output = execFileSync(xmllint, ['--noout', '--schema', XSD, file], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    expect(output).to.equal('')
    // The schema is not a rubber stamp: a testcase without its name is refused.
    await writeFile(
      file,
      xml.replace('<testcase name="issue-view-001" classname="agent_direct"', '<testcase classname="agent_direct"'),
    )
    const refused = spawnSync(xmllint, ['--noout', '--schema', XSD, file], {encoding: 'utf8'})
    // The gate's test suite validates too.
    await writeFile(path.join(dir, 'gated.xml'), gated)
    execFileSync(xmllint, ['--noout', '--schema', XSD, path.join(dir, 'gated.xml')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    expect(refused.status).to.not.equal(0)
    expect(refused.stderr).to.include("The attribute 'name' is required but missing")
  })
})
