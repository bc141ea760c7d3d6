/**
 * `svc pix decode` against the codes the sandbox hands out (sandbox/engine/brcode.ts, built with
 * @brazilian-utils): every one decodes valid with the right fields, and changing any single
 * character of it, to any other character, is refused.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodePix } from '../../src/lib/domain/pix-decode.js'
import { brCodeFor, MERCHANT_CITY, MERCHANT_NAME, pixLocation } from '../../src/lib/sandbox/engine/brcode.js'

const chargeId = fc.stringMatching(/^[0-9a-f]{24}$/)

describe('decodePix on the sandbox codes', () => {
  it('every generated code is valid, dynamic, with the merchant, city, location and CRC', () => {
    fc.assert(
      fc.property(chargeId, (id) => {
        const code = brCodeFor(id)
        expect(decodePix(code)).toEqual({ valid: true, kind: 'dynamic', merchantName: MERCHANT_NAME, merchantCity: MERCHANT_CITY, url: pixLocation(id), crc: code.slice(-4) })
      }),
      { numRuns: 300 },
    )
  })

  it('any single-character change is refused', () => {
    // Replacements: printable ASCII most of the time, sometimes anything (accents, emoji, controls).
    const replacement = fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
    )
    fc.assert(
      fc.property(chargeId, fc.nat(), replacement, (id, at, ch) => {
        const code = brCodeFor(id)
        const i = at % code.length
        fc.pre(code[i] !== ch)
        const changed = code.slice(0, i) + ch + code.slice(i + 1)
        const result = decodePix(changed)
        expect(result.valid, `${changed} (position ${i + 1})`).toBe(false)
      }),
      { numRuns: 2000 },
    )
  })
})
