import { describe, expect, it } from 'vitest'
import { isSandboxHost } from '../../../../src/lib/sandbox/http/host-check.js'

describe('which Host headers the panel answers (against DNS rebinding)', () => {
  it('answers the loopback names, in any case, on its own port', () => {
    for (const host of ['127.0.0.1:4010', 'localhost:4010', 'LOCALHOST:4010', '[::1]:4010']) expect(isSandboxHost(host, 4010), host).toBe(true)
  })

  it('refuses another site’s name, another port, another 127.x address, a missing port or no Host', () => {
    for (const host of ['evil.example:4010', 'localhost:4011', '127.0.0.2:4010', 'localhost', '', undefined]) expect(isSandboxHost(host, 4010), String(host)).toBe(false)
  })

  it('answers the address it listens on when that is not a usual loopback name (--host 127.0.0.2)', () => {
    expect(isSandboxHost('127.0.0.2:4010', 4010, '127.0.0.2')).toBe(true)
    expect(isSandboxHost('127.0.0.3:4010', 4010, '127.0.0.2')).toBe(false)
  })
})
