import { describe, expect, it } from 'vitest'
import { parseMatchRule, routes, valueAt } from '../../../src/lib/relay/routing.js'

const event = { id: 'evt_1', type: 'charge.paid', data: { charge: { externalId: 'alice-42', amount: 1500, metadata: { dev: 'alice' } } } }

describe('relay routing', () => {
  it('--only: exact types and prefix.* patterns; none = every type', () => {
    expect(routes({ only: [], match: [] }, 'charge.paid', event)).toBe(true)
    expect(routes({ only: ['charge.*'], match: [] }, 'charge.paid', event)).toBe(true)
    expect(routes({ only: ['charge.expired'], match: [] }, 'charge.paid', event)).toBe(false)
    expect(routes({ only: ['charge.*'], match: [] }, undefined, event)).toBe(false)
  })

  it('--match: a glob on a dotted path of the body, every rule must hold', () => {
    expect(routes({ only: [], match: [{ path: 'data.charge.externalId', glob: 'alice-*' }] }, 'charge.paid', event)).toBe(true)
    expect(routes({ only: [], match: [{ path: 'data.charge.externalId', glob: 'bob-*' }] }, 'charge.paid', event)).toBe(false)
    expect(
      routes(
        {
          only: [],
          match: [
            { path: 'data.charge.metadata.dev', glob: 'alice' },
            { path: 'data.charge.amount', glob: '15?0' },
          ],
        },
        'charge.paid',
        event,
      ),
    ).toBe(true)
    expect(routes({ only: [], match: [{ path: 'data.charge.missing', glob: '*' }] }, 'charge.paid', event)).toBe(false)
    // Glob metacharacters of regular expressions are literal.
    expect(routes({ only: [], match: [{ path: 'data.charge.externalId', glob: 'alice.42' }] }, 'charge.paid', event)).toBe(false)
    expect(routes({ only: [], match: [{ path: 'data.charge.externalId', glob: '*' }] }, 'charge.paid', undefined)).toBe(false)
  })

  it('reads no inherited property', () => {
    expect(valueAt({}, 'constructor')).toBeUndefined()
    expect(valueAt({ a: { b: [1] } }, 'a.b')).toBeUndefined()
  })

  it('parses PATH=GLOB or says why not', () => {
    expect(parseMatchRule('data.charge.externalId=alice-*')).toEqual({ path: 'data.charge.externalId', glob: 'alice-*' })
    expect(parseMatchRule('a=b=c')).toEqual({ path: 'a', glob: 'b=c' })
    for (const bad of ['nothing', '=x', 'a.=x', 'a=']) expect(typeof parseMatchRule(bad)).toBe('string')
  })
})
