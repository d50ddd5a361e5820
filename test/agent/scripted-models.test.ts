import {expect} from 'chai'
import {countTokens} from 'gpt-tokenizer'
import {mulberry32} from '../../src/stats/random.js'
import {
  finalAnswer,
  planOutcome,
  promptTokenCount,
  startScriptedModels,
  type Script,
  type ScriptedModels,
} from '../../src/agent/scripted-models.js'

const TOOLS = [{type: 'function', function: {name: 'shell', description: 'run', parameters: {type: 'object'}}}]

async function post(baseUrl: string, body: unknown): Promise<Response> {
  return fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: {'content-type': 'application/json'},
    body: JSON.stringify(body),
  })
}

describe('scripted models (oracle, noop)', () => {
  let models: ScriptedModels
  const plan: Script = {
    model: 'oracle',
    steps: [
      {tool: 'shell', args: {command: 'gh issue view 1'}},
      {tool: 'shell', args: {command: 'gh issue view 2'}},
    ],
    final: {kind: 'envelope', answer: {first: '$out1.number', second: '$out.number'}},
  }
  before(async () => (models = await startScriptedModels()))
  after(() => models.close())

  it('oracle plays its plan one tool call per turn, then answers with the envelope built from the outputs', async () => {
    const {baseUrl} = models.register(plan)
    const messages: unknown[] = [
      {role: 'system', content: 'be brief'},
      {role: 'user', content: 'do it'},
    ]
    const first = (await (await post(baseUrl, {model: 'oracle', messages, tools: TOOLS})).json()) as {
      choices: Array<{
        message: {tool_calls: Array<{id: string; function: {name: string; arguments: string}}>}
        finish_reason: string
      }>
    }
    expect(first.choices[0]!.finish_reason).to.equal('tool_calls')
    const call = first.choices[0]!.message.tool_calls[0]!
    expect(JSON.parse(call.function.arguments)).to.deep.equal({command: 'gh issue view 1'})
    messages.push(first.choices[0]!.message, {role: 'tool', tool_call_id: call.id, content: '{"number": 1}'})
    const second = (await (await post(baseUrl, {model: 'oracle', messages, tools: TOOLS})).json()) as typeof first
    const call2 = second.choices[0]!.message.tool_calls[0]!
    expect(JSON.parse(call2.function.arguments)).to.deep.equal({command: 'gh issue view 2'})
    messages.push(second.choices[0]!.message, {role: 'tool', tool_call_id: call2.id, content: '{"number": 2}'})
    const last = (await (await post(baseUrl, {model: 'oracle', messages, tools: TOOLS})).json()) as {
      choices: Array<{message: {content: string}; finish_reason: string}>
      usage: {prompt_tokens: number; completion_tokens: number}
    }
    expect(last.choices[0]!.finish_reason).to.equal('stop')
    expect(JSON.parse(last.choices[0]!.message.content)).to.deep.equal({ok: true, data: {first: 1, second: 2}})
    // Usage is the real token count of everything received: the messages and the tool schemas.
    expect(last.usage.prompt_tokens).to.equal(
      messages.reduce<number>((n, m) => n + countTokens(JSON.stringify(m)), 0) + countTokens(JSON.stringify(TOOLS)),
    )
    expect(last.usage.prompt_tokens).to.equal(promptTokenCount(messages, TOOLS))
    expect(last.usage.completion_tokens).to.equal(countTokens(last.choices[0]!.message.content))
  })

  it('streams tool calls and text as chat.completion.chunk events with usage at the end', async () => {
    const {baseUrl} = models.register(plan)
    const response = await post(baseUrl, {
      model: 'oracle',
      stream: true,
      stream_options: {include_usage: true},
      messages: [{role: 'user', content: 'go'}],
      tools: TOOLS,
    })
    expect(response.headers.get('content-type')).to.equal('text/event-stream')
    const events = (await response.text())
      .split('\n\n')
      .filter(Boolean)
      .map((e) => e.replace(/^data: /, ''))
    expect(events.at(-1)).to.equal('[DONE]')
    const chunks = events.slice(0, -1).map(
      (e) =>
        JSON.parse(e) as {
          choices: Array<{
            delta: {tool_calls?: Array<{function: {arguments?: string}}>}
            finish_reason: string | null
          }>
          usage?: unknown
        },
    )
    const args = chunks
      .flatMap((c) => c.choices.flatMap((ch) => ch.delta.tool_calls ?? []))
      .map((t) => t.function.arguments ?? '')
      .join('')
    expect(JSON.parse(args)).to.deep.equal({command: 'gh issue view 1'})
    expect(chunks.some((c) => c.choices[0]?.finish_reason === 'tool_calls')).to.equal(true)
    expect(chunks.at(-1)!.usage).to.have.property('prompt_tokens').that.is.above(0)
  })

  it('noop answers at once with no tool call; an unregistered run is a 404', async () => {
    const {baseUrl, release} = models.register({...plan, model: 'noop'})
    const body = (await (
      await post(baseUrl, {model: 'noop', messages: [{role: 'user', content: 'go'}], tools: TOOLS})
    ).json()) as {choices: Array<{message: {content: string; tool_calls?: unknown}}>}
    expect(body.choices[0]!.message.tool_calls).to.equal(undefined)
    release()
    expect((await post(baseUrl, {messages: []})).status).to.equal(404)
  })

  it('says it cannot continue when the session does not offer the plan’s tool', async () => {
    const {baseUrl} = models.register(plan)
    const other = [{type: 'function', function: {name: 'read', description: 'read', parameters: {type: 'object'}}}]
    const body = (await (
      await post(baseUrl, {model: 'oracle', messages: [{role: 'user', content: 'go'}], tools: other})
    ).json()) as {choices: Array<{message: {content: string}}>}
    expect(body.choices[0]!.message.content).to.match(/no tool "shell"/)
  })

  it('reports a failed last step as an error envelope with a code', () => {
    const answer = JSON.parse(finalAnswer(plan, ['{"number": 1}', 'gh: Not Found (HTTP 404)\n[exit code 1]'])) as {
      ok: boolean
      error: {code: string}
    }
    expect(answer.ok).to.equal(false)
    expect(answer.error.code).to.equal('NOT_FOUND')
  })

  it('cannot hide a failed step: an earlier failure, an ok:false envelope (exit 0), a tool error, each fails the plan; answer cannot undo it', () => {
    const failures: Array<[string, string[], RegExp]> = [
      [
        'failed first step, good last',
        ['Cannot cancel a workflow run that is completed (HTTP 409)\n[exit code 1]', '{"number": 2}'],
        /step 1 .*Cannot cancel/,
      ],
      [
        'ghx ok:false with exit 0',
        ['{"ok":false,"error":{"code":"VALIDATION","message":"Input validation failed"}}\n', '{"number": 2}'],
        /step 1 .*VALIDATION: Input validation failed/,
      ],
      [
        'ghx --verbose failure',
        [
          JSON.stringify(
            {ok: false, error: {code: 'NOT_FOUND', message: 'gone', retryable: false}, meta: {route_used: 'graphql'}},
            null,
            2,
          ),
          '{"number": 2}',
        ],
        /NOT_FOUND: gone/,
      ],
      ['MCP isError', ['{"number": 1}', 'Not Found: Resource not found\n[tool error]'], /step 2 .*Not Found/],
      ['aborted', ['partial\n[aborted]'], /step 1 .*aborted/],
    ]
    for (const [name, contents, message] of failures) {
      const outcome = planOutcome(plan, contents)
      expect(outcome.failure?.message, name).to.be.a('string')
      expect(`step ${outcome.failure!.step} ${outcome.failure!.message}`, name).to.match(message)
      const answer = JSON.parse(finalAnswer(plan, contents)) as {ok: boolean}
      expect(answer.ok, name).to.equal(false)
      const workflow = finalAnswer({...plan, final: {kind: 'text'}}, contents)
      expect(workflow, name).to.match(/^Stopped: step \d/)
    }
    expect(planOutcome(plan, ['{"number": 1}', '{"ok":true,"data":{"number":2}}']).failure).to.equal(null)
  })

  it('a step marked allow_failure may fail; the plan goes on', () => {
    const probing: Script = {...plan, steps: [{...plan.steps![0]!, allow_failure: true}, plan.steps![1]!]}
    expect(planOutcome(probing, ['HTTP 404\n[exit code 1]', '{"number": 2}']).failure).to.equal(null)
    expect(planOutcome(probing, ['{"number": 1}', 'HTTP 404\n[exit code 1]']).failure?.step).to.equal(2)
  })

  it('stops playing at the first failed step, and reports the plan outcome to the runner', async () => {
    const {baseUrl, outcome} = models.register(plan)
    const messages: unknown[] = [{role: 'user', content: 'do it'}]
    const first = (await (await post(baseUrl, {model: 'oracle', messages, tools: TOOLS})).json()) as {
      choices: Array<{message: {tool_calls: Array<{id: string}>}}>
    }
    messages.push(first.choices[0]!.message, {
      role: 'tool',
      tool_call_id: first.choices[0]!.message.tool_calls[0]!.id,
      content: 'HTTP 500\n[exit code 1]',
    })
    const next = (await (await post(baseUrl, {model: 'oracle', messages, tools: TOOLS})).json()) as {
      choices: Array<{message: {content: string; tool_calls?: unknown}}>
    }
    expect(next.choices[0]!.message.tool_calls).to.equal(undefined)
    expect(JSON.parse(next.choices[0]!.message.content)).to.include({ok: false})
    expect(outcome()).to.deep.include({played: 1})
    expect(outcome().failure).to.include({step: 1, tool: 'shell'})
  })

  it('without a plan for the mode the oracle does not play noop: the outcome says there is no plan', async () => {
    const {baseUrl, outcome} = models.register({...plan, steps: null})
    const body = (await (
      await post(baseUrl, {model: 'oracle', messages: [{role: 'user', content: 'go'}], tools: TOOLS})
    ).json()) as {choices: Array<{message: {content: string}}>}
    expect(JSON.parse(body.choices[0]!.message.content)).to.include({ok: false})
    expect(outcome().failure?.message).to.match(/no reference plan/)
  })

  it('a plan cut short because the session lacks its tool is a failed plan', async () => {
    const {baseUrl, outcome} = models.register(plan)
    const other = [{type: 'function', function: {name: 'read', description: 'read', parameters: {type: 'object'}}}]
    await post(baseUrl, {model: 'oracle', messages: [{role: 'user', content: 'go'}], tools: other})
    expect(outcome().failure?.message).to.match(/no tool "shell"/)
  })

  it('answers a seeded share of requests 503 when asked to inject faults', async () => {
    const faulty = await startScriptedModels()
    try {
      const {baseUrl} = faulty.register(plan, {rate: 0.5, random: mulberry32(7)})
      const statuses = await Promise.all(
        Array.from({length: 40}, () => post(baseUrl, {messages: [], tools: TOOLS}).then((r) => r.status)),
      )
      const failed = statuses.filter((s) => s === 503).length
      expect(failed).to.be.within(8, 32)
      expect(statuses.filter((s) => s === 200).length).to.equal(40 - failed)
    } finally {
      await faulty.close()
    }
  })
})

describe('oracle final answers from a tool layer’s own envelopes', () => {
  const ghxEnvelope = {
    ok: true,
    data: {items: [{number: 1}], pageInfo: {}},
    meta: {capability_id: 'issue.list', route_used: 'graphql', reason: 'CARD_PREFERRED'},
  }
  it('hands an envelope printed by the tool on as it is', () => {
    const script: Script = {model: 'oracle', steps: [], final: {kind: 'envelope'}}
    expect(JSON.parse(finalAnswer(script, [JSON.stringify(ghxEnvelope)]))).to.deep.equal(ghxEnvelope)
  })
  it('with an answer template, builds the data and keeps the envelope’s meta', () => {
    const script: Script = {model: 'oracle', steps: [], final: {kind: 'envelope', answer: '$out.data.items'}}
    expect(JSON.parse(finalAnswer(script, [JSON.stringify(ghxEnvelope, null, 2)]))).to.deep.equal({
      ok: true,
      data: [{number: 1}],
      meta: ghxEnvelope.meta,
    })
    expect(
      JSON.parse(finalAnswer(script, ['{"ok":true,"data":{"items":[{"number":1}],"pageInfo":{}}}\n'])),
    ).to.deep.equal({ok: true, data: [{number: 1}]})
  })
  it('spreads the pages of a paged read into one list ("...$out2"), and a page that is not a list as one item', () => {
    const script: Script = {
      model: 'oracle',
      steps: [],
      final: {kind: 'envelope', answer: ['...$out1', '...$out2.items', '...$out3', '$out3']},
    }
    const pages = ['[{"number": 3}, {"number": 2}]', '{"items": [{"number": 1}]}', '{"number": 0}']
    expect(JSON.parse(finalAnswer(script, pages))).to.deep.equal({
      ok: true,
      data: [{number: 3}, {number: 2}, {number: 1}, {number: 0}, {number: 0}],
    })
  })
})

describe('scripted final answers: a workflow’s findings, an adversary’s fixed answer', () => {
  const steps = [{tool: 'shell', args: {command: 'gh run view 7 --json jobs'}}]
  const jobs = JSON.stringify({jobs: [{name: 'test', conclusion: 'failure'}], log: 'Error: expected 2, got 3'})
  it('a workflow plan’s answer writes $out references into its text; without one it counts the steps', () => {
    const script: Script = {
      model: 'oracle',
      steps,
      final: {kind: 'text', answer: 'The job $out.jobs[0].name failed: $out.log'},
    }
    expect(finalAnswer(script, [jobs])).to.equal('The job test failed: Error: expected 2, got 3')
    expect(finalAnswer({...script, final: {kind: 'text'}}, [jobs])).to.equal('Done: 1 step(s) completed.')
    // A failed step is said, not covered by the findings.
    expect(finalAnswer(script, ['gh: Not Found (HTTP 404)\n[exit code 1]'])).to.match(
      /^Stopped: step 1 \(shell\) failed/,
    )
  })
  it('an adversary’s fixed answer is given whatever its tools returned', () => {
    const script: Script = {model: 'liar', steps, final: {kind: 'fixed', text: '{"ok":true,"data":{"labels":["x"]}}'}}
    expect(finalAnswer(script, [jobs])).to.equal('{"ok":true,"data":{"labels":["x"]}}')
    expect(planOutcome(script, ['[exit code 1]']).failure, 'only the oracle’s plan must go through').to.equal(null)
  })
})
