import { describe, expect, it } from 'vitest'
import { relayStoreUrl } from '../../../src/lib/services/relay-migrate.js'

describe('the relay store URL of migrate', () => {
  it('takes --store first, then SVC_RELAY_STORE', () => {
    expect(relayStoreUrl('postgres://a/x', { SVC_RELAY_STORE: 'postgres://b/y' })).toBe('postgres://a/x')
    expect(relayStoreUrl(undefined, { SVC_RELAY_STORE: 'postgresql://b/y' })).toBe('postgresql://b/y')
  })

  it('refuses none, or another scheme, naming --store without the password', () => {
    expect(() => relayStoreUrl(undefined, {})).toThrow(/--store is needed/)
    expect(() => relayStoreUrl('file:///tmp/x', {})).toThrow(/--store takes a postgres/)
    expect(() => relayStoreUrl('redis://u:topsecret@h/0', {})).not.toThrow(/topsecret/)
  })
})
