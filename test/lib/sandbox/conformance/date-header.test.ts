import { describe, expect, it } from 'vitest'
import { START, useHarness } from '../../../helpers/conformance.js'

// The CLI reads the server's time from Date (client.serverNow()): a sandbox whose clock was
// advanced must say so, or charges created "now" read as hours in the future.
describe('Date header', () => {
  const h = useHarness({}, { each: true })

  it('carries the sandbox clock on answers, errors and panel routes, and moves when the clock is advanced', async () => {
    const expected = new Date(START).toUTCString()
    const created = await h.create()
    expect(created.status).toBe(201)
    expect(created.headers.get('date')).toBe(expected)
    expect((await h.call('GET', '/v1/charges/000000000000000000000000')).headers.get('date')).toBe(expected)
    expect((await h.call('GET', '/v1/account', { key: null })).headers.get('date')).toBe(expected)
    expect((await h.call('GET', '/_sandbox/info')).headers.get('date')).toBe(expected)

    await h.clock.advance(25 * 3_600_000)
    const later = await h.call('GET', `/v1/charges/${created.body.id}`)
    expect(later.headers.get('date')).toBe(new Date(START + 25 * 3_600_000).toUTCString())
    expect(later.body.status).toBe('expired')
  })
})
