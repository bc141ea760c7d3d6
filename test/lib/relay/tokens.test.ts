import { describe, expect, it } from 'vitest'
import { bearerToken, hashRelayToken, isRelayTokenShaped, newRelayToken, RELAY_NAME } from '../../../src/lib/relay/tokens.js'

describe('relay tokens', () => {
  it('are svcrelay_ and 256 random bits, distinct, and stored as a SHA-256 hex', () => {
    const a = newRelayToken()
    const b = newRelayToken()
    expect(a).toMatch(/^svcrelay_[A-Za-z0-9_-]{43}$/)
    expect(a).not.toBe(b)
    expect(isRelayTokenShaped(a)).toBe(true)
    expect(hashRelayToken(a)).toMatch(/^[0-9a-f]{64}$/)
    expect(hashRelayToken(a)).not.toContain(a.slice(9))
  })

  it('are read from the Authorization header only, as Bearer', () => {
    expect(bearerToken('Bearer svcrelay_x')).toBe('svcrelay_x')
    expect(bearerToken('bearer  svcrelay_x ')).toBe('svcrelay_x')
    expect(bearerToken('Basic abc')).toBeUndefined()
    expect(bearerToken(undefined)).toBeUndefined()
    expect(isRelayTokenShaped('svcrelay_short')).toBe(false)
  })

  it('names: lower-case, digits, - and _, at most 63', () => {
    expect(RELAY_NAME.test('team-test_1')).toBe(true)
    for (const bad of ['Team', '-team', '', 'a'.repeat(64), 'te am', 'te/am']) expect(RELAY_NAME.test(bad)).toBe(false)
  })
})
