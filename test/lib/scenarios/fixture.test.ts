import { describe, expect, it } from 'vitest'
import { applyOverride, jsonErrorOffset, parseFixture, parseOverride, resolveRefs } from '../../../src/lib/scenarios/fixture.js'
import { InputValueError } from '../../../src/lib/errors.js'

describe('fixture files', () => {
  it('a syntax error names the line and column where the text breaks', () => {
    const text = '{\n  "steps": [\n    { "name": "a", "clock": "1h" },\n  ]\n}\n'
    expect(() => parseFixture(text, 'f.json')).toThrow(/^f\.json:4:3: not valid JSON \(line 4, column 3\)/)
    expect(() => parseFixture('{"steps": [}', 'g.json')).toThrow(/g\.json:1:12/)
    expect(() => parseFixture('', 'e.json')).toThrow(/e\.json:1:1/)
  })

  it('finds the first bad character, and nothing in valid JSON', () => {
    expect(jsonErrorOffset('{"a": [1, 2.5e3, -0, "x\\u00e9", true, null]}')).toBeUndefined()
    expect(jsonErrorOffset('{"a": 01}')).toBe(7)
    expect(jsonErrorOffset('{"a" 1}')).toBe(5)
    expect(jsonErrorOffset('[1] x')).toBe(4)
    expect(jsonErrorOffset('"tab\there"')).toBe(4)
  })

  it('a duplicate step name is refused naming the step', () => {
    expect(() =>
      parseFixture(
        JSON.stringify({
          steps: [
            { name: 'a', clock: '1h' },
            { name: 'a', clock: '2h' },
          ],
        }),
        'd.json',
      ),
    ).toThrow('d.json: step 2 "a": the name is already used by an earlier step')
  })
})

describe('--override', () => {
  it('keeps the type the fixture holds: numbers stay numbers, text stays text, absent fields are text', () => {
    const body: Record<string, unknown> = { amountInCents: 1500, metadata: { source: 'x' }, description: 'd' }
    applyOverride(body, parseOverride('amountInCents=2500'), 'step')
    applyOverride(body, parseOverride('metadata.order=42'), 'step')
    applyOverride(body, parseOverride('description=007'), 'step')
    applyOverride(body, parseOverride('payer:={"a":1}'), 'step', ['payer'])
    expect(body).toEqual({ amountInCents: 2500, metadata: { source: 'x', order: '42' }, description: '007', payer: { a: 1 } })
  })

  it('refuses what it cannot read, naming the input by its path (each door says it in its own words)', () => {
    expect(() => parseOverride('amountInCents')).toThrow('override amountInCents: expected path=value')
    const refused = (() => {
      try {
        parseOverride('amountInCents')
      } catch (e) {
        return e
      }
    })()
    expect(refused).toBeInstanceOf(InputValueError)
    expect(refused).toMatchObject({ path: 'override', value: 'amountInCents', exitCode: 2 })
    expect((refused as InputValueError).named('--override')).toMatch(/^--override amountInCents: expected path=value/)
    expect(() => parseOverride('a..b=1')).toThrow(/expected path=value/)
    expect(() => applyOverride({ amountInCents: 1 }, parseOverride('amountInCents=lots'), 'step 1 "create"')).toThrow('step 1 "create" field amountInCents holds number, and "lots" is not valid JSON')
    expect(() => applyOverride({ description: 'x' }, parseOverride('description.more=1'), 'step')).toThrow('field description is not an object')
  })

  it('a field neither the fixture nor the request knows is refused, naming the nearest (issue 24 item 9)', () => {
    const body = { amountInCents: 1500, metadata: { source: 'x' } }
    expect(() => applyOverride(body, parseOverride('amountIncents=2500'), 'step 1 "charge"', ['externalId'])).toThrow(
      'override amountIncents=2500: step 1 "charge" has no field amountIncents (did you mean amountInCents?)',
    )
    expect(() => applyOverride(body, parseOverride('nosuch=1'), 'step', [])).toThrow('has no field nosuch')
    expect(body).toEqual({ amountInCents: 1500, metadata: { source: 'x' } })
    applyOverride(body, parseOverride('externalId=order-1'), 'step', ['externalId'])
    applyOverride(body, parseOverride('metadata.order=42'), 'step', [])
    expect(body).toEqual({ amountInCents: 1500, metadata: { source: 'x', order: '42' }, externalId: 'order-1' })
  })
})

describe('references', () => {
  const answers = new Map<string, unknown>([['create', { id: 'abc', amount: { grossInCents: 1500 } }]])
  it('a whole-string reference keeps the value; inside text it is written in', () => {
    expect(resolveRefs({ n: '${create.amount.grossInCents}', p: '/v1/charges/${create.id}/cancel', l: ['${create.id}'] }, answers, 'w')).toEqual({ n: 1500, p: '/v1/charges/abc/cancel', l: ['abc'] })
  })
})
