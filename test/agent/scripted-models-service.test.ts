import {expect} from 'chai'
import {countTokens} from 'gpt-tokenizer'
import {openScriptedModels} from '../../src/agent/scripted-models-service.js'
import type {Script} from '../../src/agent/scripted-models.js'

const TOOLS = [{type: 'function', function: {name: 'shell', description: 'run', parameters: {type: 'object'}}}]
const plan: Script = {
  model: 'oracle',
  steps: [{tool: 'shell', args: {command: 'gh issue view 1'}}],
  final: {kind: 'text'},
}

async function post(baseUrl: string, body: unknown): Promise<Response> {
  return fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: {'content-type': 'application/json'},
    body: JSON.stringify(body),
  })
}

describe('the scripted models in their own process (scripted-models-service)', () => {
  it('plays a run’s plan, reports its outcome, and forgets the run once released', async () => {
    const models = await openScriptedModels()
    const run = await models.register(plan)
    const reply = (await (
      await post(run.baseUrl, {model: 'oracle', messages: [{role: 'user', content: 'go'}], tools: TOOLS})
    ).json()) as {choices: Array<{finish_reason: string}>}
    expect(reply.choices[0]!.finish_reason).to.equal('tool_calls')
    const messages = [
      {role: 'user', content: 'go'},
      {role: 'tool', tool_call_id: 'c1', content: 'gh: Not Found (HTTP 404)\n[exit code 1]'},
    ]
    await post(run.baseUrl, {model: 'oracle', messages, tools: TOOLS})
    const report = await run.report()
    expect(report.injectedFaults).to.equal(0)
    expect(report.plan.failure).to.include({step: 1, tool: 'shell'})
    await run.release()
    expect((await post(run.baseUrl, {messages: [], tools: TOOLS})).status).to.equal(404)
    const error = await run.report().then(
      () => undefined,
      (e: Error) => e,
    )
    expect(error?.message).to.equal(`no scripted run at ${run.baseUrl}`)
    await models.close()
  })

  it('counts tokens with o200k in the service', async () => {
    const models = await openScriptedModels()
    const text = JSON.stringify(TOOLS)
    expect(await models.countTokens(text)).to.equal(countTokens(text))
    await models.close()
  })

  it('serves every suite from one process, each suite with its own seeded fault stream', async () => {
    const first = await openScriptedModels({rate: 0.5, seed: 7})
    const second = await openScriptedModels({rate: 0.5, seed: 7})
    const calm = await openScriptedModels()
    const statuses = async (session: typeof first) => {
      const run = await session.register(plan)
      const seen: number[] = []
      // One after another: the stream's draws are in request order.
      for (let i = 0; i < 30; i++) seen.push((await post(run.baseUrl, {messages: [], tools: TOOLS})).status)
      const {injectedFaults} = await run.report()
      expect(injectedFaults).to.equal(seen.filter((s) => s === 503).length)
      return seen
    }
    const a = await statuses(first)
    const b = await statuses(second)
    expect(a.filter((s) => s === 503).length).to.be.within(5, 25)
    // The same seed gives a suite the same faults, whatever another suite drew before.
    expect(b).to.deep.equal(a)
    expect(await statuses(calm)).to.deep.equal(Array.from({length: 30}, () => 200))
    expect(new URL((await first.register(plan)).baseUrl).port).to.equal(
      new URL((await calm.register(plan)).baseUrl).port,
    )
    await Promise.all([first.close(), second.close(), calm.close()])
  })
})
