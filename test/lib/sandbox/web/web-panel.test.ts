/**
 * Issue 29 item 10: the sandbox bank reads a copy-and-paste string with the decoder `svc pix
 * decode` uses (domain/pix-decode.ts), so it pays no code that command refuses: a lower-case
 * CRC, fields 52/53/58 removed, a duplicate field, an empty field 62. The charge stays unpaid.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { crc16 } from '../../../../src/lib/domain/brcode.js'
import { decodePix } from '../../../../src/lib/domain/pix-decode.js'
import { startSandboxServer } from '../../../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../../../src/lib/sandbox/types.js'

let sb: RunningSandbox
let cookie: string
let csrf: string
beforeAll(async () => {
  sb = await startSandboxServer({ port: 0, inMemory: true })
  const signIn = await fetch(sb.panelUrl, { redirect: 'manual' })
  cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!
  const page = await (await fetch(`${sb.baseUrl}/panel/bank?env=test`, { headers: { cookie } })).text()
  csrf = /name="_csrf" value="([^"]+)"/.exec(page)![1]!
})
afterAll(() => sb.close())

async function createCharge(): Promise<{ id: string; qrCode: string }> {
  const r = await fetch(`${sb.baseUrl}/v1/charges`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sb.testKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ amountInCents: 1500, payerTaxNumber: '52998224725' }),
  })
  const c = (await r.json()) as { id: string; pix: { qrCode: string } }
  return { id: c.id, qrCode: c.pix.qrCode }
}

async function statusOf(id: string): Promise<string> {
  const r = await fetch(`${sb.baseUrl}/v1/charges/${id}`, { headers: { authorization: `Bearer ${sb.testKey}` } })
  return ((await r.json()) as { status: string }).status
}

function pay(code: string): Promise<Response> {
  return fetch(`${sb.baseUrl}/panel/bank?env=test`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, code, action: 'pay' }).toString(),
  })
}

const withCrc = (body: string) => body + crc16(body)

describe('the sandbox bank and `svc pix decode` give one verdict', () => {
  const variants: Array<[string, (q: string) => string]> = [
    ['a lower-case CRC', (q) => q.slice(0, -4) + q.slice(-4).toLowerCase()],
    ['fields 52, 53 and 58 removed', (q) => withCrc(q.slice(0, -4).replace('52040000', '').replace('5303986', '').replace('5802BR', ''))],
    ['a duplicate field', (q) => withCrc(q.slice(0, -4).replace('5802BR', '5802BR5802BR'))],
    ['an empty field 62', (q) => withCrc(q.slice(0, -4).replace('62070503***', '6200'))],
  ]
  for (const [what, change] of variants) {
    it(`refuses to pay ${what}, as pix decode does; the charge stays unpaid`, async () => {
      let charge = await createCharge()
      // A lower-case CRC differs only when the CRC has a letter.
      while (what === 'a lower-case CRC' && !/[A-F]/.test(charge.qrCode.slice(-4))) charge = await createCharge()
      const code = change(charge.qrCode)
      expect(code).not.toBe(charge.qrCode)
      expect(decodePix(code)).toMatchObject({ valid: false })
      const r = await pay(code)
      expect(r.status).toBe(422)
      expect(await r.text()).toContain('This string cannot be paid')
      expect(await statusOf(charge.id)).toBe('awaiting_payment')
    })
  }

  it("pays the charge's own code", async () => {
    const charge = await createCharge()
    expect(decodePix(charge.qrCode)).toMatchObject({ valid: true })
    const r = await pay(charge.qrCode)
    expect(r.status).toBe(200)
    expect(await statusOf(charge.id)).toBe('paid_pending_settlement')
  })
})
