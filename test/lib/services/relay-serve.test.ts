import { describe, expect, it } from 'vitest'
import { checkExposure } from '../../../src/lib/services/relay-serve.js'

describe('relay serve exposure rules', () => {
  it('loopback needs nothing; any other address needs TLS or --behind-proxy', () => {
    expect(() => checkExposure({ host: '127.0.0.1', behindProxy: false })).not.toThrow()
    expect(() => checkExposure({ host: '::1', behindProxy: false })).not.toThrow()
    expect(() => checkExposure({ host: '0.0.0.0', behindProxy: false })).toThrow(/--tls-cert.*--behind-proxy/)
    expect(() => checkExposure({ host: '0.0.0.0', behindProxy: true })).not.toThrow()
    expect(() => checkExposure({ host: '0.0.0.0', behindProxy: false, tlsCert: 'c.pem', tlsKey: 'k.pem' })).not.toThrow()
    expect(() => checkExposure({ host: '0.0.0.0', behindProxy: false, tlsCert: 'c.pem' })).toThrow(/go together/)
  })
})
