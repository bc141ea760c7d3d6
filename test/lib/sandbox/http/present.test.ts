import { describe, expect, it } from 'vitest'
import { presentCharge } from '../../../../src/lib/sandbox/http/present.js'
import { charge } from '../../../helpers/api-fixtures.js'

describe('a charge as the sandbox answers it', () => {
  it('points its QR image at the sandbox’s current address, which may change on restart', () => {
    let base = 'http://127.0.0.1:4010'
    const c = charge()
    const deps = { baseUrl: () => base }
    expect(presentCharge(deps, c).pix.qrCodeImageUrl).toBe(`http://127.0.0.1:4010/qr/${c.id}.png`)
    base = 'http://127.0.0.1:5020'
    expect(presentCharge(deps, c).pix.qrCodeImageUrl).toBe(`http://127.0.0.1:5020/qr/${c.id}.png`)
    expect(presentCharge(deps, c).pix.qrCode).toBe(c.pix.qrCode)
  })
})
