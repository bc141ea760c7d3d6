import { generatePixPayload } from '@brazilian-utils/brazilian-utils/generate-pix-payload'
import { describe, expect, it } from 'vitest'
import { crc16 } from '../../../src/lib/domain/brcode.js'
import { decodePix } from '../../../src/lib/domain/pix-decode.js'
import { brCodeFor } from '../../../src/lib/sandbox/engine/brcode.js'

describe('reading a BR Code', () => {
  it('CRC16-CCITT-FALSE of the check string', () => {
    expect(crc16('123456789')).toBe('29B1')
  })

  it("reads the sandbox's dynamic code: merchant, city and the location naming the charge", () => {
    expect(decodePix(brCodeFor('0123456789abcdef01234567'))).toMatchObject({
      valid: true,
      kind: 'dynamic',
      merchantName: 'Loja Sandbox SVC',
      merchantCity: 'Sao Paulo',
      url: 'pix.sandbox.svc.local/qr/v2/0123456789abcdef01234567',
    })
  })

  it("reads a static code's key and amount", () => {
    const text = generatePixPayload({ key: 'pix@example.com', merchantName: 'Loja', merchantCity: 'Rio', amount: 15, txid: 'abc' })!
    expect(decodePix(text)).toMatchObject({ valid: true, key: 'pix@example.com', amountInCents: 1500 })
  })
})
