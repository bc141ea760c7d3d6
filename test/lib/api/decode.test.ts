import { describe, expect, it } from 'vitest'
import { decodeBody, errorFromResponse, requestIdOf } from '../../../src/lib/api/decode.js'
import { ApiError, ResponseError } from '../../../src/lib/errors.js'
import { ANSWER_SHAPES } from '../../../src/lib/generated/answer-parsers.js'
import { charge, errorBody } from '../../helpers/api-fixtures.js'

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({ status, headers, body: typeof body === 'string' ? body : JSON.stringify(body) })

describe('decoding an API answer', () => {
  it('returns a valid charge as the API sent it, metadata keys named __proto__ included', async () => {
    const c = charge()
    expect(await decodeBody(answer(200, c), ANSWER_SHAPES.charge, 'charge', 'GET /v1/charges/x')).toEqual(c)
    const raw = JSON.stringify(c).replace('{', '{"metadata":{"__proto__":"kept","order":"7"},')
    const decoded = await decodeBody(answer(200, raw), ANSWER_SHAPES.charge, 'charge', 'GET /v1/charges/x')
    expect(Object.hasOwn(decoded.metadata ?? {}, '__proto__')).toBe(true)
  })

  it('names the bad fields and the status of an answer that is not a charge, and quotes a body that is not JSON', async () => {
    const bad = await decodeBody(answer(200, { ...charge(), status: 42 }), ANSWER_SHAPES.charge, 'charge', 'GET /v1/charges/x').catch((e: unknown) => e)
    expect(bad).toBeInstanceOf(ResponseError)
    expect((bad as Error).message).toMatch(/GET \/v1\/charges\/x \(HTTP 200\) is not a valid charge: bad or missing field\(s\) .*status/)
    const html = await decodeBody(answer(200, '<html>\n<b>proxy</b>', { 'content-type': 'text/html' }), ANSWER_SHAPES.charge, 'charge', 'GET /v1/charges/x').catch((e: unknown) => e)
    expect((html as Error).message).toBe('The answer to GET /v1/charges/x (HTTP 200) was a body that is not JSON (text/html): "<html> <b>proxy</b>".')
  })
})

describe('an error answer', () => {
  it('keeps the API’s code, message and request id, and adds what to do next', () => {
    const err = errorFromResponse(answer(401, errorBody('revoked_api_key', 'Chave revogada.', { requestId: 'req_1' })), 'GET /v1/account') as ApiError
    expect(err).toBeInstanceOf(ApiError)
    expect([err.status, err.apiCode, err.message, err.requestId]).toEqual([401, 'revoked_api_key', 'Chave revogada.', 'req_1'])
    // What to do next is a typed step, not the CLI's words: each door words it.
    expect([err.next, err.hint]).toEqual([{ do: 'replace_revoked_key' }, undefined])
    const merchant = errorFromResponse(answer(403, errorBody('merchant_not_activated', 'no')), 'POST /v1/charges') as ApiError
    expect([merchant.next, merchant.hint]).toEqual([undefined, 'The account is not cleared to charge yet: check it in the panel.'])
    // An unknown code (even one named like an object's own key) has neither.
    const odd = errorFromResponse(answer(400, errorBody('constructor', 'odd')), 'GET /v1/account') as ApiError
    expect([odd.next, odd.hint]).toEqual([undefined, undefined])
  })

  it('says when to try again after a 429 with Retry-After', () => {
    const err = errorFromResponse(answer(429, errorBody('rate_limited', 'slow down'), { 'retry-after': '3' }), 'POST /v1/charges') as ApiError
    expect(err.retryAfterMs).toBe(3000)
    expect(err.hint).toBe('Too many requests for this key: try again in 3 s.')
  })

  it('keeps the meaning of a proxy’s 503 without the API’s body (so the exit code says network), and names any other stray answer', () => {
    const gateway = errorFromResponse(answer(503, 'Service Unavailable', { 'x-request-id': 'req_gw' }), 'GET /v1/account') as ApiError
    expect([gateway.apiCode, gateway.requestId, gateway.exitCode]).toEqual(['http_503', 'req_gw', 7])
    const stray = errorFromResponse(answer(500, { oops: true }), 'GET /v1/account')
    expect(stray).toBeInstanceOf(ResponseError)
    expect(stray.message).toContain('not the API error shape')
    expect(requestIdOf({ 'request-id': 'req_2' })).toBe('req_2')
  })
})
