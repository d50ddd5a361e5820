// The plugin kit's testers fail where a plugin is wrong, listing every problem at once, and pass a
// plugin that is right; the built-ins' own tests use them (test/plugins).
import {expect} from 'chai'
import type {Condition, Mode, ModeContext, ModeSession} from 'ghx-bench'
import {PluginTestError, testCondition, testMode} from 'ghx-bench/plugin-kit'

const startsWith: Condition<{path?: string; prefix: string}> = {
  name: 'starts_with',
  paramsSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['prefix'],
    properties: {path: {type: 'string'}, prefix: {type: 'string', minLength: 1}},
  },
  evaluate(actual, {prefix}) {
    const passed = typeof actual === 'string' && actual.startsWith(prefix)
    return {
      passed,
      expected: `starts with ${prefix}`,
      actual,
      message: `${JSON.stringify(actual)} ${passed ? 'starts' : 'does not start'} with ${prefix}`,
    }
  },
}

function problemsOf(run: () => unknown): string[] {
  try {
    run()
  } catch (error) {
    expect(error).to.be.instanceOf(PluginTestError)
    return (error as PluginTestError).problems
  }
  throw new Error('expected a PluginTestError')
}

async function problemsOfAsync(run: () => Promise<unknown>): Promise<string[]> {
  try {
    await run()
  } catch (error) {
    expect(error, String(error)).to.be.instanceOf(PluginTestError)
    return (error as PluginTestError).problems
  }
  throw new Error('expected a PluginTestError')
}

describe('plugin kit: testCondition', () => {
  it('passes a condition whose cases hold, and returns their results', () => {
    const results = testCondition(startsWith, [
      {
        actual: '[bug] crash',
        params: {prefix: '[bug]'},
        passed: true,
        message: '"[bug] crash" starts with [bug]',
        expected: 'starts with [bug]',
      },
      {actual: 'crash', params: {prefix: '[bug]'}, passed: false, message: /does not start/},
      {params: {prefix: ''}, refused: true},
    ])
    expect(results.map((r) => r.passed)).to.deep.equal([true, false])
  })

  it('lists every case that does not hold: verdict, message, expected, params the schema refuses or accepts, a throw', () => {
    const throwing: Condition<{prefix: string}> = {
      ...startsWith,
      name: 'throws_on_null',
      evaluate: (actual, params, context) =>
        actual === null
          ? (() => {
              throw new Error('null!')
            })()
          : startsWith.evaluate(actual, params, context),
    }
    const problems = problemsOf(() =>
      testCondition(throwing, [
        {name: 'wrong verdict', actual: 'crash', params: {prefix: '[bug]'}, passed: true},
        {name: 'wrong message', actual: '[bug] x', params: {prefix: '[bug]'}, passed: true, message: 'something else'},
        {name: 'wrong expected', actual: '[bug] x', params: {prefix: '[bug]'}, passed: true, expected: '[bug]'},
        {name: 'refused params', actual: 'x', params: {prefix: 3} as never, passed: false},
        {name: 'accepted params', params: {prefix: 'ok'}, refused: true},
        {name: 'throws', actual: null, params: {prefix: 'a'}, passed: false},
      ]),
    )
    expect(problems).to.deep.equal([
      'wrong verdict: failed, expected to pass (message: "crash" does not start with [bug])',
      'wrong message: message "\\"[bug] x\\" starts with [bug]", expected "something else"',
      'wrong expected: expected is "starts with [bug]", wanted "[bug]"',
      'refused params: params {"prefix":3} are refused by paramsSchema: /prefix must be string',
      'accepted params: params {"prefix":"ok"} were accepted by paramsSchema, expected refused',
      'throws: evaluate threw: null!',
    ])
  })

  it('refuses a condition the loader would refuse, with the loader’s words, and one whose results are malformed', () => {
    expect(problemsOf(() => testCondition({name: 'Bad Name', evaluate: () => null} as never, []))).to.deep.equal([
      'conditions[0] "Bad Name" needs a name of lower-case letters, digits, _ and -',
      'conditions[0] "Bad Name" needs paramsSchema (a JSON Schema object)',
    ])
    const malformed = {...startsWith, name: 'malformed', evaluate: () => ({passed: 'yes'})} as unknown as Condition
    expect(
      problemsOf(() => testCondition(malformed, [{actual: 1, params: {prefix: 'a'}, passed: true}])),
    ).to.deep.equal(['case 1: evaluate returned {"passed":"yes"}, not {passed, expected, actual, message}'])
  })
})

/** A mode of one in-memory tool (`echo`), and whatever the test breaks in it. */
function echoMode(overrides: Partial<Mode> = {}, session: Partial<ModeSession> = {}): Mode {
  return {
    name: 'echo',
    optionsSchema: {type: 'object', additionalProperties: false, properties: {loud: {type: 'boolean'}}},
    available: () => Promise.resolve({available: true, tools: {echo: '1.0.0'}}),
    open: (context) =>
      Promise.resolve({
        instructions: 'Echo things.',
        tools: [
          {
            name: 'echo',
            description: 'say it back',
            inputSchema: {type: 'object', properties: {text: {type: 'string'}}},
          },
        ],
        env: {ECHO_HOME: context.workdir},
        call(tool, args) {
          if (tool !== 'echo') return Promise.resolve({ok: false, output: `no tool ${tool}`})
          const text = String(args.text)
          return Promise.resolve({ok: true, output: context.options.loud ? text.toUpperCase() : text})
        },
        close: () => Promise.resolve(),
        ...session,
      }),
    ...overrides,
  }
}

const context = (options: Record<string, unknown> = {}): ModeContext => ({
  options,
  workdir: '/tmp/echo',
  github: {apiUrl: 'http://127.0.0.1:1', graphqlUrl: 'http://127.0.0.1:1/graphql', token: 't', env: {}, nodeEnv: {}},
})

describe('plugin kit: testMode', () => {
  it('passes a mode that keeps the contract, and reports what it saw', async () => {
    const report = await testMode(echoMode(), context({loud: true}), {
      tools: ['echo'],
      calls: [{tool: 'echo', args: {text: 'hi'}, output: 'HI'}],
    })
    expect(report).to.deep.include({
      instructions: 'Echo things.',
      env: {ECHO_HOME: '/tmp/echo'},
      mcpServers: [],
      calls: [{ok: true, output: 'HI'}],
    })
    expect(report.availability).to.deep.equal({available: true, tools: {echo: '1.0.0'}})
  })

  it('lists every problem of a session: its declared shape, its tools, its answers, and a close that throws', async () => {
    let closed = false
    const broken = echoMode(
      {},
      {
        instructions: '',
        tools: [
          {name: 'echo', description: 'say it back', inputSchema: {type: 'object'}},
          {name: 'echo', description: 'twice', inputSchema: {type: 'object'}},
          {name: 'bad name!', description: 'x', inputSchema: {type: 'string'}},
        ],
        env: {N: 1 as never},
        mcpServers: [{name: 'both', command: 'x', url: 'http://y'}],
        call(tool) {
          if (tool !== 'echo') return Promise.reject(new Error('no such tool'))
          return Promise.resolve({ok: true, output: 'hi'})
        },
        close: () => {
          closed = true
          return Promise.reject(new Error('stuck'))
        },
      },
    )
    // The declared shape is checked first: a session that breaks it is not called.
    expect(await problemsOfAsync(() => testMode(broken, context(), {calls: [{tool: 'echo', args: {}}]}))).to.deep.equal(
      [
        'session.instructions must be a non-empty string: the agent’s system instructions',
        'session.tools[1] "echo" is offered twice',
        'session.tools[2] "bad name!" needs a name of letters, digits, _ and - (at most 64): models call tools by it',
        'session.tools[2] "bad name!" needs an inputSchema of type object (the arguments object a model sends)',
        'session.env must be an object of strings: the environment of the session’s processes',
        'session.mcpServers[0] needs a command (stdio) or a url (streamable HTTP), one of them',
        'close threw: stuck',
      ],
    )
    expect(closed).to.equal(true)
    const answers = echoMode(
      {},
      {
        call(tool) {
          if (tool !== 'echo') return Promise.reject(new Error('no such tool'))
          return Promise.resolve({ok: true, output: 'hi'})
        },
      },
    )
    expect(
      await problemsOfAsync(() =>
        testMode(answers, context(), {
          tools: ['echo', 'shell'],
          calls: [
            {tool: 'echo', args: {}, output: 'bye'},
            {tool: 'echo', args: {}, ok: false},
          ],
        }),
      ),
    ).to.deep.equal([
      'the session offers ["echo"], expected ["echo","shell"]',
      'a tool the session does not offer threw: no such tool (answer {ok: false, output: why})',
      'call 1 (echo {}) answered "hi", expected "bye"',
      'call 2 (echo {}) answered ok: true, expected false: "hi"',
    ])
  })

  it('stops at what comes before a session: the loader’s shape checks, options its schema refuses, a mode not available', async () => {
    expect(
      await problemsOfAsync(() => testMode({name: 'x', optionsSchema: {type: 'object'}} as never, context())),
    ).to.deep.equal(['modes[0] "x" needs a function "available"', 'modes[0] "x" needs a function "open"'])
    expect(await problemsOfAsync(() => testMode(echoMode(), context({loud: 'yes'})))).to.deep.equal([
      'options {"loud":"yes"} are refused by optionsSchema: /loud must be boolean',
    ])
    const unavailable = echoMode({
      available: () => Promise.resolve({available: false, reason: 'echo not found: apt-get install echo'}),
    })
    expect(await problemsOfAsync(() => testMode(unavailable, context()))).to.deep.equal([
      'not available: echo not found: apt-get install echo',
    ])
    const unaccountable = echoMode({
      accounting: {programs: ['gh'], category: 'shell', account: () => ({operations: []})},
    })
    expect(await problemsOfAsync(() => testMode(unaccountable, context()))).to.deep.equal([
      'modes[0] "echo" lists gh in accounting.programs: ghx-bench counts gh itself',
      'modes[0] "echo" has accounting.category "shell", which ghx-bench\'s own accounting uses: name the layer\'s (gh_cli, mcp_tool, shell, other are taken)',
    ])
  })
})
