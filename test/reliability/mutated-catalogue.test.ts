// Issue 27's attack, made repeatable: every file kind of the catalogue (the configuration, a suite, a
// set, a profile, scenarios of each type) broken in every way a hand can break it: each key's value
// given the wrong type, each key given twice, an unknown key, a tab in the indentation, an unclosed
// bracket. `validate` must refuse each one with exit 2, naming the broken file with its line and
// column, and print no stack. The mutations are generated from the shipped files, so a key added to
// them is attacked too. In-process (about 0.1 s a case).
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {expect} from 'chai'
import {runCliInProcess} from '../support/cli-in-process.js'
import {config, PROJECT_ROOT, project, suite} from '../support/reliability.js'

const SHIPPED = (relative: string) => readFileSync(path.join(PROJECT_ROOT, 'suites', relative), 'utf8')

/** One file under attack: where it goes in the project, its text, and what else the project needs for it to be read. */
interface Target {
  file: string
  text: string
  /** Other files of the project that make the target's file part of what `validate` reads. */
  files?: Record<string, string>
  /** Parent keys whose children are attacked too (the top level always is). */
  nested?: string[]
}

const SCENARIOS = ['issue-close-001', 'repo-view-001', 'pr-merge-001', 'ci-diagnose-run-wf-001']

const TARGETS: Target[] = [
  {
    file: '.ghxbenchrc.yml',
    text: config('gate: {profile: verify_pr, baseline: agent_direct, candidate: ghx}'),
    nested: [],
  },
  {
    file: 'catalogue/one.yml',
    text: SHIPPED('verify-pr.yml').replace('set: ci-verify-pr', 'ids: [repo-view-001]'),
    nested: ['gate'],
  },
  {file: 'catalogue/sets/some.yml', text: 'name: some\ndescription: a set of one\nscenarios: [repo-view-001]\n'},
  {file: 'catalogue/profiles/verify_pr.yml', text: SHIPPED('profiles/verify_pr.yml'), nested: ['thresholds']},
  ...SCENARIOS.map((id) => ({
    file: `catalogue/scenarios/${id}.yml`,
    text: SHIPPED(`scenarios/${id}.yml`),
    files: {'catalogue/two.yml': suite('two', [id])},
    nested: ['fixture', 'assertions'],
  })),
]

interface Mutation {
  name: string
  text: string
}

interface KeyLine {
  index: number
  indent: number
  key: string
  /** The value on the key's own line ('' for a block below it). */
  value: string
  /** Lines of the key's block below it (more indented, or a list at the same indent). */
  blockEnd: number
}

/** The mapping keys of a YAML text at the top level and under `nested` parents (no list items, no comments). */
function keyLines(lines: string[], nested: string[]): KeyLine[] {
  const found: KeyLine[] = []
  let parent = ''
  lines.forEach((line, index) => {
    const match = /^( *)([A-Za-z_][\w-]*):(?: (.*))?$/.exec(line)
    if (!match) return
    const indent = match[1]!.length
    if (indent === 0) parent = match[2]!
    if (indent !== 0 && !(indent === 2 && nested.includes(parent))) return
    let blockEnd = index + 1
    while (
      blockEnd < lines.length &&
      (lines[blockEnd]!.trim() === '' ||
        lines[blockEnd]!.search(/\S/) > indent ||
        (lines[blockEnd]!.search(/\S/) === indent && lines[blockEnd]!.trimStart().startsWith('- ')))
    )
      blockEnd++
    found.push({index, indent, key: match[2]!, value: (match[3] ?? '').replace(/\s+#.*$/, ''), blockEnd})
  })
  return found
}

/** Every way to break `target`'s text that the schema (or YAML) refuses whatever the key means. */
function mutations(target: Target): Mutation[] {
  const lines = target.text.split('\n')
  const keys = keyLines(lines, target.nested ?? [])
  const replace = (from: number, to: number, inserted: string[]) =>
    [...lines.slice(0, from), ...inserted, ...lines.slice(to)].join('\n')
  const out: Mutation[] = []
  for (const k of keys) {
    const pad = ' '.repeat(k.indent)
    const scalar = k.value !== '' && !/^[[{]/.test(k.value)
    // A scalar where a mapping or list belongs, a mapping where a scalar or list belongs.
    out.push({
      name: `${k.key}: the wrong type`,
      text: replace(k.index, k.blockEnd, [`${pad}${k.key}: ${scalar ? '{wrong_type: 1}' : '12345'}`]),
    })
    out.push({name: `${k.key} twice`, text: replace(k.blockEnd, k.blockEnd, [`${pad}${k.key}: ${k.value || '{}'}`])})
  }
  const firstNested = keys.find((k) => k.indent === 2)
  out.push({name: 'an unknown key at the top', text: `${target.text.trimEnd()}\nunknown_setting_zz: 1\n`})
  if (firstNested)
    out.push({
      name: `an unknown key beside ${firstNested.key}`,
      text: replace(firstNested.index, firstNested.index, ['  unknown_setting_zz: 1']),
    })
  if (firstNested)
    out.push({
      name: 'a tab in the indentation',
      text: replace(firstNested.index, firstNested.index + 1, [lines[firstNested.index]!.replace(/^ +/, '\t')]),
    })
  out.push({name: 'an unclosed bracket', text: `${target.text.trimEnd()}\nunclosed_zz: [1, 2\n`})
  return out
}

describe('reliability: every file of the catalogue, broken, is refused with its location', function () {
  this.timeout(60_000)
  for (const target of TARGETS) {
    describe(target.file.replace(/^catalogue\//, ''), () => {
      // The control: unbroken, the same project validates, so each refusal below is the mutation's.
      it('as shipped: valid', async () => {
        const dir = await project({...target.files, [target.file]: target.text})
        const result = await runCliInProcess(['validate'], {cwd: dir, env: {CI: '1'}})
        expect(result.code, `${result.stderr}${result.stdout}`).to.equal(0)
      })
      for (const mutation of mutations(target)) {
        it(mutation.name, async () => {
          const dir = await project({...target.files, [target.file]: mutation.text})
          const result = await runCliInProcess(['validate'], {cwd: dir, env: {CI: '1'}})
          const output = `${result.stderr}${result.stdout}`
          expect(result.code, output).to.equal(2)
          expect(result.stderr, output).to.match(new RegExp(`${target.file.replaceAll('.', '\\.')}:\\d+:\\d+`))
          expect(result.stderr).to.not.match(/\n\s+at /)
          expect(result.stderr).to.not.match(/internal error/)
        })
      }
    })
  }
})
