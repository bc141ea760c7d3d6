/** `toYaml` (svc openapi --yaml): any JSON value reads back the same with a YAML 1.2 parser. */
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { buildOpenApiDocument } from '../../../src/lib/contract/openapi.js'
import { toYaml } from '../../../src/lib/output/yaml.js'

describe('toYaml', () => {
  it('writes the OpenAPI document so that it parses back to the same object', () => {
    const doc = buildOpenApiDocument()
    expect(parse(toYaml(doc))).toEqual(JSON.parse(JSON.stringify(doc)))
  })

  it('quotes what YAML would read as something else (numbers, booleans, null, keys that are numbers)', () => {
    const value = {
      '200': 'yes',
      on: 'off',
      n: 'null',
      s: '1e3',
      t: '',
      u: '#x',
      v: '- a',
      w: 'a: b',
      x: [[], {}, [1, ['a']]],
      y: null,
      z: 'é\n\t"',
      a: 'two words',
      b: 'trailing ',
      c: 'a #b',
      d: "it's (x, y)",
      e: 'No',
      f: '~',
    }
    expect(parse(toYaml(value))).toEqual(value)
  })

  test.prop([fc.jsonValue({ maxDepth: 3 })], { numRuns: 300 })('any JSON value round-trips', (value) => {
    const json = JSON.parse(JSON.stringify(value))
    expect(parse(toYaml(json))).toEqual(json)
  })

  test.prop([fc.array(fc.string({ unit: fc.constantFrom(...'aZ_/ .,()\'-:#"[]{}!&*?|>%@`'.split('')), maxLength: 8 }))], { numRuns: 500 })(
    'strings made of the characters YAML gives a meaning to round-trip',
    (value) => {
      expect(parse(toYaml({ value }))).toEqual({ value })
    },
  )
})
