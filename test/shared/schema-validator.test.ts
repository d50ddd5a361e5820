import {expect} from 'chai'
import {applyDefaults} from '../../src/shared/schema-validator.js'

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
