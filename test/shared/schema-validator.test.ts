import {expect} from 'chai'
import {configSchema} from '../../src/config/schema.js'
import {scenarioSchema} from '../../src/schemas/scenario.js'
import {applyDefaults, checkCompiles, compileSchema, newAjv} from '../../src/shared/schema-validator.js'

describe('the defaults pass (applyDefaults)', () => {
  const schema = {
    type: 'object',
    properties: {
      name: {type: 'string'},
      count: {type: 'integer', default: 1},
      timeouts: {
        type: 'object',
        default: {},
        properties: {run_ms: {type: 'integer', default: 60000}, stall_ms: {type: 'integer'}},
      },
      steps: {type: 'array', items: {type: 'object', properties: {retries: {type: 'integer', default: 0}}}},
      prices: {
        type: 'object',
        additionalProperties: {type: 'object', properties: {cache: {type: 'number', default: 0}}},
      },
    },
  }

  it('fills what is missing, inside an object a default of {} creates, and leaves what is given', () => {
    expect(applyDefaults(schema, {name: 'x'})).to.deep.equal({name: 'x', count: 1, timeouts: {run_ms: 60000}})
    expect(applyDefaults(schema, {count: 3, timeouts: {stall_ms: 5}})).to.deep.equal({
      count: 3,
      timeouts: {stall_ms: 5, run_ms: 60000},
    })
    expect(applyDefaults(schema, {timeouts: {run_ms: 1000}})).to.deep.equal({count: 1, timeouts: {run_ms: 1000}})
  })

  it('walks array items and the values of a map', () => {
    expect(applyDefaults(schema, {steps: [{}, {retries: 2}], prices: {a: {}, b: {cache: 3}}})).to.deep.include({
      steps: [{retries: 0}, {retries: 2}],
      prices: {a: {cache: 0}, b: {cache: 3}},
    })
  })

  it('follows the branch a discriminator selects', () => {
    const tagged = {
      type: 'object',
      discriminator: {propertyName: 'type'},
      oneOf: [
        {type: 'object', properties: {type: {const: 'a'}, size: {type: 'integer', default: 1}}},
        {type: 'object', properties: {type: {const: 'b'}, colour: {type: 'string', default: 'red'}}},
      ],
    }
    expect(applyDefaults(tagged, {type: 'b'})).to.deep.equal({type: 'b', colour: 'red'})
    expect(applyDefaults(tagged, {type: 'a'})).to.deep.equal({type: 'a', size: 1})
  })

  it('copies: neither the value nor the schema’s defaults are changed', () => {
    const value = {timeouts: {}}
    const filled = applyDefaults(schema, value)
    ;(filled.timeouts as {run_ms: number}).run_ms = 5
    expect(value).to.deep.equal({timeouts: {}})
    expect(applyDefaults(schema, {})).to.deep.include({timeouts: {run_ms: 60000}})
  })
})

describe('validators compiled ahead (schema-validators.generated.ts)', () => {
  // A scenario with a bit of everything wrong: unknown keys, a bad enum, a wrong type, a missing key.
  const bad = {
    type: 'atomic',
    id: 'Issue_View',
    name: '',
    task: 'issue.view',
    input: {},
    timeout_ms: 'soon',
    colour: 'red',
    assertions: {expected_outcome: 'maybe', checkpoints: [{name: 'x', verification_task: 1}]},
  }

  it('is what compileSchema finds for a schema of the same content, and reports what ajv would', () => {
    const ahead = compileSchema(scenarioSchema)
    // ajv's own compiled functions carry their schema environment; the standalone code does not.
    expect(ahead).not.to.have.property('schemaEnv')
    const compiled = newAjv(true).compile(scenarioSchema)
    expect(ahead(bad)).to.equal(false)
    expect(compiled(bad)).to.equal(false)
    expect(ahead.errors).to.have.length.above(3)
    expect(ahead.errors).to.deep.equal(compiled.errors)
  })

  it('a schema not among them (changed since, or a third party’s) is compiled at run time', () => {
    // Without its $id: the shared ajv of this process keeps every $id it compiled.
    const {$id: _id, ...rest} = configSchema
    const changed = {...rest, description: `${configSchema.description} (changed)`}
    const validate = compileSchema(changed)
    expect(validate).to.have.property('schemaEnv')
    expect(validate({target: 'elsewhere'})).to.equal(false)
    expect(() => checkCompiles({type: 'strin'})).to.throw(/schema is invalid/)
    expect(() => checkCompiles(scenarioSchema)).not.to.throw()
  })
})
