import { describe, expect, it } from 'vitest'
import { withHttpScheme } from '../../../src/lib/net/url.js'

describe('withHttpScheme', () => {
  it('takes an address without a scheme as http, keeping its path', () => {
    expect(withHttpScheme('localhost:3000/webhooks')).toBe('http://localhost:3000/webhooks')
    expect(withHttpScheme('//example.com/x')).toBe('http://example.com/x')
  })

  it('leaves any scheme as it is, for the caller to refuse', () => {
    expect(withHttpScheme('https://example.com')).toBe('https://example.com')
    expect(withHttpScheme('ftp://example.com')).toBe('ftp://example.com')
  })
})
