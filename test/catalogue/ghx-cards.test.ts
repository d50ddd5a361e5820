// The catalogue against ghx's own capability cards (../shared/reference/ghx-cards, ghx 0.8.0): what
// `ghx run <id> --input` accepts (input_schema) and the `data` it answers with (output_schema).
//
// (a) every ghx call of every scenario's `reference.ghx` (`ghx run <id> --input …`, `ghx chain
//     --steps …`, inline, `--input=`, here-document or here-string) names a capability that has a
//     card, and its input, with the placeholders filled from a real seeding of the sandbox, is one
//     the card accepts. Values the plan computes while it runs are traced to the ghx call they come
//     from and stand in with that call's output type (test/support/ghx-cards.ts); jq paths and
//     `answer` templates over ghx output must name fields the card's output has.
// (b) an atomic scenario whose task is a ghx capability: the card accepts its `input`; each
//     `required_data_fields` entry is a field the card's data always has (in `properties` and
//     `required`). How a list is judged: a scenario with `data_type: array` over a list capability
//     (output {items, pageInfo, …}) judges the items, so its fields are the items' fields, and its ghx
//     plan answers with `$out.data.items`; a `data_type: object` scenario judges the output object.
//     A field the card types as nullable is accepted: whether it is null depends on the fixture, and
//     the envelope judge counts null as missing, so such a field must be one the fixture fills.
// (c) `required_meta_fields` names only meta real ghx prints (capability_id, route_used, reason,
//     attempts), and `required_fields` (when present) only what real ghx prints for the outcome:
//     ok and data on success, ok and error on failure, never meta (printed with --verbose only).
import path from 'node:path'
import {expect} from 'chai'
import {ALL_KINDS, seedFixtures} from '../../src/seeding/index.js'
import {resolveVariables} from '../../src/seeding/bindings.js'
import type {Manifest} from '../../src/seeding/manifest.js'
import {loadPlugins} from '../../src/plugins/loader.js'
import {AGENT_LOGIN, REVIEWER_LOGIN} from '../../src/emulator/defaults.js'
import {startSandbox, type Sandbox} from '../../src/emulator/index.js'
import {loadCatalogue} from '../../src/catalogue/catalogue.js'
import type {Scenario} from '../../src/schemas/scenario.js'
import {PROJECT_ROOT} from '../support/cli.js'
import {sharedPath, skipWithoutShared} from '../support/shared.js'
import {
  checkAtomicScenario,
  checkEnvelopeFields,
  checkReferencePlan,
  loadCards,
  type Card,
} from '../support/ghx-cards.js'
import {fixtureContext} from '../support/sandbox.js'

const CARDS_DIR = sharedPath('reference', 'ghx-cards')
const RUN_ID = '2026-11-22T10-00-00Z'

describe('scenarios against the ghx capability cards', function () {
  this.timeout(60_000)
  let cards: Map<string, Card>
  let scenarios: Scenario[]
  let sandbox: Sandbox | undefined
  let manifest: Manifest
  const variablesOf = (scenario: Scenario) => resolveVariables(scenario, manifest, 'seeded manifest', RUN_ID)

  before(async function () {
    skipWithoutShared(this, CARDS_DIR)
    cards = loadCards(CARDS_DIR)
    const registry = await loadPlugins({fromDir: PROJECT_ROOT, plugins: [], origin: 'test'})
    const catalogue = await loadCatalogue({root: path.join(PROJECT_ROOT, 'suites'), registry, cwd: PROJECT_ROOT})
    scenarios = [...catalogue.scenarios.values()].map((s) => s.value)
    // Real values for the placeholders: every fixture kind seeded on the sandbox, as a run seeds them.
    sandbox = await startSandbox({timing: {queued_ms: 5, running_ms: 10}})
    manifest = await seedFixtures(fixtureContext(sandbox, 'cards'), ALL_KINDS, {
      agentLogin: AGENT_LOGIN,
      reviewerLogin: REVIEWER_LOGIN,
      defaultBranch: 'main',
      workflowPollMs: 10,
    })
  })
  after(() => sandbox?.close())

  it('reads the cards and the whole catalogue', () => {
    expect(cards.size).to.be.at.least(70)
    expect(scenarios.length).to.be.at.least(60)
    expect(scenarios.filter((s) => s.reference?.ghx).length).to.be.at.least(60)
  })

  it('(a) every ghx call of every reference.ghx plan names a capability with a card and passes an input the card accepts', () => {
    const findings = scenarios.flatMap((s) => checkReferencePlan(s, variablesOf(s), cards).findings)
    expect(findings).to.deep.equal([])
  })

  it('(b) every atomic ghx scenario: its input is one the card accepts, its required data fields are the card’s data', () => {
    const findings = scenarios.flatMap((s) => {
      const variables = variablesOf(s)
      return checkAtomicScenario(s, variables, cards, checkReferencePlan(s, variables, cards).analysis)
    })
    expect(findings).to.deep.equal([])
  })

  it('(c) required meta and envelope fields are only those real ghx prints', () => {
    expect(scenarios.flatMap(checkEnvelopeFields)).to.deep.equal([])
  })

  describe('each check fails on a broken scenario', () => {
    const variables = {owner: 'ghx-bench', repo: 'sandbox', thread: 'PRRT_abc', issue: 7, run_id: RUN_ID}
    const atomic = (overrides: Record<string, unknown>): Scenario =>
      ({
        type: 'atomic',
        id: 'broken-001',
        name: 'broken',
        task: 'issue.view',
        input: {owner: '{{owner}}', name: '{{repo}}', issueNumber: '{{issue}}'},
        assertions: {expected_outcome: 'success'},
        ...overrides,
      }) as unknown as Scenario
    const shell = (command: string) => ({tool: 'shell', args: {command}})
    const plan = (...steps: unknown[]) => atomic({reference: {ghx: steps}})
    /** The findings, one a pattern, in order. */
    const expectFindings = (findings: string[], ...patterns: RegExp[]) => {
      expect(findings, findings.join('\n')).to.have.length(patterns.length)
      patterns.forEach((pattern, i) => expect(findings[i]).to.match(pattern))
    }
    const findingsOf = (scenario: Scenario) => {
      const {findings, analysis} = checkReferencePlan(scenario, variables, cards)
      return [
        ...findings,
        ...checkAtomicScenario(scenario, variables, cards, analysis),
        ...checkEnvelopeFields(scenario),
      ]
    }

    it('passes a correct plan, inline, --input= and through a here-document', () => {
      expect(
        findingsOf(
          plan(shell(`ghx run issue.view --input '{"owner":"{{owner}}","name":"{{repo}}","issueNumber":{{issue}}}'`)),
        ),
      ).to.deep.equal([])
      expect(
        findingsOf(
          plan(shell(`ghx run issue.view --input='{"owner":"{{owner}}","name":"{{repo}}","issueNumber":{{issue}}}'`)),
        ),
      ).to.deep.equal([])
      expect(
        findingsOf(
          plan(
            shell(
              `ghx run issue.view --input - <<'EOF'\n{"owner":"{{owner}}","name":"{{repo}}","issueNumber":{{issue}}}\nEOF`,
            ),
          ),
        ),
      ).to.deep.equal([])
    })

    it('(a) a capability without a card, an input the card rejects, an input that is not JSON', () => {
      expectFindings(findingsOf(plan(shell(`ghx run issue.peek --input '{}'`))), /no ghx capability card "issue.peek"/)
      const thread = atomic({
        task: 'pr.threads.reply',
        input: {threadId: '{{thread}}', body: 'x'},
        reference: {
          ghx: [
            shell(
              `ghx run pr.threads.reply --input '{"owner":"{{owner}}","name":"{{repo}}","threadId":"{{thread}}","body":"x"}'`,
            ),
          ],
        },
      })
      expectFindings(
        findingsOf(thread),
        /step 1: ghx run pr.threads.reply: the card rejects .*must NOT have additional properties "owner"/,
      )
      expectFindings(
        findingsOf(
          plan(shell(`ghx run issue.view --input '{"owner":"{{owner}}","name":"{{repo}}","issueNumber":"{{issue}}"}'`)),
        ),
        /\/issueNumber must be integer/,
      )
      expectFindings(findingsOf(plan(shell(`ghx run issue.view --input '{owner: {{owner}}}'`))), /input is not JSON/)
    })

    it('(a) a chain step, and a value the plan computes: traced to its ghx call, typed by that call’s output', () => {
      const chain = `ghx chain --steps - <<'EOF'\n[{"task":"issue.view","input":{"owner":"{{owner}}","name":"{{repo}}","issueNumber":{{issue}}}},{"task":"issue.close","input":{"owner":"{{owner}}","name":"{{repo}}","issueNumber":{{issue}},"reason":"completed"}}]\nEOF`
      expectFindings(
        findingsOf(plan(shell(chain))),
        /ghx run issue.close: the card rejects .*additional properties "reason"/,
      )
      expectFindings(
        findingsOf(
          plan(
            shell(
              `cat <<'EOF' | ghx chain --steps -\n[{"task":"issue.view","input":{"owner":"{{owner}}","name":"{{repo}}","issueNumber":"{{issue}}"}}]\nEOF`,
            ),
          ),
        ),
        /ghx run issue.view: the card rejects .*\/issueNumber must be integer/,
      )
      const viaList = (field: string) =>
        `ghx run issue.view --input "{\\"owner\\":\\"{{owner}}\\",\\"name\\":\\"{{repo}}\\",\\"issueNumber\\":$(ghx run issue.list --input '{"owner":"{{owner}}","name":"{{repo}}"}' | jq '.data.items[0].${field}')}"`
      expect(findingsOf(plan(shell(viaList('number'))))).to.deep.equal([])
      expectFindings(findingsOf(plan(shell(viaList('id')))), /\/issueNumber must be integer/)
      expectFindings(findingsOf(plan(shell(viaList('headRefName')))), /\.data\.items\[0\] has no field "headRefName"/)
      const loop = [
        shell(
          `ghx run pr.threads.list --input '{"owner":"{{owner}}","name":"{{repo}}","prNumber":3}' | jq -r '.data.items[].id' | tee ids.txt`,
        ),
        shell(`while read -r id; do ghx run pr.threads.resolve --input "{\\"threadId\\":\\"$id\\"}"; done < ids.txt`),
      ]
      expect(
        findingsOf(
          atomic({task: 'pr.threads.list', input: {owner: 'o', name: 'r', prNumber: 3}, reference: {ghx: loop}}),
        ),
      ).to.deep.equal([])
      expectFindings(
        findingsOf(plan(shell(`ghx run pr.threads.resolve --input "{\\"threadId\\":\\"$THREAD\\"}"`))),
        /cannot tell what \$THREAD holds/,
      )
    })

    it('(b) a scenario input the card rejects, a data field the card does not have or may leave out, a list judged wrongly', () => {
      expectFindings(
        findingsOf(
          atomic({input: {owner: '{{owner}}', name: '{{repo}}', issueNumber: '{{issue}}', reason: 'completed'}}),
        ),
        /the card rejects the scenario input .*"reason"/,
      )
      expectFindings(
        findingsOf(atomic({assertions: {expected_outcome: 'success', required_data_fields: ['number', 'milestone']}})),
        /"milestone" is not in issue.view output/,
      )
      expectFindings(
        findingsOf(
          atomic({
            task: 'issue.create',
            input: {owner: 'o', name: 'r', title: 't'},
            assertions: {expected_outcome: 'success', required_data_fields: ['url']},
          }),
        ),
        /"url" is optional in issue.create output/,
      )
      const list = (answer: unknown, fields: string[]) =>
        atomic({
          task: 'issue.list',
          input: {owner: 'o', name: 'r'},
          assertions: {expected_outcome: 'success', data_type: 'array', required_data_fields: fields},
          reference: {
            ghx: [shell(`ghx run issue.list --input '{"owner":"o","name":"r"}'`), ...(answer ? [{answer}] : [])],
          },
        })
      expect(findingsOf(list('$out.data.items', ['number', 'title']))).to.deep.equal([])
      expectFindings(findingsOf(list('$out.data.items', ['labels'])), /"labels" is not in issue.list output items\[\]/)
      expectFindings(findingsOf(list(undefined, [])), /data_type is array, the ghx plan answers object/)
      expectFindings(findingsOf(list('$out.data.nodes', [])), /answer \$out.data.nodes: .*has no field "nodes"/)
    })

    it('(c) a meta field real ghx does not print, and envelope fields it does not print', () => {
      expectFindings(
        findingsOf(
          atomic({assertions: {expected_outcome: 'success', required_meta_fields: ['route_used', 'duration_ms']}}),
        ),
        /required meta field "duration_ms"/,
      )
      expectFindings(
        findingsOf(
          atomic({assertions: {expected_outcome: 'success', required_fields: ['ok', 'data', 'error', 'meta']}}),
        ),
        /required field "error"/,
        /required field "meta"/,
      )
    })
  })
})
