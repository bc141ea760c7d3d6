import { describe, expect, it } from 'vitest'
import { isLoopbackHost, isLoopbackPeer, isLoopbackUrl } from '../../../src/lib/net/loopback.js'

describe('isLoopbackHost', () => {
  it('keeps every spelling of this machine', () => {
    for (const h of ['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '::1', '[::1]', '::ffff:127.0.0.1', '[::ffff:127.0.0.1]']) expect(isLoopbackHost(h), h).toBe(true)
  })
  it('refuses what other machines can reach', () => {
    for (const h of ['0.0.0.0', '::', '192.168.0.10', '10.0.0.1', 'example.test', '::ffff:192.168.0.1', '127.example.test', 'localhost.example.test']) expect(isLoopbackHost(h), h).toBe(false)
  })
})

describe('isLoopbackPeer', () => {
  it('keeps the peer addresses of this machine, IPv4-mapped included', () => {
    for (const a of ['127.0.0.1', '127.0.0.9', '::1', '::ffff:127.0.0.1']) expect(isLoopbackPeer(a), a).toBe(true)
  })
  it('refuses other peers, and a socket with no address', () => {
    for (const a of [undefined, '', 'localhost', '192.168.0.10', '::ffff:10.0.0.1', '::']) expect(isLoopbackPeer(a), String(a)).toBe(false)
  })
})

describe('isLoopbackUrl', () => {
  it('is true for a base URL on this machine, false elsewhere', () => {
    expect(isLoopbackUrl('http://127.0.0.1:8787')).toBe(true)
    expect(isLoopbackUrl('http://[::1]:8787/v1')).toBe(true)
    expect(isLoopbackUrl('https://api.example.com')).toBe(false)
  })
})
