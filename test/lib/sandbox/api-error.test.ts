import { describe, expect, it } from 'vitest'
import { chargeNotFound, invalidRequest, SandboxApiError, withdrawalNotFound } from '../../../src/lib/sandbox/api-error.js'

describe('the sandbox’s error answers (spec 2.9)', () => {
  it('take their HTTP status from the contract’s one table', () => {
    expect(chargeNotFound().status).toBe(404)
    expect(withdrawalNotFound().status).toBe(404)
    expect(invalidRequest([{ field: 'amountInCents', message: 'too small' }]).status).toBe(400)
    expect(new SandboxApiError('rate_limited', 'slow down', { headers: { 'retry-after': '2' } }).status).toBe(429)
    expect(new SandboxApiError('some_new_code', 'x').status).toBe(500)
  })

  it('answer the spec’s body: code, message, details when there are some, and the request id', () => {
    expect(invalidRequest([{ field: 'payerTaxNumber', message: 'invalid' }]).body('req_1')).toEqual({
      error: { code: 'invalid_request', message: 'Requisição inválida: verifique os campos em details.', details: [{ field: 'payerTaxNumber', message: 'invalid' }], requestId: 'req_1' },
    })
    expect(chargeNotFound().body('req_2').error).not.toHaveProperty('details')
  })
})
