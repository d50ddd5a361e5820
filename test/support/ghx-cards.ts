/**
 * Scenarios against the ghx capability cards (../shared/reference/ghx-cards: ghx's own contract of
 * each capability: what `ghx run <id> --input` accepts and what `data` it answers with).
 *
 * The ghx calls of a reference plan are found by reading its shell steps (shell-words.ts). A value
 * the shell computes while the plan runs ($(ghx run … | jq …), or a variable read from a file an
 * earlier step wrote with `ghx run … | jq … | tee FILE`) is traced back to the ghx call it comes from
 * and stands in the input as a value of the type that call's output schema gives at that jq path;
 * a value that cannot be traced is a finding, so plans stay checkable.
 */
import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {Ajv2020, type ValidateFunction} from 'ajv/dist/2020.js'
import {parse} from 'yaml'
import {fillPlaceholders} from '../../src/catalogue/placeholders.js'
import type {Scenario} from '../../src/schemas/scenario.js'
import {literal, parseScript, wordText, type Part, type SimpleCommand, type Word} from './shell-words.js'

export type JsonSchema = Record<string, unknown>

export interface Card {
  capability_id: string
  input_schema: JsonSchema
  output_schema: JsonSchema
  validateInput: ValidateFunction
}

/** Meta fields real ghx can print (with --verbose, and attempts when tracing). */
export const GHX_META_FIELDS = ['capability_id', 'route_used', 'reason', 'attempts'] as const

export function loadCards(dir: string): Map<string, Card> {
  const ajv = new Ajv2020({strict: false, allErrors: true, allowUnionTypes: true})
  const cards = new Map<string, Card>()
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const card = parse(readFileSync(path.join(dir, file), 'utf8')) as Omit<Card, 'validateInput'>
    cards.set(card.capability_id, {...card, validateInput: ajv.compile(card.input_schema)})
  }
  return cards
}

/** Where a value comes from: a ghx call's envelope, through jq filters; `raw` as jq -r prints it. */
export interface ValueSource {
  capability: string
  filters: string[]
  raw: boolean
}

export interface GhxCall {
  /** 1-based step of the plan. */
  step: number
  capability: string
  /** The input as ghx reads it (JSON), after the plan's dynamic values are stood in for. */
  input?: unknown
  inputText: string
  /** Why the input could not be read. */
  problem?: string
  /** A value in it could not be traced (reported among the plan's problems): its input is not judged. */
  untraced?: boolean
}

export interface PlanAnalysis {
  calls: GhxCall[]
  /** Per step, where its output comes from when it is (a jq view of) a ghx call's output. */
  outputs: Array<ValueSource | undefined>
  problems: string[]
}

const KEYWORDS = new Set(['while', 'until', 'if', 'then', 'else', 'elif', 'do', 'done', 'fi', '!', '{', '}', 'time'])
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/

function withoutKeywords(words: Word[]): Word[] {
  let i = 0
  while (i < words.length && KEYWORDS.has(literal(words[i]) ?? '')) i++
  return words.slice(i)
}

const isGhx = (word: Word | undefined) => path.posix.basename(literal(word) ?? '') === 'ghx'

/** The schema a successful `ghx run <capability>` prints: the envelope around the card's data. */
function envelopeSchema(card: Card): JsonSchema {
  return {type: 'object', required: ['ok', 'data'], properties: {ok: {type: 'boolean'}, data: card.output_schema}}
}

const types = (schema: JsonSchema): string[] =>
  Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : []

/**
 * The schema of what a jq filter gives, over the schema of its input: paths (.a.b, ."a", [], [0]),
 * collecting brackets ([ … ]), pipes and select(…) (which keeps the type). Anything else is beyond
 * what this check follows, and is reported so.
 */
export function jqSchema(schema: JsonSchema, filter: string, where: string): JsonSchema {
  const stack: JsonSchema[] = []
  let current = schema
  let at = ''
  let i = 0
  const fail = (message: string): never => {
    throw new Error(`${where}: jq ${JSON.stringify(filter)}: ${message}`)
  }
  while (i < filter.length) {
    const rest = filter.slice(i)
    let m: RegExpExecArray | null
    if (/^\s/.test(rest) || rest[0] === '|' || rest[0] === '?') i++
    else if (rest.startsWith('select(')) {
      let depth = 0
      for (; i < filter.length; i++) {
        if (filter[i] === '(') depth++
        else if (filter[i] === ')' && --depth === 0) break
      }
      i++
    } else if ((m = /^\.(?:([A-Za-z_][A-Za-z0-9_]*)|"([^"]*)")/.exec(rest))) {
      const field = (m[1] ?? m[2])!
      const properties = (current.properties ?? {}) as Record<string, JsonSchema>
      if (!types(current).includes('object') || !Object.hasOwn(properties, field))
        fail(`${at || '.'} has no field "${field}" (it has: ${Object.keys(properties).join(', ') || 'no fields'})`)
      current = properties[field]!
      at += `.${field}`
      i += m[0].length
    } else if ((m = /^\[(\d*)\]/.exec(rest))) {
      if (!types(current).includes('array')) fail(`${at || '.'} is not an array`)
      current = (current.items ?? {}) as JsonSchema
      at += m[0]
      i += m[0].length
    } else if (rest[0] === '[') {
      stack.push(current)
      i++
    } else if (rest[0] === ']' && stack.length > 0) {
      stack.pop()
      current = {type: 'array', items: current}
      at = `[${at}]`
      i++
    } else if (rest[0] === '.') i++
    else fail(`"${rest}" is beyond what this check follows (paths, [], [n], [ … ], select(…))`)
  }
  return current
}

/** A value of the schema's type: what stands in for a value the plan computes while it runs. */
export function sampleValue(schema: JsonSchema): unknown {
  if ('const' in schema) return schema.const
  if (Array.isArray(schema.enum)) return schema.enum[0]
  const choice = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined
  if (choice?.[0]) return sampleValue(choice[0])
  const type = types(schema).find((t) => t !== 'null') ?? types(schema)[0]
  switch (type) {
    case 'string':
      return 'value-from-an-earlier-call'.padEnd(Number(schema.minLength ?? 0), 'x')
    case 'integer':
    case 'number':
      return Math.max(Number(schema.minimum ?? 1), 1)
    case 'boolean':
      return true
    case 'null':
      return null
    case 'array':
      return Number(schema.minItems ?? 0) > 0 ? [sampleValue((schema.items ?? {}) as JsonSchema)] : []
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>
      return Object.fromEntries(((schema.required ?? []) as string[]).map((k) => [k, sampleValue(properties[k] ?? {})]))
    }
    default:
      return 'value-from-an-earlier-call'
  }
}

/** Options and operands of a jq command: its filter, the file it reads, whether it prints raw. */
function jqArguments(words: string[]): {filter?: string; file?: string; raw: boolean} {
  const operands = words.slice(1).filter((w) => !w.startsWith('-'))
  const raw = words.slice(1).some((w) => /^-[a-zA-Z]*r/.test(w) || w === '--raw-output')
  return {filter: operands[0], file: operands[1], raw}
}

class PlanAnalyzer {
  readonly files = new Map<string, ValueSource>()
  readonly calls: GhxCall[] = []
  readonly problems: string[] = []
  /** Set when a dynamic value of the input being read could not be traced. */
  private untraced = false

  constructor(private readonly cards: Map<string, Card>) {}

  schemaOf(source: ValueSource, where: string): JsonSchema | undefined {
    const card = this.cards.get(source.capability)
    if (!card) return undefined
    try {
      return source.filters.reduce((schema, filter) => jqSchema(schema, filter, where), envelopeSchema(card))
    } catch (error) {
      this.problems.push((error as Error).message)
      return undefined
    }
  }

  /** Analyzes one shell step; returns where its output comes from, when that is known. */
  step(script: string, step: number): ValueSource | undefined {
    const pipelines = parseScript(script)
    const commands = pipelines.flatMap((p) => p.commands)
    // `while read -r id; do …; done < FILE`: what is read comes from FILE, one value a line.
    const loopFiles = commands
      .filter((c) => literal(c.words[0]) === 'done')
      .flatMap((c) => c.redirects.filter((r) => r.op === '<').map((r) => literal(r.target)))
    const variables = new Map<string, ValueSource>()
    for (const command of commands) {
      const words = withoutKeywords(command.words).map((w) => literal(w) ?? '')
      if (words[0] !== 'read') continue
      const file = loopFiles.length === 1 ? loopFiles[0] : undefined
      const source = file ? this.files.get(file) : undefined
      for (const name of words.slice(1).filter((w) => !w.startsWith('-'))) if (source) variables.set(name, source)
    }
    let output: ValueSource | undefined
    for (const pipeline of pipelines) output = this.pipeline(pipeline.commands, step, variables)
    return output
  }

  private pipeline(
    commands: SimpleCommand[],
    step: number,
    variables: Map<string, ValueSource>,
  ): ValueSource | undefined {
    let stdout: ValueSource | undefined
    let pipedWord: Word | undefined
    commands.forEach((command, index) => {
      const words = withoutKeywords(command.words)
      while (
        words[0] &&
        ASSIGNMENT.test(literal(words[0]) ?? (words[0].parts[0]?.kind === 'text' ? words[0].parts[0].text : ''))
      ) {
        const assignment = words.shift()!
        const name = ASSIGNMENT.exec((assignment.parts[0] as {text: string}).text)![1]!
        const substitution = assignment.parts.find((p) => p.kind === 'subst')
        const source = substitution ? this.substitution(substitution.script, step, variables) : undefined
        if (source) variables.set(name, source)
      }
      const stdin = index > 0 ? stdout : undefined
      const piped = index > 0 ? pipedWord : undefined
      stdout = undefined
      pipedWord = undefined
      const name = literal(words[0])
      // Text piped in as it is written (`cat <<'EOF' | ghx …`, `echo '…' | ghx …`): what `--input -` reads.
      if (name === 'cat' && words.length === 1 && command.heredoc) pipedWord = command.heredoc
      if (name === 'echo' && words.length === 2) pipedWord = words[1]
      if (isGhx(words[0])) stdout = this.ghx(words, command, step, variables, piped)
      else {
        for (const word of [...words, ...(command.heredoc ? [command.heredoc] : [])]) {
          for (const part of word.parts) if (part.kind === 'subst') this.substitution(part.script, step, variables)
        }
        const texts = words.map((w) => literal(w) ?? '')
        if (name === 'jq') {
          const {filter, file, raw} = jqArguments(texts)
          const from = file !== undefined ? this.files.get(file) : stdin
          if (from && filter !== undefined)
            stdout = {capability: from.capability, filters: [...from.filters, filter], raw}
        } else if (name === 'tee') {
          for (const file of texts.slice(1).filter((w) => !w.startsWith('-'))) if (stdin) this.files.set(file, stdin)
          stdout = stdin
        } else if (name === 'cat' && texts.length === 2) stdout = this.files.get(texts[1]!)
      }
      for (const redirect of command.redirects) {
        const file = literal(redirect.target)
        if ((redirect.op === '>' || redirect.op === '>>') && file !== undefined) {
          if (stdout) this.files.set(file, stdout)
          stdout = undefined
        }
      }
    })
    return stdout
  }

  /** What a `$( … )` prints, when it is (a jq view of) a ghx call's output; its ghx calls are recorded. */
  private substitution(script: string, step: number, variables: Map<string, ValueSource>): ValueSource | undefined {
    let output: ValueSource | undefined
    for (const pipeline of parseScript(script)) output = this.pipeline(pipeline.commands, step, variables)
    return output
  }

  private resolve(part: Exclude<Part, {kind: 'text'}>, step: number, variables: Map<string, ValueSource>): string {
    const shown = part.kind === 'var' ? `$${part.name}` : `$(${part.script})`
    const source = part.kind === 'var' ? variables.get(part.name) : this.substitution(part.script, step, variables)
    if (!source) {
      this.problems.push(
        `step ${step}: cannot tell what ${shown} holds: a value in a ghx input must come from a ghx call (\`$(ghx run … | jq …)\`, or a variable read from a file written by \`ghx run … | jq … | tee FILE\`)`,
      )
      this.untraced = true
      return '"untraceable value"'
    }
    const schema = this.schemaOf(source, `step ${step}: ${shown}`)
    if (!schema) {
      this.untraced = true
      return '"untraceable value"'
    }
    const value = sampleValue(schema)
    return source.raw && typeof value === 'string' ? value : JSON.stringify(value)
  }

  /** The word an option takes (`--input X` or `--input=X`), or the input of the command for `-`. */
  private option(words: Word[], command: SimpleCommand, option: string, piped?: Word): Word | undefined {
    for (const [i, word] of words.entries()) {
      const text = literal(word)
      if (text === option) {
        const value = words[i + 1]
        if (literal(value) !== '-') return value
        const hereString = command.redirects.find((r) => r.op === '<<<')
        return command.heredoc ?? hereString?.target ?? piped
      }
      const first = word.parts[0]
      if (first?.kind === 'text' && first.text.startsWith(`${option}=`)) {
        return {parts: [{kind: 'text', text: first.text.slice(option.length + 1)}, ...word.parts.slice(1)]}
      }
    }
    return undefined
  }

  private ghx(
    words: Word[],
    command: SimpleCommand,
    step: number,
    variables: Map<string, ValueSource>,
    piped?: Word,
  ): ValueSource | undefined {
    const sub = literal(words[1])
    const read = (word: Word | undefined): {text: string; value?: unknown; problem?: string} => {
      if (!word) return {text: '', problem: 'no input given'}
      this.untraced = false
      const text = wordText(word, (part) => this.resolve(part, step, variables))
      try {
        return {text, value: JSON.parse(text)}
      } catch (error) {
        return {text, problem: `input is not JSON (${(error as Error).message})`}
      }
    }
    if (sub === 'run') {
      const capability = literal(words[2]) ?? '(computed capability id)'
      const input = read(this.option(words, command, '--input', piped))
      this.calls.push({
        step,
        capability,
        inputText: input.text,
        untraced: this.untraced,
        ...(input.problem ? {problem: input.problem} : {input: input.value}),
      })
      return {capability, filters: [], raw: false}
    }
    if (sub === 'chain') {
      const steps = read(this.option(words, command, '--steps', piped))
      if (steps.problem || !Array.isArray(steps.value)) {
        this.calls.push({
          step,
          capability: '(ghx chain)',
          inputText: steps.text,
          problem: steps.problem ?? '--steps is not a JSON array of {task, input}',
        })
        return undefined
      }
      for (const item of steps.value as Array<{task?: unknown; input?: unknown}>) {
        this.calls.push({
          step,
          capability: typeof item?.task === 'string' ? item.task : '(chain step without a task)',
          input: item?.input ?? {},
          inputText: JSON.stringify(item?.input ?? {}),
        })
      }
    }
    return undefined
  }
}

type PlanStep = {tool: string; args: Record<string, unknown>} | {answer: unknown}

/** The ghx calls of a plan (placeholders already filled), and the shape of each step's output. */
export function analyzePlan(steps: PlanStep[], cards: Map<string, Card>): PlanAnalysis {
  const analyzer = new PlanAnalyzer(cards)
  const outputs: Array<ValueSource | undefined> = []
  steps.forEach((step, index) => {
    if (!('tool' in step)) return
    const command = step.args.command
    if (step.tool !== 'shell' || typeof command !== 'string') {
      analyzer.problems.push(`step ${index + 1}: tool "${step.tool}" is not the shell, the ghx mode's one tool`)
      outputs.push(undefined)
      return
    }
    try {
      outputs.push(analyzer.step(command, index + 1))
    } catch (error) {
      analyzer.problems.push(`step ${index + 1}: cannot read the shell command: ${(error as Error).message}`)
      outputs.push(undefined)
    }
  })
  return {calls: analyzer.calls, outputs, problems: analyzer.problems}
}

const OUTPUT_REF = /^\$out(\d*)((?:\.[A-Za-z_][\w-]*|\[\d+\])*)$/

/**
 * The schema of the data an `{answer: …}` step builds from the step outputs (as the oracle's
 * resolveOutputs does: "$out" the last output, "$outN" the N-th, then .field and [n]).
 */
export function answerSchema(
  template: unknown,
  analysis: PlanAnalysis,
  cards: Map<string, Card>,
  problems: string[],
): JsonSchema | undefined {
  if (typeof template === 'string') {
    const match = OUTPUT_REF.exec(template)
    if (!match) return {const: template}
    const source = match[1] ? analysis.outputs[Number(match[1]) - 1] : analysis.outputs.at(-1)
    if (!source) {
      problems.push(`answer ${template}: that step's output is not a ghx call's`)
      return undefined
    }
    const analyzer = new PlanAnalyzer(cards)
    const schema = analyzer.schemaOf({...source, filters: [...source.filters, match[2] || '.']}, `answer ${template}`)
    problems.push(...analyzer.problems)
    return schema
  }
  if (Array.isArray(template)) return {type: 'array'}
  if (template && typeof template === 'object') {
    const properties = Object.fromEntries(
      Object.entries(template).map(([k, v]) => [k, answerSchema(v, analysis, cards, problems) ?? {}]),
    )
    return {type: 'object', required: Object.keys(properties), properties}
  }
  return {const: template}
}

function describeErrors(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .map((e) => {
      const extra =
        e.keyword === 'additionalProperties'
          ? ` "${(e.params as {additionalProperty: string}).additionalProperty}"`
          : ''
      return `${e.instancePath || '/'} ${e.message}${extra}`
    })
    .join('; ')
}

/** (a) Every ghx call of the plan names a capability with a card, and passes an input it accepts. */
export function checkReferencePlan(
  scenario: Scenario,
  variables: Record<string, unknown>,
  cards: Map<string, Card>,
): {findings: string[]; analysis?: PlanAnalysis} {
  const plan = scenario.reference?.ghx
  if (!plan) return {findings: []}
  const steps = fillPlaceholders(plan, variables) as PlanStep[]
  const analysis = analyzePlan(steps, cards)
  const findings = analysis.problems.map((p) => `${scenario.id}: reference.ghx ${p}`)
  for (const call of analysis.calls) {
    const where = `${scenario.id}: reference.ghx step ${call.step}: ghx run ${call.capability}`
    const card = cards.get(call.capability)
    if (!card) findings.push(`${where}: no ghx capability card "${call.capability}"`)
    else if (call.untraced) continue
    else if (call.problem) findings.push(`${where}: ${call.problem}: ${call.inputText}`)
    else if (!card.validateInput(call.input))
      findings.push(
        `${where}: the card rejects the input ${JSON.stringify(call.input)}: ${describeErrors(card.validateInput)}`,
      )
  }
  const answerStep = steps.at(-1)
  if (answerStep && 'answer' in answerStep) {
    const problems: string[] = []
    answerSchema(answerStep.answer, analysis, cards, problems)
    findings.push(...problems.map((p) => `${scenario.id}: reference.ghx ${p}`))
  }
  return {findings, analysis}
}

/** The card's data as a scenario judges it: the output object, or for a list judged as an array, its items. */
export function judgedData(card: Card, dataType: string | undefined): {schema: JsonSchema; what: string} {
  const items = ((card.output_schema.properties ?? {}) as Record<string, JsonSchema>).items
  if (dataType === 'array' && items && types(items).includes('array'))
    return {schema: (items.items ?? {}) as JsonSchema, what: `${card.capability_id} output items[]`}
  return {schema: card.output_schema, what: `${card.capability_id} output`}
}

/**
 * (b) An atomic scenario whose task is a ghx capability: its input is one the card accepts; every
 * required data field is one the card's data always has (in `properties` and in `required`); a
 * scenario judging an array judges a list capability's items, and its ghx plan answers with them.
 */
export function checkAtomicScenario(
  scenario: Scenario,
  variables: Record<string, unknown>,
  cards: Map<string, Card>,
  analysis?: PlanAnalysis,
): string[] {
  if (scenario.type !== 'atomic') return []
  const card = cards.get(scenario.task)
  if (!card) return []
  const findings: string[] = []
  const where = `${scenario.id} (${scenario.task})`
  const input = fillPlaceholders(scenario.input ?? {}, variables)
  if (!card.validateInput(input))
    findings.push(
      `${where}: the card rejects the scenario input ${JSON.stringify(input)}: ${describeErrors(card.validateInput)}`,
    )
  const {assertions} = scenario
  const {schema, what} = judgedData(card, assertions.data_type)
  if (assertions.data_type === 'array' && schema === card.output_schema)
    findings.push(`${where}: data_type is array, but ${card.capability_id} answers an object without items[]`)
  if (assertions.data_type === 'object' && !types(card.output_schema).includes('object'))
    findings.push(`${where}: data_type is object, but ${card.capability_id} does not answer an object`)
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>
  const required = (schema.required ?? []) as string[]
  for (const field of assertions.required_data_fields ?? []) {
    if (!Object.hasOwn(properties, field))
      findings.push(
        `${where}: required data field "${field}" is not in ${what} (it has: ${Object.keys(properties).join(', ')})`,
      )
    else if (!required.includes(field))
      findings.push(`${where}: required data field "${field}" is optional in ${what}: real ghx may leave it out`)
  }
  // What the ghx plan's final answer is: the envelope ghx printed, or the `answer` it builds; a plan that
  // declares a fallback answers with what gh printed instead, by its own account.
  const last = scenario.reference?.ghx?.at(-1)
  if (analysis && last && !scenario.fallbacks?.ghx) {
    const problems: string[] = []
    const answer =
      'answer' in last ? answerSchema(fillPlaceholders(last.answer, variables), analysis, cards, problems) : undefined
    const data = 'answer' in last ? answer : card.output_schema
    if (data && assertions.data_type && !types(data).includes(assertions.data_type)) {
      findings.push(
        `${where}: data_type is ${assertions.data_type}, the ghx plan answers ${types(data).join('|') || 'an untyped value'}${assertions.data_type === 'array' ? ' (a list is answered as "$out.data.items")' : ''}`,
      )
    }
  }
  return findings
}

/**
 * (c) Meta fields only real ghx's (it prints meta with --verbose only), and envelope fields only those
 * real ghx prints for the expected outcome: never `error` on success, never `data` on failure, no `meta`.
 */
export function checkEnvelopeFields(scenario: Scenario): string[] {
  if (scenario.type !== 'atomic') return []
  const findings: string[] = []
  const {assertions} = scenario
  for (const field of assertions.required_meta_fields ?? []) {
    if (!(GHX_META_FIELDS as readonly string[]).includes(field))
      findings.push(
        `${scenario.id}: required meta field "${field}" is not one real ghx prints (${GHX_META_FIELDS.join(', ')})`,
      )
  }
  const printed = assertions.expected_outcome === 'success' ? ['ok', 'data'] : ['ok', 'error']
  for (const field of assertions.required_fields ?? []) {
    if (!printed.includes(field))
      findings.push(
        `${scenario.id}: required field "${field}": real ghx prints only ${printed.join(', ')} on ${assertions.expected_outcome} (meta with --verbose only)`,
      )
  }
  return findings
}
