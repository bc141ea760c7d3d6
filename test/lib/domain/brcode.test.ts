import { describe, expect, it } from 'vitest'
import { generatePixPayload } from '@brazilian-utils/brazilian-utils/generate-pix-payload'
import { crc16, parseBrCode } from '../../../src/lib/domain/brcode.js'
import { brCodeFor } from '../../../src/lib/sandbox/brcode.js'

describe('reading a BR Code', () => {
  it("reads the sandbox's dynamic code: merchant, city and the location naming the charge", () => {
    const r = parseBrCode(brCodeFor('0123456789abcdef01234567'))
    expect(r).toEqual({ ok: true, code: expect.objectContaining({ merchantName: 'Loja Sandbox SVC', merchantCity: 'Sao Paulo', location: 'pix.sandbox.svc.local/qr/v2/0123456789abcdef01234567' }) })
  })

  it("reads a static code's key and amount", () => {
    const text = generatePixPayload({ key: 'pix@example.com', merchantName: 'Loja', merchantCity: 'Rio', amount: 15, txid: 'abc' })!
    expect(parseBrCode(text)).toMatchObject({ ok: true, code: { key: 'pix@example.com', amountInCents: 1500 } })
    expect(crc16('123456789')).toBe('29B1')
  })

  it('refuses a changed or cut string, saying why', () => {
    const good = brCodeFor('0123456789abcdef01234567')
    const changed = good.replace('Loja', 'Lojo')
    expect(parseBrCode(changed)).toMatchObject({ ok: false, reason: expect.stringContaining('CRC does not match') })
    expect(parseBrCode(good.slice(0, -3))).toMatchObject({ ok: false, reason: expect.stringContaining('no CRC') })
    expect(parseBrCode('hello')).toMatchObject({ ok: false, reason: expect.stringContaining('not a Pix copy-and-paste') })
  })
})
