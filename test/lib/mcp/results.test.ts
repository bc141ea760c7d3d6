import { describe, expect, it } from 'vitest'
import { ApiError, NetworkError, UsageError } from '../../../src/lib/errors.js'
import { errorResult, successResult, toolErrorOf } from '../../../src/lib/mcp/results.js'
import { TEST_KEY } from '../../helpers/api-fixtures.js'

describe('what an MCP tool call answers', () => {
  it('a success: the object, a sentence, and the same object as JSON text, the session’s secrets masked everywhere', () => {
    const r = successResult({ structured: { id: 'abc', note: `key ${TEST_KEY}`, [TEST_KEY]: 1 }, text: `Created with ${TEST_KEY}.` }, [TEST_KEY])
    expect(r.isError).toBeUndefined()
    expect(r.structuredContent.id).toBe('abc')
    expect(JSON.parse(r.content[1]!.text)).toEqual(r.structuredContent)
    expect(JSON.stringify(r)).not.toContain(TEST_KEY)
  })

  it('an API refusal is an error result in the API’s shape, with its status and request id — never a success', () => {
    const err = new ApiError({ status: 409, code: 'external_id_conflict', message: 'externalId already used', requestId: 'req_42' })
    const r = errorResult(err, [])
    expect(r.isError).toBe(true)
    expect(r.structuredContent).toMatchObject({ error: { code: 'external_id_conflict', requestId: 'req_42' }, status: 409 })
    expect(r.content[0]!.text).toMatch(/^The API refused \(409 external_id_conflict\): .*requestId req_42/)
  })

  it('the CLI’s own errors keep their code; a network failure says so; anything else is a bug to report', () => {
    expect(toolErrorOf(new UsageError('amount is too small', { field: 'amount' })).error.code).toBe('invalid_request')
    expect(errorResult(new NetworkError('connection refused'), []).content[0]!.text).toMatch(/^Network failure: /)
    const bug = toolErrorOf(new TypeError('x is undefined'))
    expect(bug.error).toEqual({ code: 'internal_error', message: 'svc failed unexpectedly: x is undefined' })
    expect(bug.hint).toContain('SVC_DEBUG=1')
  })

  it('words an error’s typed next step as the tools, in the structured hint and the sentence', () => {
    const lost = new NetworkError('Could not connect to 127.0.0.1:9: connection refused.', { next: { do: 'retry_create', idempotencyKey: 'k-1' } })
    const r = errorResult(lost, [])
    expect(r.structuredContent.hint).toBe('It may have been created: call create_charge again with idempotencyKey "k-1" to get it without creating a second one.')
    expect(r.content[0]!.text).toMatch(/connection refused\. It may have been created: call create_charge/)
    const refused = new ApiError({ status: 409, code: 'invalid_transition', message: 'no', next: { do: 'see_charge', id: 'c1', status: 'settled', from: ['created'] } })
    expect(toolErrorOf(refused).hint).toBe('A charge reaches settled only from: created. See its state with get_charge {"id": "c1"}.')
    // A plain hint that still names the CLI is dropped (the safety net), the error kept.
    expect(toolErrorOf(new UsageError('bad', { hint: 'Run `svc sandbox start`.' }))).toEqual({ error: { code: 'invalid_request', message: 'bad' } })
  })
})
