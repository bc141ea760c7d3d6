import { describe, expect, it } from 'vitest'
import { isHttpUrl } from '../../../src/lib/contract/url.js'

describe('isHttpUrl: what a webhook endpoint may be', () => {
  it('accepts absolute http and https URLs with a host', () => {
    expect(isHttpUrl('https://example.com/hooks')).toBe(true)
    expect(isHttpUrl('http://127.0.0.1:8080/webhooks')).toBe(true)
  })

  it('refuses other schemes, relative paths and text that is no URL', () => {
    expect(isHttpUrl('ftp://example.com/')).toBe(false)
    expect(isHttpUrl('file:///etc/passwd')).toBe(false)
    expect(isHttpUrl('/webhooks')).toBe(false)
    expect(isHttpUrl('example.com')).toBe(false)
    expect(isHttpUrl('')).toBe(false)
  })
})
