import { describe, expect, it } from 'vitest'
import { chargeId, newApiKey, newEndToEndId, newEventId, newResourceId, newWebhookSecret, randomHex } from '../../../../src/lib/sandbox/store/ids.js'

describe('ids and secrets the sandbox hands out', () => {
  it('charge ids are 24 hex characters that grow with creation, ties broken by sequence (list order across restarts)', () => {
    const t = Date.parse('2026-11-22T12:00:00Z')
    const ids = [chargeId(t, 2), chargeId(t, 10), chargeId(t + 1, 1)]
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{24}$/)
    expect([...ids].sort()).toEqual(ids)
  })

  it('event and withdrawal ids start with their instant, so later ones sort after', () => {
    const t = Date.parse('2026-11-22T12:00:00Z')
    expect(newEventId(t)).toMatch(/^evt_[0-9a-f]{24}$/)
    expect(newEventId(t) < newEventId(t + 1000)).toBe(true)
    expect(newResourceId(t)).toMatch(/^[0-9a-f]{24}$/)
    expect(newResourceId(t) < newResourceId(t + 1000)).toBe(true)
  })

  it('keys and secrets carry the prefixes the CLI and the masker know, and are never the same twice', () => {
    expect(newApiKey('test')).toMatch(/^svc_test_[0-9a-f]{32}$/)
    expect(newApiKey('live')).toMatch(/^svc_live_[0-9a-f]{32}$/)
    expect(newWebhookSecret()).toMatch(/^whsec_[0-9a-f]{48}$/)
    const many = new Set(Array.from({ length: 2000 }, () => randomHex(16)))
    expect(many.size).toBe(2000)
    expect(randomHex(5000)).toHaveLength(10_000)
  })

  it('a Pix end-to-end id is 32 characters: E, an ISPB of zeros, the UTC minute, then random', () => {
    const e2e = newEndToEndId(Date.parse('2026-11-22T12:34:56Z'))
    expect(e2e).toHaveLength(32)
    expect(e2e.startsWith('E00000000202611221234')).toBe(true)
  })
})
