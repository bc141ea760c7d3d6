/**
 * Charge text fields are printable text: the sandbox refuses control characters (ESC, NUL, C1,
 * tab, newline) and unpaired surrogates with 400 naming the field, stores nothing, and the CLI
 * refuses the same values before sending (exit 2), from the same schema.
 */
import { describe, expect, it } from 'vitest'
import { svc } from '../../../helpers/cli.js'
import { useHarness } from '../../../helpers/conformance.js'

const h = useHarness()

describe('charge text fields', () => {
  it.each([
    ['description', { description: 'pedido \u001b]0;pwned\u0007' }],
    ['payerName', { payerName: 'Ana\u0000' }],
    ['externalId', { externalId: 'ord-\u009b1' }],
    ['externalId', { externalId: 'ord-\ud800' }],
    ['metadata.order', { metadata: { order: 'a\nb' } }],
  ])('%s with a control character → 400 naming it, nothing stored', async (field, body) => {
    const before = (await h.call('GET', '/v1/charges?limit=100')).body.data.length
    const r = await h.create(body)
    expect(r.status).toBe(400)
    expect(r.body.error.code).toBe('invalid_request')
    expect(r.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]))
    expect((await h.call('GET', '/v1/charges?limit=100')).body.data.length).toBe(before)
  })

  it('keeps accents, emoji and other printable Unicode', async () => {
    const r = await h.create({ description: 'Açaí 😀 — nº 42', payerName: 'José Ñuñez' })
    expect(r.status).toBe(201)
    expect(r.body.description).toBe('Açaí 😀 — nº 42')
  })

  it('the CLI refuses the same value before sending anything (exit 2)', async () => {
    const r = await svc(['charges', 'create', '--amount', '1500', '--payer-tax-number', '529.982.247-25', '--description', 'x\u001b[2Jy'], {
      env: { SVC_API_KEY: h.sb.testKey, SVC_BASE_URL: 'http://127.0.0.1:9' },
    })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/--description \(description\): must not contain control characters/)
  })
})
