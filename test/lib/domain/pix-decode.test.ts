import { describe, expect, it } from 'vitest'
import { decodePix, MAX_BRCODE_LENGTH } from '../../../src/lib/domain/pix-decode.js'
import { brCodeFor, MERCHANT_CITY, MERCHANT_NAME, pixLocation } from '../../../src/lib/sandbox/engine/brcode.js'

const CODE = brCodeFor('0123456789abcdef01234567')

describe('svc pix decode', () => {
  it('reads a dynamic BR Code: its PSP location, merchant and CRC', () => {
    const d = decodePix(CODE)
    expect(d).toMatchObject({ valid: true, kind: 'dynamic', merchantName: MERCHANT_NAME, merchantCity: MERCHANT_CITY, crc: CODE.slice(-4) })
    expect(d.valid && d.url).toContain(pixLocation('0123456789abcdef01234567'))
  })

  it('refuses a changed code by its CRC, and says why', () => {
    const changed = CODE.replace(MERCHANT_NAME, MERCHANT_NAME.replace('Loja', 'Lojo'))
    const d = decodePix(changed)
    expect(d.valid).toBe(false)
    expect(!d.valid && d.reason).toBe('crc_mismatch')
  })

  it('refuses an empty code and one over the EMV limit before reading it', () => {
    expect(decodePix('')).toMatchObject({ valid: false, reason: 'empty' })
    expect(decodePix('0'.repeat(MAX_BRCODE_LENGTH + 1))).toMatchObject({ valid: false, reason: 'too_long' })
  })
})
