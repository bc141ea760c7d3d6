/** The Pix copy-and-paste string is a valid dynamic BR Code, and the PNG at qrCodeImageUrl decodes to it. */
import { getPixPayloadInfo } from '@brazilian-utils/brazilian-utils/get-pix-payload-info'
import { isValidPixPayload } from '@brazilian-utils/brazilian-utils/is-valid-pix-payload'
import jsqrModule from 'jsqr'
import { PNG } from 'pngjs'
import { describe, expect, it } from 'vitest'
import { errorOf, send, useHarness } from '../../../helpers/conformance.js'

// jsqr is CommonJS: its module.exports is the function (typed as an ES default export).
const jsQR = ((jsqrModule as unknown as { default?: typeof jsqrModule }).default ?? jsqrModule) as unknown as typeof jsqrModule.default

const h = useHarness()

/** CRC16-CCITT-FALSE (poly 0x1021, init 0xFFFF), computed here independently of the library. */
function crc16(text: string): string {
  let crc = 0xffff
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
  }
  return crc.toString(16).toUpperCase().padStart(4, '0')
}

/** Top-level EMV TLVs: id (2), length (2), value; throws when a length is off. */
function tlvs(payload: string): Map<string, string> {
  const out = new Map<string, string>()
  for (let i = 0; i < payload.length; ) {
    const id = payload.slice(i, i + 2)
    const len = Number(payload.slice(i + 2, i + 4))
    if (!/^\d{2}$/.test(payload.slice(i + 2, i + 4)) || i + 4 + len > payload.length) throw new Error(`bad TLV at ${i}`)
    out.set(id, payload.slice(i + 4, i + 4 + len))
    i += 4 + len
  }
  return out
}

describe('BR Code', () => {
  it('is a valid dynamic Pix BR Code with correct lengths and CRC16-CCITT-FALSE', async () => {
    const c = (await h.create({ amountInCents: 12_345 })).body
    const code: string = c.pix.qrCode
    expect(isValidPixPayload(code)).toBe(true)
    const info = getPixPayloadInfo(code)
    expect(info).toMatchObject({ pointOfInitiation: 'dynamic', merchantName: expect.any(String), merchantCity: expect.any(String) })
    expect(info!.url).toContain(c.id)
    expect(info!.url!.length).toBeLessThanOrEqual(77)

    const fields = tlvs(code)
    expect(fields.get('00')).toBe('01')
    expect(fields.get('01')).toBe('12')
    expect(fields.get('53')).toBe('986')
    expect(fields.get('58')).toBe('BR')
    expect(code.slice(-8, -4)).toBe('6304')
    expect(code.slice(-4)).toBe(crc16(code.slice(0, -4)))

    const broken = code.slice(0, -5) + (code.at(-5) === '0' ? '1' : '0') + code.slice(-4)
    expect(isValidPixPayload(broken)).toBe(false)
  })

  it('differs per charge', async () => {
    const a = (await h.create()).body.pix.qrCode
    const b = (await h.create()).body.pix.qrCode
    expect(a).not.toBe(b)
  })
})

describe('QR image', () => {
  it('serves a PNG at pix.qrCodeImageUrl, without a key, that decodes to pix.qrCode', async () => {
    const c = (await h.create()).body
    expect(c.pix.qrCodeImageUrl).toBe(`${h.sb.baseUrl}/qr/${c.id}.png`)
    const r = await send(c.pix.qrCodeImageUrl, 'GET', {})
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('image/png')
    const png = PNG.sync.read(r.body as Buffer)
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)
    expect(decoded?.data).toBe(c.pix.qrCode)
  })

  it('answers 404 charge_not_found in the error shape for an unknown charge', async () => {
    const r = await send(`${h.sb.baseUrl}/qr/ffffffffffffffffffffffff.png`, 'GET', {})
    expect(r.status).toBe(404)
    expect(errorOf(r).code).toBe('charge_not_found')
  })
})
