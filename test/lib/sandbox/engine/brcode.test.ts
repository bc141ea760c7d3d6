import { describe, expect, it } from 'vitest'
import { brCodeFor, MERCHANT_NAME, pixLocation, qrImagePath, qrPng } from '../../../../src/lib/sandbox/engine/brcode.js'

const ID = '0123456789abcdef01234567'

describe('a sandbox charge’s Pix copy-and-paste code', () => {
  it('is a dynamic BR Code: the payload format, the PSP location with the charge id, the merchant, and a CRC', () => {
    const code = brCodeFor(ID)
    expect(code.startsWith('000201')).toBe(true)
    expect(code).toContain(pixLocation(ID))
    expect(pixLocation(ID)).not.toMatch(/:\d+\//)
    expect(code).toContain(MERCHANT_NAME)
    expect(code).toMatch(/6304[0-9A-F]{4}$/)
    // Dynamic: no amount field (54) before the merchant fields; the payer's bank reads it from the location.
    expect(code).not.toMatch(/5303986540/)
  })

  it('is the same for the same charge and different for another', () => {
    expect(brCodeFor(ID)).toBe(brCodeFor(ID))
    expect(brCodeFor(ID)).not.toBe(brCodeFor('f'.repeat(24)))
  })

  it('has a QR image: a PNG at the charge’s path', async () => {
    expect(qrImagePath(ID)).toBe(`/qr/${ID}.png`)
    const png = await qrPng(brCodeFor(ID))
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  })
})
