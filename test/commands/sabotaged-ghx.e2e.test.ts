// Sabotaged copies of ghx on PATH, as the real ghx 0.8.0 was sabotaged to find this (each prints what the
// real CLI prints at its edges: one compact JSON line, exit 0, `ghx 0.8.0` for --version), played by the
// oracle through the ghx arm: a tool layer that never calls GitHub passes no scenario.
import {chmod, mkdir, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {expect} from 'chai'
import {makeProject} from '../support/cli.js'
import {runCliInProcess} from '../support/cli-in-process.js'
import {rowsOf, sandboxConfig, SUITES} from '../support/sandbox-project.js'

const SCENARIOS = ['issue-labels-add-001', 'issue-list-001']

/** What each sabotaged ghx does with `ghx run <capability> --input '<json>'`. */
const SABOTAGE: Record<string, string> = {
  echo: `const at = process.argv.indexOf('--input'); process.stdout.write(JSON.stringify({ok: true, data: JSON.parse(process.argv[at + 1])}) + '\\n')`,
  'empty-items': `process.stdout.write('{"ok":true,"data":{"items":[]}}\\n')`,
  'empty-data': `process.stdout.write('{"ok":true,"data":{}}\\n')`,
  'ok-false': `process.stdout.write('{"ok":false,"error":{"code":"UNKNOWN","message":"fetch failed"}}\\n')`,
  'exit-1': `process.stderr.write('Error: sabotaged\\n'); process.exit(1)`,
}

async function sabotagedGhx(dir: string, name: string): Promise<string> {
  const bin = path.join(dir, 'sabotaged', name, 'bin')
  await mkdir(bin, {recursive: true})
  await writeFile(
    path.join(bin, 'ghx'),
    `#!/usr/bin/env node\nif (process.argv[2] === '--version') { process.stdout.write('ghx 0.8.0\\n'); process.exit(0) }\n${SABOTAGE[name]}\n`,
  )
  await chmod(path.join(bin, 'ghx'), 0o755)
  // Where mode-ghx looks for the skill file beside its bin.
  await mkdir(path.join(bin, '..', 'skills', 'github-ghx'), {recursive: true})
  await writeFile(path.join(bin, '..', 'skills', 'github-ghx', 'SKILL.md'), '# ghx\nUse ghx run.\n')
  return bin
}

describe('sabotaged ghx on PATH (CLI, sandbox, oracle)', function () {
  this.timeout(120_000)
  let dir: string
  before(async () => {
    const files: Record<string, string> = {
      '.ghxbenchrc.yml': sandboxConfig('catalogue'),
      'catalogue/two.yml': `name: two\nscenarios: {ids: [${SCENARIOS.join(', ')}]}\nmodes: [ghx]\nrepetitions: 1\ntimeouts: {checkpoint_ms: 1000}\n`,
    }
    for (const id of SCENARIOS)
      files[`catalogue/scenarios/${id}.yml`] = await readFile(path.join(SUITES, 'scenarios', `${id}.yml`), 'utf8')
    dir = await makeProject(files)
  })

  for (const name of Object.keys(SABOTAGE)) {
    it(`${name}: every scenario fails`, async () => {
      const bin = await sabotagedGhx(dir, name)
      const result = await runCliInProcess(['run', 'catalogue/two.yml', '--run-id', name, '--no-report'], {
        cwd: dir,
        env: {CI: '1', PATH: `${bin}${path.delimiter}${process.env.PATH}`},
      })
      expect(result.code, result.stderr + result.stdout.slice(-2000)).to.equal(0)
      const rows = rowsOf(dir, name)
      expect(rows.map((r) => r.scenario_id).sort()).to.deep.equal(SCENARIOS)
      for (const row of rows) expect(row.success, `${row.scenario_id}: ${JSON.stringify(row.error)}`).to.equal(false)
    })
  }

  it('calibration lists both scenarios as mis-calibrated under the echoing ghx (exit 1): the oracle cannot pass on it', async () => {
    const bin = await sabotagedGhx(dir, 'echo')
    const result = await runCliInProcess(
      ['validate', '--calibrate', '--mode', 'ghx', '--adversary', 'liar', '--json'],
      {cwd: dir, env: {CI: '1', PATH: `${bin}${path.delimiter}${process.env.PATH}`}},
    )
    expect(result.code, result.stderr).to.equal(1)
    const {calibration} = JSON.parse(result.stdout) as {
      calibration: {entries: Array<{scenario_id: string; status: string; reason: string}>}
    }
    expect(calibration.entries.map((e) => `${e.scenario_id}/${e.status}`).sort()).to.deep.equal(
      SCENARIOS.map((id) => `${id}/miscalibrated`),
    )
    for (const entry of calibration.entries) expect(entry.reason).to.match(/^oracle did not pass/)
    // The echoed input has the labels the answer must have: only GitHub's state tells it from the work.
    expect(calibration.entries.find((e) => e.scenario_id === 'issue-labels-add-001')!.reason).to.match(
      /checkpoint_failed: Checkpoint verification failed: labels_added/,
    )
  })
})
